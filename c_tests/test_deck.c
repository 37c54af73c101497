/* The deck handle and the four shuffles: ownership (create, use, free,
 * free(NULL)), the statement's worked examples, and the error paths. */
#include <stdlib.h>

#include "cardgames.h"
#include "check.h"

/* The deck as text (homework notation) in a static buffer. */
static const char *text(const cg_deck *deck)
{
    static char buf[256];
    size_t needed = 0;
    if (cg_deck_to_str(deck, CG_NOTATION_HOMEWORK, buf, sizeof buf, &needed) != CG_OK)
        return "<error>";
    return buf;
}

static cg_deck *from(const char *cards)
{
    cg_deck *deck = NULL;
    CHECK_STATUS(cg_deck_from_str(cards, CG_NOTATION_HOMEWORK, &deck), CG_OK);
    return deck;
}

/* Applies a shuffle line to a small deck and compares with the expected text. */
static void check_shuffle(const char *cards, const char *line, const char *want)
{
    cg_deck *deck = from(cards);
    CHECK_STATUS(cg_deck_shuffle(deck, line), CG_OK);
    CHECK_STR(text(deck), want);
    cg_deck_free(deck);
}

int main(void)
{
    cg_deck *deck = NULL;
    cg_deck *untouched = (cg_deck *)&check_passed; /* never dereferenced */
    cg_card card = {0, 0};
    size_t len = 0;
    size_t needed = 0;
    char small[10];
    static const size_t order[] = {3, 1, 2};
    static const size_t not_a_permutation[] = {1, 1, 2};

    CHECK_STATUS(cg_deck_new(&deck), CG_OK);
    CHECK_STATUS(cg_deck_len(deck, &len), CG_OK);
    CHECK(len == 52);
    CHECK_STATUS(cg_deck_get(deck, 0, &card), CG_OK);
    CHECK(card.rank == 14 && card.suit == 0);
    CHECK_STATUS(cg_deck_get(deck, 51, &card), CG_OK);
    CHECK(card.rank == 2 && card.suit == 3);
    CHECK_STATUS(cg_deck_get(deck, 52, &card), CG_OUT_OF_RANGE);
    CHECK(card.rank == 2 && card.suit == 3);
    CHECK(strncmp(text(deck), "As Ah Ac Ad Ks Kh Kc Kd Qs", 26) == 0);
    CHECK_STATUS(cg_deck_to_str(deck, CG_NOTATION_HOMEWORK, small, sizeof small, &needed),
                 CG_BUFFER_TOO_SMALL);
    CHECK(needed == 52 * 3 - 1);
    /* The 2s have no Durak name. */
    CHECK_STATUS(cg_deck_to_str(deck, CG_NOTATION_DURAK, small, sizeof small, &needed), CG_BAD_CARD);

    /* The statement's example of inversare, then its full-deck example. */
    CHECK_STATUS(cg_deck_reverse(deck), CG_OK);
    CHECK(strncmp(text(deck), "2d 2c 2h 2s 3d 3c 3h 3s", 23) == 0);
    CHECK_STATUS(cg_deck_mongean(deck), CG_OK);
    CHECK_STATUS(cg_deck_interleave(deck), CG_OK);
    CHECK_STATUS(cg_deck_len(deck, &len), CG_OK);
    CHECK(len == 52);
    /* K = 5 does not divide 52: refused, deck unchanged. */
    {
        static const size_t five[] = {1, 2, 3, 4, 5};
        char before[256];
        strcpy(before, text(deck));
        CHECK_STATUS(cg_deck_npiles(deck, five, 5), CG_BAD_SHUFFLE);
        CHECK_STR(text(deck), before);
    }
    cg_deck_free(deck);
    cg_deck_free(NULL);

    /* Worked examples of the statement (docs/rules/homework.md §3). */
    check_shuffle("As Kd Tc Jd 9h", "inversare", "9h Jd Tc Kd As");
    check_shuffle("Ks Ts 7s 9s 3s Ad", "npiles 3 3 1 2", "3s Ad Ks Ts 7s 9s");
    check_shuffle("9s Td Jh 3s 2d 5h", "intercalare", "9s 3s Td 2d Jh 5h");
    check_shuffle("Ks Tc Qh Ah 7s 6d", "mongean", "6d Ah Tc Ks Qh 7s");
    deck = from("Ks Ts 7s 9s 3s Ad");
    CHECK_STATUS(cg_deck_npiles(deck, order, 3), CG_OK);
    CHECK_STR(text(deck), "3s Ad Ks Ts 7s 9s");
    CHECK_STATUS(cg_deck_npiles(deck, not_a_permutation, 3), CG_BAD_SHUFFLE);
    CHECK_STATUS(cg_deck_npiles(deck, NULL, 3), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_shuffle(deck, "npiles 3 1 2"), CG_BAD_SHUFFLE);
    CHECK_STATUS(cg_deck_shuffle(deck, "shuffle"), CG_BAD_SHUFFLE);
    CHECK_STATUS(cg_deck_shuffle(deck, NULL), CG_NULL_POINTER);
    CHECK_STR(text(deck), "3s Ad Ks Ts 7s 9s");
    cg_deck_free(deck);

    /* Odd decks cannot be interleaved; Durak notation round trip. */
    deck = from("As Kd Tc");
    CHECK_STATUS(cg_deck_interleave(deck), CG_BAD_SHUFFLE);
    cg_deck_free(deck);
    CHECK_STATUS(cg_deck_from_str("TS 6H", CG_NOTATION_DURAK, &deck), CG_OK);
    CHECK_STATUS(cg_deck_to_str(deck, CG_NOTATION_DURAK, small, sizeof small, &needed), CG_OK);
    CHECK_STR(small, "TS 6H");
    CHECK(needed == 5);
    cg_deck_free(deck);
    deck = from("");
    CHECK_STATUS(cg_deck_len(deck, &len), CG_OK);
    CHECK(len == 0);
    cg_deck_free(deck);

    /* Bad arguments: nothing is created, out-parameters stay untouched. */
    CHECK_STATUS(cg_deck_from_str("As 1s", CG_NOTATION_HOMEWORK, &untouched), CG_BAD_CARD);
    CHECK_STATUS(cg_deck_from_str("As", 9, &untouched), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_deck_from_str(NULL, CG_NOTATION_HOMEWORK, &untouched), CG_NULL_POINTER);
    CHECK(untouched == (cg_deck *)&check_passed);
    CHECK_STATUS(cg_deck_new(NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_len(NULL, &len), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_get(NULL, 0, &card), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_reverse(NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_mongean(NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_interleave(NULL), CG_NULL_POINTER);
    CHECK_STATUS(cg_deck_to_str(NULL, CG_NOTATION_HOMEWORK, small, sizeof small, &needed),
                 CG_NULL_POINTER);
    return check_report();
}
