/* The Ioiwari solver through the C ABI: every legal start is a first-player
 * win (IOI 2001 statement), values from the task authors' published table,
 * and the error paths. */
#include <stdint.h>

#include "cardgames.h"
#include "check.h"

/* Starts and optimal values for player 1 published by the IOI 2001 authors. */
static const struct {
    uint8_t pits[7];
    int value;
} published[] = {
    {{4, 4, 4, 2, 2, 2, 2}, 4}, {{3, 4, 3, 4, 2, 2, 2}, 2}, {{4, 4, 3, 2, 3, 2, 2}, 6},
    {{4, 2, 3, 4, 3, 2, 2}, 2}, {{4, 3, 2, 3, 4, 2, 2}, 6}, {{3, 3, 4, 3, 2, 3, 2}, 6},
    {{4, 2, 4, 2, 3, 3, 2}, 4}, {{4, 2, 3, 3, 3, 3, 2}, 2},
};

int main(void)
{
    uint8_t pits[7];
    int starts = 0;
    int losing_or_drawn = 0;
    int code;
    int value = 0;
    int pit = 0;
    size_t i;

    /* Every start: each pit 2..4, 20 stones. */
    for (code = 0; code < 3 * 3 * 3 * 3 * 3 * 3 * 3; code++) {
        int rest = code;
        int sum = 0;
        for (i = 0; i < 7; i++) {
            pits[i] = (uint8_t)(2 + rest % 3);
            rest /= 3;
            sum += pits[i];
        }
        if (sum != 20)
            continue;
        starts++;
        if (cg_ioiwari_value(pits, &value) != CG_OK || value <= 0)
            losing_or_drawn++;
        if (cg_ioiwari_best_move(pits, &pit) != CG_OK || pit < 1 || pit > 7 || pits[pit - 1] == 0)
            losing_or_drawn++;
    }
    CHECK(starts == 357);
    CHECK(losing_or_drawn == 0);

    for (i = 0; i < sizeof published / sizeof published[0]; i++) {
        CHECK_STATUS(cg_ioiwari_value(published[i].pits, &value), CG_OK);
        CHECK(value == published[i].value);
    }

    /* A single stone left: the one-stone rule banks it with the stones of the
     * next pit when that pit holds 1..4; from pit 7 the next is pit 1. */
    {
        static const uint8_t one[7] = {0, 0, 0, 0, 0, 0, 1};
        CHECK_STATUS(cg_ioiwari_best_move(one, &pit), CG_OK);
        CHECK(pit == 7);
        /* The next pit (1) is empty: the stone goes to the opponent. */
        CHECK_STATUS(cg_ioiwari_value(one, &value), CG_OK);
        CHECK(value == -1);
    }

    /* The end of the game and bad boards. */
    {
        static const uint8_t empty[7] = {0, 0, 0, 0, 0, 0, 0};
        static const uint8_t six[7] = {6, 2, 2, 2, 2, 2, 4};
        pit = 42;
        value = 42;
        CHECK_STATUS(cg_ioiwari_best_move(empty, &pit), CG_NO_MOVE);
        CHECK(pit == 42);
        CHECK_STATUS(cg_ioiwari_value(empty, &value), CG_OK);
        CHECK(value == 0);
        CHECK_STATUS(cg_ioiwari_value(six, &value), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_ioiwari_best_move(six, &pit), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_ioiwari_value(NULL, &value), CG_NULL_POINTER);
        CHECK_STATUS(cg_ioiwari_value(empty, NULL), CG_NULL_POINTER);
        CHECK_STATUS(cg_ioiwari_best_move(NULL, &pit), CG_NULL_POINTER);
        CHECK_STATUS(cg_ioiwari_best_move(empty, NULL), CG_NULL_POINTER);
    }

    /* Releasing the table (twice is fine); the next call rebuilds it and
     * answers as before. */
    {
        static const uint8_t one[7] = {0, 0, 0, 0, 0, 0, 1};
        cg_ioiwari_release();
        cg_ioiwari_release();
        value = 42;
        CHECK_STATUS(cg_ioiwari_value(one, &value), CG_OK);
        CHECK(value == -1);
        cg_ioiwari_release();
    }
    return check_report();
}
