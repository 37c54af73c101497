/* The homework games and the whole homework task through the C ABI, against
 * outcomes derived by hand and the original checker's reference outputs. */
#include "cardgames.h"
#include "check.h"

/* The canonical deck after the given shuffle lines. */
static cg_deck *shuffled(const char *const *lines, size_t count)
{
    cg_deck *deck = NULL;
    size_t i;
    CHECK_STATUS(cg_deck_new(&deck), CG_OK);
    for (i = 0; i < count; i++)
        CHECK_STATUS(cg_deck_shuffle(deck, lines[i]), CG_OK);
    return deck;
}

int main(void)
{
    cg_war_result war = {0, 0, 0};
    cg_game_result game = {0, 0};
    cg_deck *deck = shuffled(NULL, 0);
    char out[64];
    size_t written = 0;

    /* Unshuffled: player 1 wins each of the 26 hands (derived by hand). */
    CHECK_STATUS(cg_war_play(deck, &war), CG_OK);
    CHECK(war.winner == 1 && war.rank == 0 && war.hands == 26);
    /* Unshuffled Rolling Stone: player 1 plays his last card first (by hand). */
    CHECK_STATUS(cg_rolling_stone_play(deck, &game), CG_OK);
    CHECK(game.winner == 1 && game.turns > 13);
    /* The game played on a copy: the caller's deck is unchanged. */
    {
        size_t len = 0;
        CHECK_STATUS(cg_deck_len(deck, &len), CG_OK);
        CHECK(len == 52);
    }
    cg_deck_free(deck);

    /* The shuffles of the original test razboi3: reference "1 K". */
    {
        static const char *const lines[] = {
            "intercalare", "mongean", "npiles 4 4 2 1 3",
            "npiles 13 12 1 13 4 3 2 11 6 5 7 8 10 9",
        };
        deck = shuffled(lines, 4);
        CHECK_STATUS(cg_war_play(deck, &war), CG_OK);
        CHECK(war.winner == 1 && war.rank == 13 && war.hands == 100);
        cg_deck_free(deck);
    }
    /* The shuffles of the original test scarabei2: reference "3". */
    {
        static const char *const lines[] = {"intercalare", "inversare", "mongean", "npiles 4 4 2 1 3"};
        deck = shuffled(lines, 4);
        CHECK_STATUS(cg_scarabs_play(deck, &game), CG_OK);
        CHECK(game.winner == 3);
        cg_deck_free(deck);
    }
    /* The shuffles of the original test rollingstone2: reference "4". */
    {
        static const char *const lines[] = {"intercalare", "mongean", "npiles 4 4 2 1 3"};
        deck = shuffled(lines, 3);
        CHECK_STATUS(cg_rolling_stone_play(deck, &game), CG_OK);
        CHECK(game.winner == 4);
        cg_deck_free(deck);
    }

    /* The whole task, CRLF input as the checker's files have it. */
    CHECK_STATUS(cg_homework_run("razboi\r\n4\r\nintercalare\r\nmongean\r\nnpiles 4 4 2 1 3\r\n"
                                 "npiles 13 13 12 1 4 3 2 11 6 5 7 8 10 9",
                                 out, sizeof out, &written),
                 CG_OK);
    CHECK_STR(out, "2\n");
    CHECK(written == 2);
    CHECK_STATUS(cg_homework_run("amestecare\n1\ninversare\n", out, sizeof out, &written),
                 CG_BUFFER_TOO_SMALL);
    CHECK(written == 52 * 3);
    CHECK_STATUS(cg_homework_run("poker\n0\n", out, sizeof out, &written), CG_BAD_INPUT);
    CHECK_STATUS(cg_homework_run("razboi\n2\nmongean\n", out, sizeof out, &written), CG_BAD_INPUT);
    CHECK_STATUS(cg_homework_run("razboi\n1\nnpiles 5 1 2 3 4 5\n", out, sizeof out, &written),
                 CG_BAD_SHUFFLE);
    CHECK_STATUS(cg_homework_run(NULL, out, sizeof out, &written), CG_NULL_POINTER);
    CHECK_STATUS(cg_homework_run("razboi\n0\n", NULL, sizeof out, &written), CG_NULL_POINTER);
    CHECK_STATUS(cg_homework_run("razboi\n0\n", out, sizeof out, NULL), CG_OK); /* `written` is optional */

    CHECK_STATUS(cg_war_play(NULL, &war), CG_NULL_POINTER);
    CHECK_STATUS(cg_rolling_stone_play(NULL, &game), CG_NULL_POINTER);
    CHECK_STATUS(cg_scarabs_play(NULL, &game), CG_NULL_POINTER);
    deck = shuffled(NULL, 0);
    CHECK_STATUS(cg_war_play(deck, NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_scarabs_play(deck, NULL), CG_NULL_POINTER);
    cg_deck_free(deck);
    return check_report();
}
