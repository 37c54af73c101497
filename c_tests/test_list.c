/* The deck's list operations, its iterator and cg_card_value, against
 * expectations written out by hand. */
#include <string.h>

#include "cardgames.h"
#include "check.h"

static cg_deck *deck_of(const char *text)
{
    cg_deck *deck = NULL;
    CHECK_STATUS(cg_deck_from_str(text, CG_NOTATION_HOMEWORK, &deck), CG_OK);
    return deck;
}

/* Checks a deck's text. */
static void check_text(const cg_deck *deck, const char *want)
{
    char text[200];
    size_t needed = 0;
    CHECK_STATUS(cg_deck_to_str(deck, CG_NOTATION_HOMEWORK, text, sizeof text, &needed), CG_OK);
    if (strcmp(text, want) != 0) {
        check_failed++;
        fprintf(stderr, "deck is \"%s\", expected \"%s\"\n", text, want);
    } else {
        check_passed++;
    }
}

static cg_card card(int rank, int suit)
{
    cg_card c;
    c.rank = (uint8_t)rank;
    c.suit = (uint8_t)suit;
    return c;
}

int main(void)
{
    cg_deck *a = deck_of("As Kh 2c");
    cg_deck *b = NULL;
    cg_deck *c = NULL;
    cg_card moved = card(0, 0);
    size_t len = 0;

    /* new_empty, push_front/back, pop/peek. */
    CHECK_STATUS(cg_deck_new_empty(&b), CG_OK);
    check_text(b, "");
    CHECK_STATUS(cg_deck_pop_front(b, &moved), CG_EMPTY);
    CHECK_STATUS(cg_deck_peek_front(b, &moved), CG_EMPTY);
    CHECK(moved.rank == 0);
    CHECK_STATUS(cg_deck_push_back(b, card(10, 3)), CG_OK);
    CHECK_STATUS(cg_deck_push_front(b, card(5, 1)), CG_OK);
    CHECK_STATUS(cg_deck_push_back(b, card(14, 0)), CG_OK);
    check_text(b, "5h Td As");
    CHECK_STATUS(cg_deck_push_back(b, card(1, 0)), CG_BAD_CARD);
    CHECK_STATUS(cg_deck_push_front(b, card(2, 4)), CG_BAD_CARD);
    check_text(b, "5h Td As");
    CHECK_STATUS(cg_deck_peek_front(b, &moved), CG_OK);
    CHECK(moved.rank == 5 && moved.suit == 1);
    CHECK_STATUS(cg_deck_pop_front(b, &moved), CG_OK);
    CHECK(moved.rank == 5 && moved.suit == 1);
    check_text(b, "Td As");

    /* Moves between decks: top to top, top to bottom, a suit. */
    CHECK_STATUS(cg_deck_move_front_to(a, b, &moved), CG_OK);
    CHECK(moved.rank == 14 && moved.suit == 0);
    check_text(a, "Kh 2c");
    check_text(b, "As Td As");
    CHECK_STATUS(cg_deck_move_front_to_back(a, b, NULL), CG_OK);
    check_text(a, "2c");
    check_text(b, "As Td As Kh");
    CHECK_STATUS(cg_deck_move_first_matching_to(b, 3, a, &moved), CG_OK);
    CHECK(moved.rank == 10 && moved.suit == 3);
    check_text(a, "Td 2c");
    check_text(b, "As As Kh");
    CHECK_STATUS(cg_deck_move_first_matching_to(b, 2, a, &moved), CG_EMPTY);
    CHECK_STATUS(cg_deck_move_first_matching_to(b, 4, a, &moved), CG_INVALID_ARGUMENT);
    check_text(b, "As As Kh");
    /* The same deck on both sides. */
    CHECK_STATUS(cg_deck_move_front_to_back(b, b, &moved), CG_OK);
    check_text(b, "As Kh As");
    CHECK_STATUS(cg_deck_move_front_to(b, b, &moved), CG_OK);
    check_text(b, "As Kh As");
    CHECK_STATUS(cg_deck_move_first_matching_to(b, 1, b, &moved), CG_OK);
    check_text(b, "Kh As As");
    CHECK_STATUS(cg_deck_append(b, b), CG_INVALID_ARGUMENT);

    /* append empties the other deck; split_off keeps the first cards. */
    CHECK_STATUS(cg_deck_append(a, b), CG_OK);
    check_text(a, "Td 2c Kh As As");
    check_text(b, "");
    CHECK_STATUS(cg_deck_move_front_to(b, a, &moved), CG_EMPTY);
    CHECK_STATUS(cg_deck_split_off(a, 6, &c), CG_OUT_OF_RANGE);
    CHECK(c == NULL);
    CHECK_STATUS(cg_deck_split_off(a, 2, &c), CG_OK);
    check_text(a, "Td 2c");
    check_text(c, "Kh As As");
    cg_deck_free(b);
    b = NULL;
    CHECK_STATUS(cg_deck_clone(c, &b), CG_OK);
    CHECK_STATUS(cg_deck_pop_front(c, NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_pop_front(c, &moved), CG_OK);
    check_text(b, "Kh As As");
    check_text(c, "As As");

    /* All cards at once, and the iterator. */
    {
        cg_card cards[3];
        size_t count = 0;
        cg_deck_iter it;
        cg_card next;
        int seen = 0;
        CHECK_STATUS(cg_deck_cards(b, cards, 2, &count), CG_BUFFER_TOO_SMALL);
        CHECK(count == 3);
        CHECK_STATUS(cg_deck_cards(b, cards, 3, &count), CG_OK);
        CHECK(count == 3 && cards[0].rank == 13 && cards[0].suit == 1 && cards[2].rank == 14);
        CHECK_STATUS(cg_deck_iter_init(b, &it), CG_OK);
        while (cg_deck_iter_next(&it, &next)) {
            CHECK(next.rank == cards[seen].rank && next.suit == cards[seen].suit);
            seen++;
        }
        CHECK(seen == 3);
        CHECK(cg_deck_iter_next(&it, &next) == 0);
        CHECK(cg_deck_iter_next(NULL, &next) == 0);
        CHECK(cg_deck_iter_next(&it, NULL) == 0);
        cg_deck_free(c);
        CHECK_STATUS(cg_deck_new_empty(&c), CG_OK);
        CHECK_STATUS(cg_deck_cards(c, NULL, 0, &count), CG_OK);
        CHECK(count == 0);
        CHECK_STATUS(cg_deck_iter_init(c, &it), CG_OK);
        CHECK(cg_deck_iter_next(&it, &next) == 0);
    }

    /* The homework's values: A=15, K=14, Q=13, J=12, T=10, 9..2; 0 for no card. */
    CHECK(cg_card_value(card(14, 0)) == 15);
    CHECK(cg_card_value(card(13, 1)) == 14);
    CHECK(cg_card_value(card(12, 2)) == 13);
    CHECK(cg_card_value(card(11, 3)) == 12);
    CHECK(cg_card_value(card(10, 0)) == 10);
    CHECK(cg_card_value(card(2, 0)) == 2);
    CHECK(cg_card_value(card(15, 0)) == 0);
    CHECK(cg_card_value(card(9, 7)) == 0);

    /* NULL handles. */
    CHECK_STATUS(cg_deck_new_empty(NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_clone(NULL, &c), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_push_front(NULL, card(2, 0)), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_move_front_to(a, NULL, NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_append(NULL, a), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_len(a, &len), CG_OK);
    CHECK(len == 2);

    cg_deck_free(a);
    cg_deck_free(b);
    cg_deck_free(c);
    return check_report();
}
