/* The generated header alone must compile as C89, C99, C++98 and C++17 with
 * -pedantic and every warning an error (make header-check). */
#include "cardgames.h"

#ifdef __cplusplus
extern "C" int cardgames_header_compiles(void);
#else
int cardgames_header_compiles(void);
#endif
int cardgames_header_compiles(void)
{
    return CG_OK + CG_VERSION_MAJOR;
}
