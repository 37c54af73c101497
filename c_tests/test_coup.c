/* The Coup bot through the C ABI: every answer is one of the legal answers
 * given (docs/rules/coup.md §5), the Exchange call returns n kept
 * cards drawn from the n+2 offered, decisions repeat for the same inputs, the
 * memory handle, and the error paths. */
#include <stdint.h>
#include <string.h>

#include "cardgames.h"
#include "check.h"

static const char *const strategies[] = {
    "search", "calculator", "random", "income", "honest", "challenger", "tax-bluffer",
};

/* Whether `answer` is one of the `count` legal answers. */
static int is_legal(const char *answer, const char *const *legal, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        if (strcmp(answer, legal[i]) == 0)
            return 1;
    return 0;
}

/* Decides with every strategy and checks the answer is legal and no exchange. */
static void check_decisions(const char *history, int64_t opp, int64_t mine, const char *cards,
                            const char *const *legal, size_t count)
{
    char answer[16];
    char keep[16];
    size_t answer_len = 99;
    size_t keep_len = 99;
    size_t i;
    for (i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        CHECK_STATUS(cg_coup_decide(strategies[i], history, opp, mine, cards, legal, count, answer,
                                    sizeof answer, &answer_len, keep, sizeof keep, &keep_len),
                     CG_OK);
        CHECK(is_legal(answer, legal, count));
        CHECK(answer_len == strlen(answer));
        CHECK(keep_len == 0 && keep[0] == '\0');
    }
}

