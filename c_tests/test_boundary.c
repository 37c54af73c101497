/* The C boundary itself: status messages, the version, and a panic inside an
 * exported function coming back as CG_PANIC instead of an abort. */
#include <string.h>

#include "cardgames.h"
#include "check.h"

int main(void)
{
    static const int statuses[] = {
        CG_OK, CG_NULL_POINTER, CG_INVALID_UTF8, CG_BAD_CARD, CG_BAD_SHUFFLE,
        CG_OUT_OF_RANGE, CG_BUFFER_TOO_SMALL, CG_BAD_INPUT, CG_GAME_UNFINISHED,
        CG_INVALID_ARGUMENT, CG_NO_MOVE, CG_PANIC,
    };
    size_t i;

    for (i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
        const char *message = cg_status_str(statuses[i]);
        CHECK(message != NULL && strlen(message) > 0);
        CHECK(strcmp(message, "unknown status") != 0);
    }
    CHECK_STR(cg_status_str(CG_OK), "ok");
    CHECK_STR(cg_status_str(12345), "unknown status");
    CHECK_STR(cg_status_str(-1), "unknown status");
    CHECK(strchr(cg_version(), '.') != NULL);

    /* The process survives the panic and the next calls work. */
    CHECK_STATUS(cg_debug_panic(), CG_PANIC);
    CHECK_STATUS(cg_debug_panic(), CG_PANIC);
    {
        cg_deck *deck = NULL;
        CHECK_STATUS(cg_deck_new(&deck), CG_OK);
        cg_deck_free(deck);
    }
    return check_report();
}
