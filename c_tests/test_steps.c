/* The games step by step, their traces, the caller's turn limit, deals that
 * do not divide, and the Coup decision's contract, against the whole-game
 * functions and outcomes derived by hand. */
#include <stdlib.h>
#include <string.h>

#include "cardgames.h"
#include "check.h"

static size_t length(const cg_deck *deck)
{
    size_t len = 0;
    CHECK_STATUS(cg_deck_len(deck, &len), CG_OK);
    return len;
}

static cg_deck *shuffled(const char *const *lines, size_t count)
{
    cg_deck *deck = NULL;
    size_t i;
    CHECK_STATUS(cg_deck_new(&deck), CG_OK);
    for (i = 0; i < count; i++)
        CHECK_STATUS(cg_deck_shuffle(deck, lines[i]), CG_OK);
    return deck;
}

static void war_by_steps(const cg_deck *deck)
{
    cg_war *war = NULL;
    cg_war_hand hand;
    cg_war_result whole, stepped;
    const cg_deck *p1 = NULL, *p2 = NULL;
    unsigned hands = 0;
    CHECK_STATUS(cg_war_new(deck, &war), CG_OK);
    CHECK_STATUS(cg_war_outcome(war, &stepped), CG_GAME_UNFINISHED);
    while (cg_war_step(war, &hand) == CG_OK) {
        hands++;
        CHECK(hand.hands == hands && (hand.winner == 1 || hand.winner == 2));
        CHECK_STATUS(cg_war_pile(war, 1, &p1), CG_OK);
        CHECK_STATUS(cg_war_pile(war, 2, &p2), CG_OK);
        CHECK(length(p1) + length(p2) == 52);
    }
    CHECK_STATUS(cg_war_step(war, &hand), CG_NO_MOVE);
    CHECK_STATUS(cg_war_pile(war, 3, &p1), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_war_play(deck, &whole), CG_OK);
    CHECK_STATUS(cg_war_outcome(war, &stepped), CG_OK);
    CHECK(whole.winner == stepped.winner && whole.rank == stepped.rank &&
          whole.hands == stepped.hands && stepped.hands == hands);
    cg_war_free(war);
}

static void rolling_stone_by_steps(const cg_deck *deck)
{
    cg_rolling_stone *game = NULL;
    cg_rolling_stone_turn turn;
    cg_game_result whole, stepped;
    const cg_deck *view = NULL;
    unsigned long turns = 0;
    CHECK_STATUS(cg_rolling_stone_new(deck, &game), CG_OK);
    CHECK_STATUS(cg_rolling_stone_winner(game, &stepped), CG_GAME_UNFINISHED);
    while (cg_rolling_stone_step(game, &turn) == CG_OK) {
        size_t held = 0;
        unsigned player, suit;
        turns++;
        CHECK(turn.player >= 1 && turn.player <= 4);
        for (player = 1; player <= 4; player++)
            for (suit = 0; suit < 4; suit++) {
                CHECK_STATUS(cg_rolling_stone_hand(game, player, suit, &view), CG_OK);
                held += length(view);
            }
        CHECK_STATUS(cg_rolling_stone_table(game, &view), CG_OK);
        CHECK(held + length(view) == 52);
        /* The table's top is the card just played. */
        {
            cg_card top;
            CHECK_STATUS(cg_deck_peek_front(view, &top), CG_OK);
            CHECK(top.rank == turn.card.rank && top.suit == turn.card.suit);
        }
    }
    CHECK_STATUS(cg_rolling_stone_hand(game, 5, 0, &view), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_rolling_stone_hand(game, 1, 4, &view), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_rolling_stone_play(deck, &whole), CG_OK);
    CHECK_STATUS(cg_rolling_stone_winner(game, &stepped), CG_OK);
    CHECK(whole.winner == stepped.winner && whole.turns == stepped.turns && turns == whole.turns);
    cg_rolling_stone_free(game);
}

