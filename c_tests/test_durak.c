/* The Durak bot through the C ABI, fed the statement's sample interaction
 * from player 1's view (docs/rules/durak.md §3.5): every answer must be legal
 * in the sample's position; plus the error paths. */
#include <string.h>

#include "cardgames.h"
#include "check.h"

/* Whether `answer` is one of the space-separated `legal` answers. */
static int is_one_of(const char *answer, const char *legal)
{
    size_t n = strlen(answer);
    const char *p = legal;
    while ((p = strstr(p, answer)) != NULL) {
        if ((p == legal || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
        p += n;
    }
    return 0;
}

/* Feeds the sample's lines up to each command; each command's answer must be
 * legal. Writes the three answers into `answers` (3 x 3 bytes). */
static void play_sample(cg_durak_bot *bot, char answers[3][3])
{
    static const char *const deal[] = {
        "trump S", "give 1 6S", "give 1 7S", "give 1 8S", "give 1 9S", "give 1 TS", "give 1 JS",
    };
    size_t i;
    size_t needed = 0;
    int k;

    for (i = 0; i < sizeof deal / sizeof deal[0]; i++)
        CHECK_STATUS(cg_durak_bot_feed(bot, deal[i]), CG_OK);
    for (k = 2; k <= 4; k++)
        for (i = 0; i < 6; i++) {
            char line[16];
            sprintf(line, "give %d ??", k);
            CHECK_STATUS(cg_durak_bot_feed(bot, line), CG_OK);
        }
    CHECK_STATUS(cg_durak_bot_feed(bot, "move 2 3 6D"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "beat 3 7D"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 2 ??"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 3 ??\r\n"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "move 3 4 6C"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "beat 4 7C"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "add 3 4 7H"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "beat  4  AS"), CG_OK);
    /* Ranks 6 and 7 (and A) are on the table: 6S, 7S or NO. */
    CHECK_STATUS(cg_durak_bot_answer(bot, "ADD", answers[0], 3, &needed), CG_OK);
    CHECK(needed == 2 && is_one_of(answers[0], "6S 7S NO"));
    CHECK_STATUS(cg_durak_bot_feed(bot, "add 1 4 6S"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "take 4"), CG_OK);
    /* 6S is gone: 7S or NO. */
    CHECK_STATUS(cg_durak_bot_answer(bot, "ADD\r\n", answers[1], 3, &needed), CG_OK);
    CHECK(is_one_of(answers[1], "7S NO"));
    CHECK_STATUS(cg_durak_bot_feed(bot, "add 1 4 7S"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 3 ??"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 3 ??"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 1 QS"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 1 KS"), CG_OK);
    /* The hand is now 8S 9S TS JS QS KS; a lead cannot be NO. */
    CHECK_STATUS(cg_durak_bot_answer(bot, "MOVE", answers[2], 3, &needed), CG_OK);
    CHECK(is_one_of(answers[2], "8S 9S TS JS QS KS"));
    CHECK_STATUS(cg_durak_bot_feed(bot, "move 1 2 8S"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "take 2"), CG_OK);
    CHECK_STATUS(cg_durak_bot_feed(bot, "give 1 AC"), CG_OK);
}

int main(void)
{
    cg_durak_bot *bot = NULL;
    cg_durak_bot *untouched = (cg_durak_bot *)&check_passed; /* never dereferenced */
    char answers[3][3];
    char buf[3] = {'x', 'x', 'x'};
    size_t needed = 0;

    CHECK_STATUS(cg_durak_bot_new(7, &bot), CG_OK);
    /* (No same-seed twin is compared: the search stops at a wall-clock cap
     * that binds under valgrind, so equal seeds need not give equal answers.) */
    play_sample(bot, answers);

    /* Errors leave the bot usable and write nothing but `needed`. */
    CHECK_STATUS(cg_durak_bot_feed(bot, "bogus 1 2"), CG_BAD_INPUT);
    CHECK_STATUS(cg_durak_bot_feed(bot, "MOVE"), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_durak_bot_answer(bot, "give 1 7D", buf, sizeof buf, &needed), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_durak_bot_answer(bot, "PLAY", buf, sizeof buf, &needed), CG_BAD_INPUT);
    CHECK_STATUS(cg_durak_bot_answer(bot, "MOVE", buf, 2, &needed), CG_BUFFER_TOO_SMALL);
    CHECK(needed == 2 && buf[0] == 'x');
    CHECK_STATUS(cg_durak_bot_answer(bot, "MOVE", NULL, 0, NULL), CG_BUFFER_TOO_SMALL);
    CHECK_STATUS(cg_durak_bot_answer(bot, "MOVE", NULL, sizeof buf, &needed), CG_NULL_POINTER);
    CHECK_STATUS(cg_durak_bot_answer(NULL, "MOVE", buf, sizeof buf, &needed), CG_NULL_POINTER);
    CHECK_STATUS(cg_durak_bot_feed(NULL, "take 2"), CG_NULL_POINTER);
    CHECK_STATUS(cg_durak_bot_feed(bot, NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_durak_bot_new(1, NULL), CG_NULL_POINTER);
    CHECK(untouched == (cg_durak_bot *)&check_passed);
    /* Still answers legally after the refused calls: the hand is 9S TS JS QS KS AC. */
    CHECK_STATUS(cg_durak_bot_answer(bot, "MOVE", buf, sizeof buf, &needed), CG_OK);
    CHECK(is_one_of(buf, "9S TS JS QS KS AC"));

    cg_durak_bot_free(bot);
    cg_durak_bot_free(NULL);
    return check_report();
}
