/* Every export on each documented error path, as a table: one ROW per call,
 * with the status it must return and the exact last error it must leave
 * (ROW_PREFIX: the start of it, where the rest depends on a game's course).
 * A message is never just the status's generic text: each names the
 * function and says what went wrong. tests/c_harnesses.rs checks that every
 * export returning a cg_status has a row here. */
#include <stdint.h>
#include <stdlib.h>

#include "cardgames.h"
#include "check.h"

static char detail[1024];

static void row(int line, const char *call, cg_status got, cg_status want, const char *message,
                int prefix)
{
    size_t needed = 0;
    const char *colon;
    if (cg_last_error_message(detail, sizeof detail, &needed) != CG_OK)
        strcpy(detail, "<cg_last_error_message failed>");
    colon = strstr(detail, ": ");
    if (got != want) {
        check_failed++;
        fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d\n", __FILE__, line, call, (int)got,
                cg_status_str((int)got), (int)want);
    } else if (prefix ? strncmp(detail, message, strlen(message)) != 0 : strcmp(detail, message) != 0) {
        check_failed++;
        fprintf(stderr, "%s:%d: %s left the last error\n  \"%s\"\nexpected%s\n  \"%s\"\n", __FILE__,
                line, call, detail, prefix ? " it to start with" : "", message);
    } else if (want != CG_OK && (colon == NULL || strcmp(colon + 2, cg_status_str((int)want)) == 0)) {
        check_failed++;
        fprintf(stderr, "%s:%d: %s: only the generic message: %s\n", __FILE__, line, call, detail);
    } else {
        check_passed++;
    }
}

#define ROW(call, status, message) row(__LINE__, #call, (call), (status), (message), 0)
#define ROW_PREFIX(call, status, prefix) row(__LINE__, #call, (call), (status), (prefix), 1)