static void scarabs_by_steps(const cg_deck *deck)
{
    cg_scarabs *game = NULL;
    cg_scarabs_turn turn;
    cg_game_result whole, stepped;
    const cg_deck *view = NULL;
    unsigned long turns = 0;
    CHECK_STATUS(cg_scarabs_new(deck, &game), CG_OK);
    CHECK_STATUS(cg_scarabs_winner(game, &stepped), CG_GAME_UNFINISHED);
    while (cg_scarabs_step(game, &turn) == CG_OK) {
        size_t held = 0;
        unsigned player;
        turns++;
        CHECK(turn.player >= 1 && turn.player <= 4 && turn.taken_by <= 4);
        for (player = 1; player <= 4; player++) {
            CHECK_STATUS(cg_scarabs_pile(game, player, &view), CG_OK);
            held += length(view);
        }
        CHECK_STATUS(cg_scarabs_table(game, &view), CG_OK);
        /* A taken table is empty afterwards. */
        CHECK(turn.taken_by == 0 || length(view) == 0);
        CHECK(held + length(view) == 52);
    }
    CHECK_STATUS(cg_scarabs_pile(game, 0, &view), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_scarabs_play(deck, &whole), CG_OK);
    CHECK_STATUS(cg_scarabs_winner(game, &stepped), CG_OK);
    CHECK(whole.winner == stepped.winner && whole.turns == stepped.turns && turns == whole.turns);
    cg_scarabs_free(game);
}