int main(void)
{
    char answer[16];
    char again[16];
    char keep[16];
    size_t answer_len = 0;
    size_t keep_len = 0;

    /* The first turn of a game, the opponent's Foreign Aid, Steal and
     * Assassinate, a lost challenge of my Tax bluff (which card to give up),
     * and my turn at 7 coins (Coup among seven choices). Every case offers a
     * real choice; the lists are the engine's legal_answers for them. */
    {
        static const char *const first[] = {"I\n", "F", "E", "S", "T"};
        static const char *const aid[] = {"d", "p"};
        static const char *const steal[] = {"a", "c", "p", "q"};
        static const char *const assassinate[] = {"s", "q", "=", "0"};
        static const char *const challenged[] = {"_\n", "=\n"};
        static const char *const rich[] = {"I\n", "F", "E", "T", "A", "C", "S"};
        check_decisions("", 1, 1, "$!", first, 5);
        check_decisions("I\nF", 3, 2, "$!", aid, 2);
        check_decisions("I\nI\nS", 4, 3, "~*", steal, 4);
        check_decisions("I\nI\nTp\nA", 1, 6, "!$", assassinate, 4);
        check_decisions("Tq", 4, 1, "~!", challenged, 2);
        check_decisions("", 9, 7, "$^", rich, 7);
    }

    /* The Exchange call: 2 cards kept out of the 4 offered. */
    {
        static const char *const done[] = {"\n"};
        char pool[] = "$^~!";
        size_t i;
        CHECK_STATUS(cg_coup_decide("honest", "Ep", 1, 1, "$^~!", done, 1, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_OK);
        CHECK_STR(answer, "\n");
        CHECK(keep_len == 2 && strlen(keep) == 2);
        for (i = 0; i < keep_len; i++) {
            char *found = strchr(pool, keep[i]);
            CHECK(found != NULL);
            if (found != NULL)
                *found = '.';
        }
    }

    /* Deterministic: the same inputs give the same answer. */
    {
        static const char *const first[] = {"I\n", "F", "E", "S", "T"};
        CHECK_STATUS(cg_coup_decide(NULL, "I\nFp\n", 3, 1, "^*", first, 5, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_OK);
        CHECK_STATUS(cg_coup_decide(NULL, "I\nFp\n", 3, 1, "^*", first, 5, again, sizeof again,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_OK);
        CHECK_STR(answer, again);
        CHECK(is_legal(answer, first, 5));
    }

    /* A malformed history is refused, the answer untouched (the command-line bot forgives
       one, so as never to forfeit; a C caller is told). */
    {
        static const char *const first[] = {"I\n", "F"};
        strcpy(answer, "untouched");
        CHECK_STATUS(cg_coup_decide("search", "garbage!!\n#", 1, 1, "$^", first, 2, answer,
                                    sizeof answer, &answer_len, keep, sizeof keep, &keep_len),
                     CG_INVALID_ARGUMENT);
        CHECK(strcmp(answer, "untouched") == 0);
    }

    /* Errors: nothing written but the needed lengths on a small buffer. */
    {
        static const char *const first[] = {"I\n", "F", "E", "S", "T"};
        char tiny[1] = {'x'};
        CHECK_STATUS(cg_coup_decide("bogus", "", 1, 1, "$!", first, 5, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_coup_decide(NULL, "", 1, 1, "$!", first, 0, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_coup_decide(NULL, NULL, 1, 1, "$!", first, 5, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_NULL_POINTER);
        CHECK_STATUS(cg_coup_decide(NULL, "", 1, 1, "$!", NULL, 5, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_NULL_POINTER);
        CHECK_STATUS(cg_coup_decide(NULL, "", 1, 1, "$!", first, 5, answer, sizeof answer,
                                    &answer_len, NULL, sizeof keep, &keep_len),
                     CG_NULL_POINTER);
        answer_len = 0;
        CHECK_STATUS(cg_coup_decide(NULL, "", 1, 1, "$!", first, 5, tiny, sizeof tiny,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_BUFFER_TOO_SMALL);
        CHECK(answer_len >= 1 && tiny[0] == 'x');
    }
    /* The memory handle: a decision with memory records the game under the
     * opponent's name and the game as pending; the text reads back; a
     * finished game settles it; an older format is refused. */
    {
        static const char *const first[] = {"I\n", "F", "E", "S", "T"};
        static const char *const done[] = {"\n"};
        cg_coup_memory *memory = NULL;
        cg_coup_memory *copy = NULL;
        char text[4096];
        char text2[4096];
        size_t text_len = 0;
        int settled = -1;
        CHECK_STATUS(cg_coup_memory_new(&memory), CG_OK);
        CHECK_STATUS(cg_coup_decide_remembering(memory, "Seer", "Ours_Seer_0_0.txt", NULL, "", 1,
                                                1, "$!", first, 5, answer, sizeof answer,
                                                &answer_len, keep, sizeof keep, &keep_len),
                     CG_OK);
        CHECK(is_legal(answer, first, 5));
        CHECK_STATUS(cg_coup_memory_text(memory, text, sizeof text, &text_len), CG_OK);
        CHECK(strncmp(text, "coup-memory v16\n", 16) == 0);
        CHECK(strstr(text, "\nSeer ") != NULL);
        CHECK(strstr(text, " Ours_Seer_0_0.txt=0\n") != NULL); /* pending, arm 0 */
        CHECK(text_len == strlen(text));
        /* Read back into a second handle: the same text. */
        CHECK_STATUS(cg_coup_memory_new(&copy), CG_OK);
        CHECK_STATUS(cg_coup_memory_load(copy, text), CG_OK);
        CHECK_STATUS(cg_coup_memory_text(copy, text2, sizeof text2, NULL), CG_OK);
        CHECK_STR(text, text2);
        /* The game ends (I went first; Seer's Contessa block caught: both its
         * cards lost) and settles: no longer pending. A second update
         * settles nothing. */
        CHECK_STATUS(cg_coup_memory_update(memory, "Ours", "Seer", "Ours_Seer_0_0.txt",
                                           "I\nI\nI\nI\nAsq=", &settled),
                     CG_OK);
        CHECK(settled == 1);
        CHECK_STATUS(cg_coup_memory_update(memory, "Ours", "Seer", "Ours_Seer_0_0.txt",
                                           "I\nI\nI\nI\nAsq=", &settled),
                     CG_OK);
        CHECK(settled == 0);
        CHECK_STATUS(cg_coup_memory_text(memory, text, sizeof text, NULL), CG_OK);
        CHECK(strstr(text, " Ours_Seer_0_0.txt=0\n") == NULL);
        CHECK(strstr(text, " -\n") != NULL); /* nothing pending */
        /* Without memory the same call decides as cg_coup_decide. */
        CHECK_STATUS(cg_coup_decide_remembering(NULL, NULL, NULL, "honest", "Ep", 1, 1, "$^~!",
                                                done, 1, answer, sizeof answer, &answer_len, keep,
                                                sizeof keep, &keep_len),
                     CG_OK);
        CHECK_STR(answer, "\n");
        /* Errors: an older format, a memory without the opponent's name. */
        CHECK_STATUS(cg_coup_memory_load(copy, "coup-memory v14\n"), CG_BAD_INPUT);
        CHECK_STATUS(cg_coup_memory_text(copy, text, sizeof text, NULL), CG_OK);
        CHECK_STR(text, text2); /* unchanged */
        CHECK_STATUS(cg_coup_decide_remembering(memory, NULL, "Ours_Seer_0_1.txt", NULL, "", 1,
                                                1, "$!", first, 5, answer, sizeof answer,
                                                &answer_len, keep, sizeof keep, &keep_len),
                     CG_NULL_POINTER);
        CHECK_STATUS(cg_coup_memory_text(NULL, text, sizeof text, NULL), CG_NULL_POINTER);
        cg_coup_memory_free(copy);
        cg_coup_memory_free(memory);
        cg_coup_memory_free(NULL);
    }
    return check_report();
}