int main(void)
{
    cg_deck *deck = NULL, *empty = NULL, *made = (cg_deck *)0, *two = NULL, *odd = NULL;
    cg_card card = {14, 0}, bad_rank = {1, 0}, bad_suit = {14, 4}, got;
    char buf[256];
    size_t n = 0;
    size_t order4[4] = {1, 2, 3, 4}, order_bad[4] = {0, 1, 2, 3};
    cg_deck_iter it;
    cg_war_result war_result;
    cg_game_result game_result;
    cg_war *war = NULL, *war_over = NULL;
    cg_war_hand hand;
    cg_rolling_stone *stone = NULL, *stone_over = NULL;
    cg_rolling_stone_turn stone_turn;
    cg_scarabs *scarabs = NULL, *scarabs_over = NULL;
    cg_scarabs_turn scarabs_turn;
    const cg_deck *view = NULL;
    cg_durak_bot *bot = NULL;
    int pit = 0, value = 0;
    static const uint8_t six[7] = {6, 2, 2, 2, 2, 2, 4};
    static const uint8_t no_stones[7] = {0, 0, 0, 0, 0, 0, 0};
    const char *legal[2] = {"I\n", "F"};
    const char *legal_null[2] = {"I\n", NULL};
    const char *legal_empty[1] = {""};
    const char *legal_unknown[2] = {"I\n", "I"};
    char answer[8], keep[8];
    size_t answer_len = 0, keep_len = 0;
    FILE *read_only;

    CHECK_STATUS(cg_deck_new(&deck), CG_OK);
    CHECK_STATUS(cg_deck_new_empty(&empty), CG_OK);
    CHECK_STATUS(cg_deck_from_str("As Ks", CG_NOTATION_HOMEWORK, &two), CG_OK);
    CHECK_STATUS(cg_deck_from_str("As Ks 2c", CG_NOTATION_HOMEWORK, &odd), CG_OK);

    /* A success leaves the last error empty. */
    ROW(cg_deck_len(deck, &n), CG_OK, "");

    /* Cards. */
    ROW(cg_card_parse(NULL, CG_NOTATION_HOMEWORK, &got), CG_NULL_POINTER, "cg_card_parse: text is NULL");
    ROW(cg_card_parse("As", CG_NOTATION_HOMEWORK, NULL), CG_NULL_POINTER, "cg_card_parse: out is NULL");
    ROW(cg_card_parse("\xff", CG_NOTATION_HOMEWORK, &got), CG_INVALID_UTF8,
        "cg_card_parse: text is not valid UTF-8 (byte 0 is not part of a UTF-8 character)");
    ROW(cg_card_parse("As", 7, &got), CG_INVALID_ARGUMENT,
        "cg_card_parse: notation 7 is neither CG_NOTATION_HOMEWORK (0) nor CG_NOTATION_DURAK (1)");
    ROW(cg_card_parse("AS", CG_NOTATION_HOMEWORK, &got), CG_BAD_CARD,
        "cg_card_parse: card \"AS\" has an unknown suit (homework notation: a rank of A K Q J T 9 8 "
        "7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\")");
    ROW(cg_card_parse("10s", CG_NOTATION_HOMEWORK, &got), CG_BAD_CARD,
        "cg_card_parse: card \"10s\" must be two characters: a rank and a suit (homework notation: "
        "a rank of A K Q J T 9 8 7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\")");
    ROW(cg_card_parse("1s", CG_NOTATION_HOMEWORK, &got), CG_BAD_CARD,
        "cg_card_parse: card \"1s\" has an unknown rank (homework notation: a rank of A K Q J T 9 8 "
        "7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\")");
    ROW(cg_card_parse("Asx", CG_NOTATION_HOMEWORK, &got), CG_BAD_CARD,
        "cg_card_parse: card \"Asx\" must be two characters: a rank and a suit (homework notation: "
        "a rank of A K Q J T 9 8 7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\")");
    ROW(cg_card_parse("", CG_NOTATION_HOMEWORK, &got), CG_BAD_CARD,
        "cg_card_parse: card \"\" must be two characters: a rank and a suit (homework notation: a "
        "rank of A K Q J T 9 8 7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\")");
    ROW(cg_card_parse("5S", CG_NOTATION_DURAK, &got), CG_BAD_CARD,
        "cg_card_parse: card \"5S\" has an unknown rank (Durak notation: a rank of A K Q J T 9 8 7 "
        "6, then a suit of S H C D, e.g. \"TD\")");
    ROW(cg_card_format(card, CG_NOTATION_HOMEWORK, NULL, 8, &n), CG_NULL_POINTER,
        "cg_card_format: buf is NULL but its length is 8 (NULL is allowed with length 0, to learn "
        "the size)");
    ROW(cg_card_format(card, CG_NOTATION_HOMEWORK, buf, 2, &n), CG_BUFFER_TOO_SMALL,
        "cg_card_format: buf holds 2 bytes, the text needs 3 (its 2 characters and a NUL)");
    ROW(cg_card_format(card, CG_NOTATION_HOMEWORK, NULL, 0, NULL), CG_BUFFER_TOO_SMALL,
        "cg_card_format: buf holds 0 bytes, the text needs 3 (its 2 characters and a NUL)");
    ROW(cg_card_format(card, 2, buf, sizeof buf, &n), CG_INVALID_ARGUMENT,
        "cg_card_format: notation 2 is neither CG_NOTATION_HOMEWORK (0) nor CG_NOTATION_DURAK (1)");
    ROW(cg_card_format(bad_rank, CG_NOTATION_HOMEWORK, buf, sizeof buf, &n), CG_BAD_CARD,
        "cg_card_format: card {rank 1, suit 0}: rank 1 is not 2..14 (T = 10, J = 11, Q = 12, K = "
        "13, A = 14)");
    ROW(cg_card_format(bad_suit, CG_NOTATION_HOMEWORK, buf, sizeof buf, &n), CG_BAD_CARD,
        "cg_card_format: card {rank 14, suit 4}: suit 4 is not 0..3 (0 s, 1 h, 2 c, 3 d)");
    {
        cg_card five = {5, 1};
        ROW(cg_card_format(five, CG_NOTATION_DURAK, buf, sizeof buf, &n), CG_BAD_CARD,
            "cg_card_format: card 5h has no Durak notation (the Durak deck holds ranks 6..A only)");
    }

    /* Decks. */
    ROW(cg_deck_new(NULL), CG_NULL_POINTER, "cg_deck_new: out is NULL");
    ROW(cg_deck_new_empty(NULL), CG_NULL_POINTER, "cg_deck_new_empty: out is NULL");
    ROW(cg_deck_from_str(NULL, CG_NOTATION_HOMEWORK, &made), CG_NULL_POINTER,
        "cg_deck_from_str: text is NULL");
    ROW(cg_deck_from_str("As", CG_NOTATION_HOMEWORK, NULL), CG_NULL_POINTER,
        "cg_deck_from_str: out is NULL");
    ROW(cg_deck_from_str("As Zz", CG_NOTATION_HOMEWORK, &made), CG_BAD_CARD,
        "cg_deck_from_str: card \"Zz\" has an unknown rank (homework notation: a rank of A K Q J T "
        "9 8 7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\")");
    ROW(cg_deck_from_str("As", 3, &made), CG_INVALID_ARGUMENT,
        "cg_deck_from_str: notation 3 is neither CG_NOTATION_HOMEWORK (0) nor CG_NOTATION_DURAK (1)");
    ROW(cg_deck_from_str("A\xc3", CG_NOTATION_HOMEWORK, &made), CG_INVALID_UTF8,
        "cg_deck_from_str: text is not valid UTF-8 (byte 1 is not part of a UTF-8 character)");
    CHECK(made == NULL);
    ROW(cg_deck_len(NULL, &n), CG_NULL_POINTER, "cg_deck_len: deck is NULL");
    ROW(cg_deck_len(deck, NULL), CG_NULL_POINTER, "cg_deck_len: out is NULL");
    ROW(cg_deck_get(deck, 52, &got), CG_OUT_OF_RANGE,
        "cg_deck_get: index 52 is past the end of a deck of 52 cards (0 is the top)");
    ROW(cg_deck_get(NULL, 0, &got), CG_NULL_POINTER, "cg_deck_get: deck is NULL");
    ROW(cg_deck_get(deck, 0, NULL), CG_NULL_POINTER, "cg_deck_get: out is NULL");
    ROW(cg_deck_to_str(NULL, CG_NOTATION_HOMEWORK, buf, sizeof buf, &n), CG_NULL_POINTER,
        "cg_deck_to_str: deck is NULL");
    ROW(cg_deck_to_str(deck, CG_NOTATION_HOMEWORK, buf, 100, &n), CG_BUFFER_TOO_SMALL,
        "cg_deck_to_str: buf holds 100 bytes, the text needs 156 (its 155 characters and a NUL)");
    ROW(cg_deck_to_str(deck, CG_NOTATION_HOMEWORK, buf, sizeof buf, NULL), CG_OK, "");
    ROW(cg_deck_to_str(deck, CG_NOTATION_DURAK, buf, sizeof buf, &n), CG_BAD_CARD,
        "cg_deck_to_str: card 5s has no Durak notation (the Durak deck holds ranks 6..A only)");
    ROW(cg_deck_to_str(deck, 9, buf, sizeof buf, &n), CG_INVALID_ARGUMENT,
        "cg_deck_to_str: notation 9 is neither CG_NOTATION_HOMEWORK (0) nor CG_NOTATION_DURAK (1)");

    /* Shuffles: the line's own error, through cg_deck_shuffle as through
     * cg_homework_run. */
    ROW(cg_deck_shuffle(deck, "shuffle"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: unknown shuffle \"shuffle\" (expected inversare, npiles, intercalare or "
        "mongean)");
    ROW(cg_deck_shuffle(deck, "reverse"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: unknown shuffle \"reverse\" (expected inversare, npiles, intercalare or "
        "mongean)");
    ROW(cg_deck_shuffle(deck, "Mongean"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: unknown shuffle \"Mongean\" (expected inversare, npiles, intercalare or "
        "mongean)");
    ROW(cg_deck_shuffle(deck, ""), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: unknown shuffle \"\" (expected inversare, npiles, intercalare or mongean)");
    ROW(cg_deck_shuffle(deck, "mongean 2"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: mongean takes no parameters, got \"2\"");
    ROW(cg_deck_shuffle(deck, "npiles 4 1 1 2 3"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: npiles pile numbers [1, 1, 2, 3] are not a permutation of 1..=4");
    ROW(cg_deck_shuffle(deck, "npiles 4 1 2 3"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: npiles 4 needs 4 pile numbers, got 3");
    ROW(cg_deck_shuffle(deck, "npiles x"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: npiles needs a pile count K >= 1, got \"x\"");
    ROW(cg_deck_shuffle(deck, "npiles 2 1 b"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: npiles pile number \"b\" is not a whole number");
    ROW(cg_deck_shuffle(deck, "npiles 5 1 2 3 4 5"), CG_BAD_SHUFFLE,
        "cg_deck_shuffle: npiles 5 cannot cut a deck of 52 cards into equal piles");
    ROW(cg_deck_shuffle(deck, NULL), CG_NULL_POINTER, "cg_deck_shuffle: line is NULL");
    ROW(cg_deck_shuffle(NULL, "mongean"), CG_NULL_POINTER, "cg_deck_shuffle: deck is NULL");
    ROW(cg_deck_shuffle(deck, "\xfe"), CG_INVALID_UTF8,
        "cg_deck_shuffle: line is not valid UTF-8 (byte 0 is not part of a UTF-8 character)");
    ROW(cg_deck_npiles(deck, order_bad, 4), CG_BAD_SHUFFLE,
        "cg_deck_npiles: npiles pile numbers [0, 1, 2, 3] are not a permutation of 1..=4");
    ROW(cg_deck_npiles(deck, order4, 3), CG_BAD_SHUFFLE,
        "cg_deck_npiles: npiles 3 cannot cut a deck of 52 cards into equal piles");
    ROW(cg_deck_npiles(deck, NULL, 4), CG_NULL_POINTER, "cg_deck_npiles: order is NULL");
    ROW(cg_deck_npiles(NULL, order4, 4), CG_NULL_POINTER, "cg_deck_npiles: deck is NULL");
    ROW(cg_deck_reverse(NULL), CG_NULL_POINTER, "cg_deck_reverse: deck is NULL");
    ROW(cg_deck_interleave(odd), CG_BAD_SHUFFLE,
        "cg_deck_interleave: intercalare needs an even number of cards, the deck has 3");
    ROW(cg_deck_interleave(NULL), CG_NULL_POINTER, "cg_deck_interleave: deck is NULL");
    ROW(cg_deck_mongean(NULL), CG_NULL_POINTER, "cg_deck_mongean: deck is NULL");

    /* The list operations. */
    ROW(cg_deck_clone(NULL, &made), CG_NULL_POINTER, "cg_deck_clone: deck is NULL");
    ROW(cg_deck_clone(deck, NULL), CG_NULL_POINTER, "cg_deck_clone: out is NULL");
    ROW(cg_deck_push_front(NULL, card), CG_NULL_POINTER, "cg_deck_push_front: deck is NULL");
    ROW(cg_deck_push_front(empty, bad_rank), CG_BAD_CARD,
        "cg_deck_push_front: card {rank 1, suit 0}: rank 1 is not 2..14 (T = 10, J = 11, Q = 12, "
        "K = 13, A = 14)");
    ROW(cg_deck_push_back(empty, bad_suit), CG_BAD_CARD,
        "cg_deck_push_back: card {rank 14, suit 4}: suit 4 is not 0..3 (0 s, 1 h, 2 c, 3 d)");
    ROW(cg_deck_push_back(NULL, card), CG_NULL_POINTER, "cg_deck_push_back: deck is NULL");
    ROW(cg_deck_pop_front(empty, &got), CG_EMPTY, "cg_deck_pop_front: the deck is empty");
    ROW(cg_deck_pop_front(NULL, &got), CG_NULL_POINTER, "cg_deck_pop_front: deck is NULL");
    ROW(cg_deck_pop_front(deck, NULL), CG_NULL_POINTER, "cg_deck_pop_front: out is NULL");
    ROW(cg_deck_peek_front(empty, &got), CG_EMPTY, "cg_deck_peek_front: the deck is empty");
    ROW(cg_deck_peek_front(NULL, &got), CG_NULL_POINTER, "cg_deck_peek_front: deck is NULL");
    ROW(cg_deck_move_front_to(empty, deck, &got), CG_EMPTY,
        "cg_deck_move_front_to: from is empty: no card to move");
    ROW(cg_deck_move_front_to(NULL, deck, &got), CG_NULL_POINTER,
        "cg_deck_move_front_to: from is NULL");
    ROW(cg_deck_move_front_to(deck, NULL, &got), CG_NULL_POINTER, "cg_deck_move_front_to: to is NULL");
    ROW(cg_deck_move_front_to_back(empty, deck, NULL), CG_EMPTY,
        "cg_deck_move_front_to_back: from is empty: no card to move");
    ROW(cg_deck_move_front_to_back(deck, NULL, NULL), CG_NULL_POINTER,
        "cg_deck_move_front_to_back: to is NULL");
    ROW(cg_deck_append(deck, deck), CG_INVALID_ARGUMENT,
        "cg_deck_append: deck and other are the same deck: a deck cannot be appended to itself");
    ROW(cg_deck_append(NULL, deck), CG_NULL_POINTER, "cg_deck_append: deck is NULL");
    ROW(cg_deck_append(deck, NULL), CG_NULL_POINTER, "cg_deck_append: other is NULL");
    ROW(cg_deck_split_off(two, 3, &made), CG_OUT_OF_RANGE,
        "cg_deck_split_off: index 3 is past the end of a deck of 2 cards");
    ROW(cg_deck_split_off(NULL, 0, &made), CG_NULL_POINTER, "cg_deck_split_off: deck is NULL");
    ROW(cg_deck_split_off(two, 0, NULL), CG_NULL_POINTER, "cg_deck_split_off: out is NULL");
    ROW(cg_deck_move_first_matching_to(two, 2, empty, &got), CG_EMPTY,
        "cg_deck_move_first_matching_to: from holds no card of suit 2 (c)");
    ROW(cg_deck_move_first_matching_to(two, 4, empty, &got), CG_INVALID_ARGUMENT,
        "cg_deck_move_first_matching_to: suit 4 is not 0..3 (0 s, 1 h, 2 c, 3 d)");
    ROW(cg_deck_move_first_matching_to(NULL, 0, empty, &got), CG_NULL_POINTER,
        "cg_deck_move_first_matching_to: from is NULL");
    ROW(cg_deck_move_first_matching_to(two, 0, NULL, &got), CG_NULL_POINTER,
        "cg_deck_move_first_matching_to: to is NULL");
    {
        cg_card cards[2];
        ROW(cg_deck_cards(deck, cards, 2, &n), CG_BUFFER_TOO_SMALL,
            "cg_deck_cards: cards holds 2 cards, the deck has 52");
        CHECK(n == 52);
        ROW(cg_deck_cards(deck, NULL, 0, &n), CG_BUFFER_TOO_SMALL,
            "cg_deck_cards: cards holds 0 cards, the deck has 52");
        ROW(cg_deck_cards(deck, NULL, 60, &n), CG_NULL_POINTER,
            "cg_deck_cards: cards is NULL but cap is 60 (NULL is allowed with cap 0, to learn the "
            "count)");
        ROW(cg_deck_cards(deck, cards, 2, NULL), CG_NULL_POINTER, "cg_deck_cards: count is NULL");
        ROW(cg_deck_cards(NULL, cards, 2, &n), CG_NULL_POINTER, "cg_deck_cards: deck is NULL");
    }
    ROW(cg_deck_iter_init(NULL, &it), CG_NULL_POINTER, "cg_deck_iter_init: deck is NULL");
    ROW(cg_deck_iter_init(deck, NULL), CG_NULL_POINTER, "cg_deck_iter_init: iter is NULL");

    /* Whole games. */
    ROW(cg_war_play(empty, &war_result), CG_INVALID_ARGUMENT,
        "cg_war_play: the deck is empty: War deals the deck to 2 players");
    ROW(cg_war_play(odd, &war_result), CG_INVALID_ARGUMENT,
        "cg_war_play: War deals the deck evenly to 2 players, and 3 cards do not divide by 2");
    {
        /* Two aces of equal value, nobody has a card for the war: the hand
         * has no winner 100 times, and the rank counts tie. */
        cg_deck *aces = NULL;
        CHECK_STATUS(cg_deck_from_str("As Ah", CG_NOTATION_HOMEWORK, &aces), CG_OK);
        ROW(cg_war_play(aces, &war_result), CG_GAME_UNFINISHED,
            "cg_war_play: War has no winner: after 100 hands both players hold as many cards of "
            "every rank from A down to 3");
        cg_deck_free(aces);
    }
    ROW(cg_war_play(NULL, &war_result), CG_NULL_POINTER, "cg_war_play: deck is NULL");
    ROW(cg_war_play(deck, NULL), CG_NULL_POINTER, "cg_war_play: out is NULL");
    ROW(cg_rolling_stone_play(odd, &game_result), CG_INVALID_ARGUMENT,
        "cg_rolling_stone_play: Rolling Stone deals the deck evenly to 4 players, and 3 cards do "
        "not divide by 4");
    ROW(cg_rolling_stone_play(NULL, &game_result), CG_NULL_POINTER,
        "cg_rolling_stone_play: deck is NULL");
    ROW(cg_rolling_stone_play_within(deck, 10, &game_result), CG_GAME_UNFINISHED,
        "cg_rolling_stone_play_within: Rolling Stone has no winner after 10 turns, the turn limit "
        "given (the game is not over; a larger limit may finish it)");
    ROW(cg_rolling_stone_play_within(empty, 10, &game_result), CG_INVALID_ARGUMENT,
        "cg_rolling_stone_play_within: the deck is empty: Rolling Stone deals the deck to 4 players");
    ROW(cg_rolling_stone_play_within(deck, 10, NULL), CG_NULL_POINTER,
        "cg_rolling_stone_play_within: out is NULL");
    ROW(cg_scarabs_play(empty, &game_result), CG_INVALID_ARGUMENT,
        "cg_scarabs_play: the deck is empty: Scarabs deals the deck to 4 players");
    ROW(cg_scarabs_play(deck, NULL), CG_NULL_POINTER, "cg_scarabs_play: out is NULL");
    ROW(cg_scarabs_play_within(deck, 1, &game_result), CG_GAME_UNFINISHED,
        "cg_scarabs_play_within: Scarabs has no winner after 1 turn, the turn limit given (the "
        "game is not over; a larger limit may finish it)");
    ROW(cg_scarabs_play_within(two, 5, &game_result), CG_INVALID_ARGUMENT,
        "cg_scarabs_play_within: Scarabs deals the deck evenly to 4 players, and 2 cards do not "
        "divide by 4");
    ROW(cg_scarabs_play_within(NULL, 5, &game_result), CG_NULL_POINTER,
        "cg_scarabs_play_within: deck is NULL");

    /* The homework task. */
    ROW(cg_homework_run("amestecare\n1\nshuffle\n", buf, sizeof buf, &n), CG_BAD_INPUT,
        "cg_homework_run: in:3: unknown shuffle \"shuffle\" (expected inversare, npiles, "
        "intercalare or mongean)");
    ROW(cg_homework_run("amestecare\n1\nnpiles 5 1 2 3 4 5\n", buf, sizeof buf, &n), CG_BAD_SHUFFLE,
        "cg_homework_run: in:3: npiles 5 cannot cut a deck of 52 cards into equal piles");
    ROW(cg_homework_run("", buf, sizeof buf, &n), CG_BAD_INPUT,
        "cg_homework_run: in: no task name (the file is empty or blank)");
    ROW(cg_homework_run("amestecare\n0\n", buf, 10, &n), CG_BUFFER_TOO_SMALL,
        "cg_homework_run: out holds 10 bytes, the text needs 157 (its 156 characters and a NUL)");
    ROW(cg_homework_run(NULL, buf, sizeof buf, &n), CG_NULL_POINTER, "cg_homework_run: in_text is NULL");
    ROW(cg_homework_run("razboi\n0\n", NULL, 4, &n), CG_NULL_POINTER,
        "cg_homework_run: out is NULL but its length is 4 (NULL is allowed with length 0, to learn "
        "the size)");
    ROW_PREFIX(cg_homework_trace("razboi\n0\n", NULL, 0, NULL), CG_BUFFER_TOO_SMALL,
        "cg_homework_trace: buf holds 0 bytes, the text needs ");
    ROW_PREFIX(cg_homework_trace("razboi\n0\n", NULL, 0, &n), CG_BUFFER_TOO_SMALL,
               "cg_homework_trace: buf holds 0 bytes, the text needs ");
    CHECK(n > 1000);
    ROW(cg_homework_trace("razboi\nx\n", NULL, 0, &n), CG_BAD_INPUT,
        "cg_homework_trace: in:2: expected the number of shuffles, got \"x\"");
    ROW(cg_homework_trace(NULL, NULL, 0, &n), CG_NULL_POINTER, "cg_homework_trace: in_text is NULL");
    ROW(cg_homework_trace_file("razboi\n0\n", NULL), CG_NULL_POINTER,
        "cg_homework_trace_file: stream is NULL");
    ROW(cg_homework_trace_file(NULL, stderr), CG_NULL_POINTER,
        "cg_homework_trace_file: in_text is NULL");
    read_only = fopen("/dev/null", "r");
    if (read_only != NULL) {
        ROW_PREFIX(cg_homework_trace_file("razboi\n0\n", read_only), CG_IO,
                   "cg_homework_trace_file: fwrite wrote 0 of ");
        fclose(read_only);
    } else {
        CHECK(!"/dev/null cannot be opened");
    }

    /* War step by step. */
    ROW(cg_war_new(empty, &war), CG_INVALID_ARGUMENT,
        "cg_war_new: the deck is empty: War deals the deck to 2 players");
    ROW(cg_war_new(NULL, &war), CG_NULL_POINTER, "cg_war_new: deck is NULL");
    ROW(cg_war_new(deck, NULL), CG_NULL_POINTER, "cg_war_new: out is NULL");
    CHECK_STATUS(cg_war_new(deck, &war), CG_OK);
    ROW(cg_war_outcome(war, &war_result), CG_GAME_UNFINISHED,
        "cg_war_outcome: the game is not over yet: 0 hands played, both piles hold cards");
    ROW(cg_war_outcome(NULL, &war_result), CG_NULL_POINTER, "cg_war_outcome: game is NULL");
    ROW(cg_war_pile(war, 3, &view), CG_INVALID_ARGUMENT,
        "cg_war_pile: player 3 is not 1..2 (players are numbered from 1)");
    ROW(cg_war_pile(NULL, 1, &view), CG_NULL_POINTER, "cg_war_pile: game is NULL");
    ROW(cg_war_pile(war, 1, NULL), CG_NULL_POINTER, "cg_war_pile: out is NULL");
    ROW(cg_war_step(NULL, &hand), CG_NULL_POINTER, "cg_war_step: game is NULL");
    ROW(cg_war_step(war, NULL), CG_NULL_POINTER, "cg_war_step: out is NULL");
    CHECK_STATUS(cg_war_new(two, &war_over), CG_OK);
    CHECK_STATUS(cg_war_step(war_over, &hand), CG_OK);
    ROW(cg_war_step(war_over, &hand), CG_NO_MOVE,
        "cg_war_step: the game is over after 1 hand (a pile is empty, or 100 hands were played): "
        "see cg_war_outcome");

    /* Rolling Stone step by step: "As Ah Ac Ad" deals one card each, and
     * player 1 wins with his first card. */
    {
        cg_deck *four = NULL;
        CHECK_STATUS(cg_deck_from_str("As Ah Ac Ad", CG_NOTATION_HOMEWORK, &four), CG_OK);
        ROW(cg_rolling_stone_new(odd, &stone), CG_INVALID_ARGUMENT,
            "cg_rolling_stone_new: Rolling Stone deals the deck evenly to 4 players, and 3 cards do "
            "not divide by 4");
        ROW(cg_rolling_stone_new(NULL, &stone), CG_NULL_POINTER, "cg_rolling_stone_new: deck is NULL");
        ROW(cg_rolling_stone_new(deck, NULL), CG_NULL_POINTER, "cg_rolling_stone_new: out is NULL");
        CHECK_STATUS(cg_rolling_stone_new(deck, &stone), CG_OK);
        ROW(cg_rolling_stone_winner(stone, &game_result), CG_GAME_UNFINISHED,
            "cg_rolling_stone_winner: no winner yet: the game goes on after 0 turns");
        ROW(cg_rolling_stone_winner(NULL, &game_result), CG_NULL_POINTER,
            "cg_rolling_stone_winner: game is NULL");
        ROW(cg_rolling_stone_hand(stone, 5, 0, &view), CG_INVALID_ARGUMENT,
            "cg_rolling_stone_hand: player 5 is not 1..4 (players are numbered from 1)");
        ROW(cg_rolling_stone_hand(stone, 1, 9, &view), CG_INVALID_ARGUMENT,
            "cg_rolling_stone_hand: suit 9 is not 0..3 (0 s, 1 h, 2 c, 3 d)");
        ROW(cg_rolling_stone_hand(NULL, 1, 0, &view), CG_NULL_POINTER,
            "cg_rolling_stone_hand: game is NULL");
        ROW(cg_rolling_stone_table(NULL, &view), CG_NULL_POINTER, "cg_rolling_stone_table: game is NULL");
        ROW(cg_rolling_stone_table(stone, NULL), CG_NULL_POINTER, "cg_rolling_stone_table: out is NULL");
        ROW(cg_rolling_stone_step(NULL, &stone_turn), CG_NULL_POINTER,
            "cg_rolling_stone_step: game is NULL");
        CHECK_STATUS(cg_rolling_stone_new(four, &stone_over), CG_OK);
        CHECK_STATUS(cg_rolling_stone_step(stone_over, &stone_turn), CG_OK);
        ROW(cg_rolling_stone_step(stone_over, &stone_turn), CG_NO_MOVE,
            "cg_rolling_stone_step: the game is over after 1 turn: player 1 won (see "
            "cg_rolling_stone_winner)");
        cg_deck_free(four);
    }

    /* Scarabs step by step. */
    ROW(cg_scarabs_new(two, &scarabs), CG_INVALID_ARGUMENT,
        "cg_scarabs_new: Scarabs deals the deck evenly to 4 players, and 2 cards do not divide by 4");
    ROW(cg_scarabs_new(NULL, &scarabs), CG_NULL_POINTER, "cg_scarabs_new: deck is NULL");
    ROW(cg_scarabs_new(deck, NULL), CG_NULL_POINTER, "cg_scarabs_new: out is NULL");
    CHECK_STATUS(cg_scarabs_new(deck, &scarabs), CG_OK);
    ROW(cg_scarabs_winner(scarabs, &game_result), CG_GAME_UNFINISHED,
        "cg_scarabs_winner: no winner yet: the game goes on after 0 turns");
    ROW(cg_scarabs_winner(NULL, &game_result), CG_NULL_POINTER, "cg_scarabs_winner: game is NULL");
    ROW(cg_scarabs_pile(scarabs, 0, &view), CG_INVALID_ARGUMENT,
        "cg_scarabs_pile: player 0 is not 1..4 (players are numbered from 1)");
    ROW(cg_scarabs_pile(NULL, 1, &view), CG_NULL_POINTER, "cg_scarabs_pile: game is NULL");
    ROW(cg_scarabs_table(NULL, &view), CG_NULL_POINTER, "cg_scarabs_table: game is NULL");
    ROW(cg_scarabs_step(NULL, &scarabs_turn), CG_NULL_POINTER, "cg_scarabs_step: game is NULL");
    ROW(cg_scarabs_step(scarabs, NULL), CG_NULL_POINTER, "cg_scarabs_step: out is NULL");
    CHECK_STATUS(cg_scarabs_new(deck, &scarabs_over), CG_OK);
    while (cg_scarabs_step(scarabs_over, &scarabs_turn) == CG_OK) {
    }
    ROW_PREFIX(cg_scarabs_step(scarabs_over, &scarabs_turn), CG_NO_MOVE,
               "cg_scarabs_step: the game is over after ");

    /* The Durak bot. */
    ROW(cg_durak_bot_new(1, NULL), CG_NULL_POINTER, "cg_durak_bot_new: out is NULL");
    CHECK_STATUS(cg_durak_bot_new(1, &bot), CG_OK);
    ROW(cg_durak_bot_set(bot, "hard_share=100, max_samples=40"), CG_OK, "");
    ROW(cg_durak_bot_set(bot, "hard_share=101"), CG_INVALID_ARGUMENT,
        "cg_durak_bot_set: hard_share=101 is out of range [0, 100]");
    ROW(cg_durak_bot_set(bot, "max_samples"), CG_INVALID_ARGUMENT,
        "cg_durak_bot_set: expected key=value, got \"max_samples\"");
    ROW_PREFIX(cg_durak_bot_set(bot, "speed=9"), CG_INVALID_ARGUMENT,
               "cg_durak_bot_set: unknown deep search setting \"speed\" (accepted: budget_share, ");
    ROW(cg_durak_bot_set(bot, NULL), CG_NULL_POINTER, "cg_durak_bot_set: settings is NULL");
    ROW(cg_durak_bot_set(NULL, ""), CG_NULL_POINTER, "cg_durak_bot_set: bot is NULL");
    ROW(cg_durak_bot_feed(bot, "hello"), CG_BAD_INPUT,
        "cg_durak_bot_feed: malformed line \"hello\": not a line of the Durak protocol "
        "(information: trump, give, move, add, beat, take, out; commands: MOVE, BEAT, ADD)");
    ROW(cg_durak_bot_feed(bot, "MOVE"), CG_INVALID_ARGUMENT,
        "cg_durak_bot_feed: \"MOVE\" is a command: pass it to cg_durak_bot_answer");
    ROW(cg_durak_bot_feed(bot, NULL), CG_NULL_POINTER, "cg_durak_bot_feed: line is NULL");
    ROW(cg_durak_bot_feed(NULL, "trump S"), CG_NULL_POINTER, "cg_durak_bot_feed: bot is NULL");
    ROW(cg_durak_bot_answer(bot, "give 1 7D", buf, sizeof buf, &n), CG_INVALID_ARGUMENT,
        "cg_durak_bot_answer: \"give 1 7D\" is an information line: pass it to cg_durak_bot_feed");
    ROW(cg_durak_bot_answer(bot, "PLAY", buf, sizeof buf, &n), CG_BAD_INPUT,
        "cg_durak_bot_answer: malformed line \"PLAY\": not a line of the Durak protocol "
        "(information: trump, give, move, add, beat, take, out; commands: MOVE, BEAT, ADD)");
    ROW(cg_durak_bot_answer(bot, "MOVE", buf, 2, &n), CG_BUFFER_TOO_SMALL,
        "cg_durak_bot_answer: buf holds 2 bytes, the text needs 3 (its 2 characters and a NUL)");
    ROW(cg_durak_bot_answer(bot, "MOVE", NULL, 8, &n), CG_NULL_POINTER,
        "cg_durak_bot_answer: buf is NULL but its length is 8 (NULL is allowed with length 0, to "
        "learn the size)");
    ROW(cg_durak_bot_answer(bot, NULL, buf, sizeof buf, &n), CG_NULL_POINTER,
        "cg_durak_bot_answer: command is NULL");
    ROW(cg_durak_bot_answer(NULL, "MOVE", buf, sizeof buf, &n), CG_NULL_POINTER,
        "cg_durak_bot_answer: bot is NULL");

    /* The Ioiwari solver. */
    ROW(cg_ioiwari_best_move(six, &pit), CG_INVALID_ARGUMENT,
        "cg_ioiwari_best_move: pit 1 holds 6 stones, at most 5 are possible");
    ROW(cg_ioiwari_best_move(no_stones, &pit), CG_NO_MOVE,
        "cg_ioiwari_best_move: every pit is empty: the game is over, there is no move");
    ROW(cg_ioiwari_best_move(NULL, &pit), CG_NULL_POINTER, "cg_ioiwari_best_move: pits is NULL");
    ROW(cg_ioiwari_best_move(six, NULL), CG_NULL_POINTER, "cg_ioiwari_best_move: pit is NULL");
    ROW(cg_ioiwari_value(six, &value), CG_INVALID_ARGUMENT,
        "cg_ioiwari_value: pit 1 holds 6 stones, at most 5 are possible");
    ROW(cg_ioiwari_value(NULL, &value), CG_NULL_POINTER, "cg_ioiwari_value: pits is NULL");
    ROW(cg_ioiwari_value(six, NULL), CG_NULL_POINTER, "cg_ioiwari_value: value is NULL");

    /* The Coup bot. */
    ROW(cg_coup_decide("bogus", "", 1, 1, "$!", legal, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT,
        "cg_coup_decide: unknown strategy \"bogus\" (known: search, calculator, random, "
        "income, "
        "honest, challenger, tax-bluffer, always-tax, always-steal, always-assassinate, "
        "challenge-all, never-challenge, block-all)");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$!", legal, 0, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT, "cg_coup_decide: legal_count is 0: no legal answer given");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$!", legal_empty, 1, answer, sizeof answer, &answer_len,
                       keep, sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT, "cg_coup_decide: legal[0] is empty");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$!", legal_unknown, 2, answer, sizeof answer, &answer_len,
                       keep, sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT,
        "cg_coup_decide: legal[1] = \"I\" is no answer of the protocol (docs/rules/coup.md \302\2475.2)");
    ROW(cg_coup_decide(NULL, "I\nF#", 1, 1, "$!", legal, 2, answer, sizeof answer, &answer_len,
                       keep, sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT, "cg_coup_decide: history: unexpected '#' in line \"F#\"");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$x", legal, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT, "cg_coup_decide: cards \"$x\": bad card code 'x'");
    ROW(cg_coup_decide(NULL, "", 1, 1, "", legal, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT, "cg_coup_decide: cards \"\": 0 cards, where a player asked holds 1 to 4");
    ROW(cg_coup_decide(NULL, "", -1, 1, "$!", legal, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_INVALID_ARGUMENT, "cg_coup_decide: opp_coins is -1: a player holds 0 coins or more");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$!", legal_null, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_NULL_POINTER, "cg_coup_decide: legal[1] is NULL");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$!", NULL, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_NULL_POINTER, "cg_coup_decide: legal is NULL");
    ROW(cg_coup_decide(NULL, NULL, 1, 1, "$!", legal, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_NULL_POINTER, "cg_coup_decide: history is NULL");
    ROW(cg_coup_decide(NULL, "", 1, 1, NULL, legal, 2, answer, sizeof answer, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_NULL_POINTER, "cg_coup_decide: cards is NULL");
    ROW(cg_coup_decide("honest", "", 1, 1, "$!", legal, 2, answer, 1, &answer_len, keep,
                       sizeof keep, &keep_len),
        CG_BUFFER_TOO_SMALL,
        "cg_coup_decide: answer holds 1 byte, the text needs 2 (its 1 character and a NUL)");
    ROW(cg_coup_decide(NULL, "", 1, 1, "$!", legal, 2, answer, sizeof answer, NULL, NULL, 0, NULL),
        CG_BUFFER_TOO_SMALL, "cg_coup_decide: exchange holds 0 bytes, the text needs 1 (its 0 "
                             "characters and a NUL)");

    /* The Coup bot's memory. */
    {
        cg_coup_memory *memory = NULL;
        char text[8];
        size_t text_len = 0;
        ROW(cg_coup_memory_new(NULL), CG_NULL_POINTER, "cg_coup_memory_new: out is NULL");
        CHECK_STATUS(cg_coup_memory_new(&memory), CG_OK);
        ROW(cg_coup_memory_load(memory, "coup-memory v14\n"), CG_BAD_INPUT,
            "cg_coup_memory_load: text starts \"coup-memory v14\", not \"coup-memory v16\": not a "
            "memory of this format");
        ROW(cg_coup_memory_load(NULL, ""), CG_NULL_POINTER, "cg_coup_memory_load: memory is NULL");
        ROW(cg_coup_memory_text(memory, text, 2, &text_len), CG_BUFFER_TOO_SMALL,
            "cg_coup_memory_text: buf holds 2 bytes, the text needs 17 (its 16 characters and a "
            "NUL)");
        ROW(cg_coup_memory_update(memory, "A", "B", NULL, "", NULL), CG_NULL_POINTER,
            "cg_coup_memory_update: game is NULL");
        ROW(cg_coup_decide_remembering(memory, NULL, "A_B_0_0.txt", NULL, "", 1, 1, "$!", legal, 2,
                                       answer, sizeof answer, &answer_len, keep, sizeof keep,
                                       &keep_len),
            CG_NULL_POINTER, "cg_coup_decide_remembering: opponent is NULL");
        cg_coup_memory_free(memory);
    }

    /* The last error itself: a too small buffer reports the length and
     * keeps the message it reports. */
    {
        char tiny[4];
        size_t needed = 0;
        CHECK_STATUS(cg_deck_len(NULL, &n), CG_NULL_POINTER);
        CHECK_STATUS(cg_last_error_message(tiny, sizeof tiny, &needed), CG_BUFFER_TOO_SMALL);
        CHECK(needed == strlen("cg_deck_len: deck is NULL"));
        CHECK_STATUS(cg_last_error_message(NULL, 8, &needed), CG_NULL_POINTER);
        ROW(cg_last_error_message(NULL, 0, NULL), CG_BUFFER_TOO_SMALL, "cg_deck_len: deck is NULL");
    }

    /* The functions that return no status accept NULL and say nothing. */
    cg_deck_free(NULL);
    cg_war_free(NULL);
    cg_rolling_stone_free(NULL);
    cg_scarabs_free(NULL);
    cg_durak_bot_free(NULL);
    CHECK(cg_deck_iter_next(NULL, &got) == 0);
    CHECK(cg_card_value(bad_rank) == 0);
    CHECK(strcmp(cg_status_str(12345), "unknown status") == 0);
    CHECK(cg_version() != NULL);
    cg_ioiwari_release();

    cg_durak_bot_free(bot);
    cg_scarabs_free(scarabs);
    cg_scarabs_free(scarabs_over);
    cg_rolling_stone_free(stone);
    cg_rolling_stone_free(stone_over);
    cg_war_free(war);
    cg_war_free(war_over);
    cg_deck_free(deck);
    cg_deck_free(empty);
    cg_deck_free(two);
    cg_deck_free(odd);
    return check_report();
}