int main(void)
{
    static const char *const razboi3[] = {"intercalare", "mongean", "npiles 4 4 2 1 3",
                                          "npiles 13 12 1 13 4 3 2 11 6 5 7 8 10 9"};
    static const char *const scarabei2[] = {"intercalare", "inversare", "mongean",
                                            "npiles 4 4 2 1 3"};
    cg_deck *deck = shuffled(razboi3, 4);
    cg_deck *other = shuffled(scarabei2, 4);
    cg_game_result result;

    war_by_steps(deck);
    rolling_stone_by_steps(deck);
    scarabs_by_steps(deck);
    rolling_stone_by_steps(other);
    scarabs_by_steps(other);

    /* The caller's turn limit: the same deal cut off one turn short. */
    {
        cg_game_result full;
        CHECK_STATUS(cg_scarabs_play(other, &full), CG_OK);
        CHECK_STATUS(cg_scarabs_play_within(other, full.turns, &result), CG_OK);
        CHECK(result.winner == full.winner);
        CHECK_STATUS(cg_scarabs_play_within(other, full.turns - 1, &result), CG_GAME_UNFINISHED);
        CHECK_STATUS(cg_rolling_stone_play(other, &full), CG_OK);
        CHECK_STATUS(cg_rolling_stone_play_within(other, full.turns - 1, &result),
                     CG_GAME_UNFINISHED);
        CHECK_STATUS(cg_rolling_stone_play_within(other, 0, &result), CG_GAME_UNFINISHED);
    }

    /* A 30,000-card deck (the report: 20 s to the 1,000,000-turn
     * cut-off): the caller's limit ends it after 10,000 turns. Built with
     * push_front, O(1) a card. */
    {
        cg_deck *big = NULL;
        cg_card c;
        unsigned i;
        CHECK_STATUS(cg_deck_new_empty(&big), CG_OK);
        for (i = 0; i < 30000; i++) {
            c.rank = (uint8_t)(2 + (i * 7) % 13);
            c.suit = (uint8_t)((i / 13) % 4);
            CHECK_STATUS(cg_deck_push_front(big, c), CG_OK);
        }
        {
            cg_status s = cg_scarabs_play_within(big, 10000, &result);
            CHECK(s == CG_OK || s == CG_GAME_UNFINISHED);
            CHECK(s != CG_OK || result.turns <= 10000);
            s = cg_rolling_stone_play_within(big, 10000, &result);
            CHECK(s == CG_OK || s == CG_GAME_UNFINISHED);
        }
        cg_deck_free(big);
    }

    /* Decks that do not deal evenly are refused by every game, consistently. */
    {
        cg_deck *odd = NULL, *empty = NULL;
        cg_war_result war;
        cg_war *w = NULL;
        cg_rolling_stone *r = NULL;
        cg_scarabs *s = NULL;
        char message[256];
        size_t needed;
        CHECK_STATUS(cg_deck_from_str("As Kh 2c 3d 4s", CG_NOTATION_HOMEWORK, &odd), CG_OK);
        CHECK_STATUS(cg_deck_new_empty(&empty), CG_OK);
        CHECK_STATUS(cg_war_play(odd, &war), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_last_error_message(message, sizeof message, &needed), CG_OK);
        CHECK_STR(message, "cg_war_play: War deals the deck evenly to 2 players, and 5 cards do not divide by 2");
        CHECK_STATUS(cg_war_play(empty, &war), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_rolling_stone_play(odd, &result), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_rolling_stone_play(empty, &result), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_scarabs_play(odd, &result), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_scarabs_play(empty, &result), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_war_new(empty, &w), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_rolling_stone_new(odd, &r), CG_INVALID_ARGUMENT);
        CHECK_STATUS(cg_scarabs_new(empty, &s), CG_INVALID_ARGUMENT);
        CHECK(w == NULL && r == NULL && s == NULL);
        cg_deck_free(odd);
        cg_deck_free(empty);
    }

    /* The trace into a buffer (asked for its size first) and into a FILE. */
    {
        const char *in = "scarabei\r\n4\r\nintercalare\r\ninversare\r\nmongean\r\nnpiles 4 4 2 1 3";
        size_t needed = 0, read = 0;
        char *trace;
        char *from_file;
        FILE *file = tmpfile();
        /* NULL with length 0 learns the size, as does any buffer of length 0. */
        CHECK_STATUS(cg_homework_trace(in, NULL, 0, &needed), CG_BUFFER_TOO_SMALL);
        CHECK(needed > 1000);
        read = needed;
        needed = 0;
        CHECK_STATUS(cg_homework_trace(in, (char *)"", 0, &needed), CG_BUFFER_TOO_SMALL);
        CHECK(needed == read);
        read = 0;
        trace = (char *)malloc(needed + 1);
        from_file = (char *)malloc(needed + 1);
        CHECK_STATUS(cg_homework_trace(in, trace, needed + 1, &needed), CG_OK);
        CHECK(strncmp(trace, "Before action: 0\nCurrent player: 0\n", 35) == 0);
        /* Ends with the 0-based winner: scarabei2's reference is 3. */
        CHECK(needed > 2 && strcmp(trace + needed - 3, "\n2\n") == 0);
        CHECK(file != NULL);
        if (file != NULL) {
            CHECK_STATUS(cg_homework_trace_file(in, file), CG_OK);
            rewind(file);
            read = fread(from_file, 1, needed + 1, file);
            CHECK(read == needed && memcmp(trace, from_file, needed) == 0);
            CHECK_STATUS(cg_homework_trace_file("poker\n0\n", file), CG_BAD_INPUT);
            fclose(file);
        }
        CHECK_STATUS(cg_homework_trace_file(in, NULL), CG_NULL_POINTER);
        free(trace);
        free(from_file);
    }

    /* Coup: a legal answer that is empty or no answer of the protocol is
     * refused, never answered (the caller would append it to the history);
     * the answer buffer sized by the longest legal string fits. */
    {
        const char *empty_legal[] = {""};
        const char *long_legal[] = {"T", "A", "I\n"};
        const char *unknown[] = {"I\n", "zzzzzzzzzzzzzzzzzzzzzzzzzz"};
        char answer[64], keep[3];
        size_t answer_len = 0, keep_len = 0;
        CHECK_STATUS(cg_coup_decide(NULL, "", 2, 2, "$^", empty_legal, 1, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_INVALID_ARGUMENT);
        answer[0] = 'u';
        CHECK_STATUS(cg_coup_decide(NULL, "", 2, 2, "$^", unknown, 2, answer, sizeof answer,
                                    &answer_len, keep, sizeof keep, &keep_len),
                     CG_INVALID_ARGUMENT);
        CHECK(answer[0] == 'u');
        CHECK_STATUS(cg_coup_decide(NULL, "", 2, 2, "$^", long_legal, 3, answer,
                                    strlen(long_legal[2]) + 1, &answer_len, keep, sizeof keep,
                                    &keep_len),
                     CG_OK);
        CHECK(strcmp(answer, long_legal[0]) == 0 || strcmp(answer, long_legal[1]) == 0 ||
              strcmp(answer, long_legal[2]) == 0);
    }

    cg_deck_free(deck);
    cg_deck_free(other);
    return check_report();
}
