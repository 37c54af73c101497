/* The generated header alone must compile as C99 with every warning an error. */
#include "cardgames.h"

int cardgames_header_compiles(void);
int cardgames_header_compiles(void)
{
    return CG_OK;
}
