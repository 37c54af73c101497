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
        CG_INVALID_ARGUMENT, CG_NO_MOVE, CG_EMPTY, CG_IO, CG_PANIC
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
    /* The header's version macros are the library's version. */
    CHECK_STR(cg_version(), CG_VERSION_STRING);
    CHECK(CG_VERSION_MAJOR >= 0 && CG_VERSION_MINOR >= 0 && CG_VERSION_PATCH >= 0);

    /* The last error: the detail of the last call, "" after a success. */
    {
        char message[256];
        char tiny[4];
        size_t needed = 0;
        char out[64];
        size_t written = 0;
        CHECK_STATUS(cg_homework_run("razboi\n2\nmongean\nshuffle\n", out, sizeof out, &written),
                     CG_BAD_INPUT);
        CHECK_STATUS(cg_last_error_message(message, sizeof message, &needed), CG_OK);
        CHECK(strstr(message, "in:4") != NULL && strstr(message, "shuffle") != NULL);
        CHECK(needed == strlen(message));
        /* Too small: the length is reported, the buffer untouched. */
        memcpy(tiny, "xyz", 4);
        CHECK_STATUS(cg_last_error_message(tiny, sizeof tiny, &needed), CG_BUFFER_TOO_SMALL);
        CHECK(needed == strlen(message) && strcmp(tiny, "xyz") == 0);
        CHECK_STATUS(cg_last_error_message(NULL, 8, &needed), CG_NULL_POINTER);
        /* `needed` is optional; a failed cg_last_error_message keeps the
         * message it reports. */
        CHECK_STATUS(cg_last_error_message(message, sizeof message, NULL), CG_OK);
        CHECK(strstr(message, "in:4") != NULL);
        /* A NULL argument is named, with the function. */
        CHECK_STATUS(cg_deck_len(NULL, &needed), CG_NULL_POINTER);
        CHECK_STATUS(cg_last_error_message(message, sizeof message, &needed), CG_OK);
        CHECK_STR(message, "cg_deck_len: deck is NULL");
        /* A success clears it. */
        CHECK_STATUS(cg_homework_run("razboi\n0\n", out, sizeof out, &written), CG_OK);
        CHECK_STATUS(cg_last_error_message(message, sizeof message, &needed), CG_OK);
        CHECK(needed == 0 && message[0] == '\0');
    }

#ifdef CG_DEBUG_PANIC
    /* The process survives the panic, prints nothing, and the next calls
     * work; the panic's message is the last error. */
    CHECK_STATUS(cg_debug_panic(), CG_PANIC);
    CHECK_STATUS(cg_debug_panic(), CG_PANIC);
    {
        char message[256];
        size_t needed = 0;
        CHECK_STATUS(cg_last_error_message(message, sizeof message, &needed), CG_OK);
        CHECK(strstr(message, "deliberate panic") != NULL);
    }
#else
    printf("cg_debug_panic: not in this build (the debug-panic feature), skipped\n");
#endif
    {
        cg_deck *deck = NULL;
        CHECK_STATUS(cg_deck_new(&deck), CG_OK);
        cg_deck_free(deck);
    }
    return check_report();
}
