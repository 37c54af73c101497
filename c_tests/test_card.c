/* Cards: parsing and formatting in the homework and Durak notations, and the
 * invalid-argument paths. */
#include "cardgames.h"
#include "check.h"

int main(void)
{
    cg_card card = {0, 0};
    cg_card untouched = {77, 77};
    char buf[8];
    size_t needed = 0;

    CHECK_STATUS(cg_card_parse("Td", CG_NOTATION_HOMEWORK, &card), CG_OK);
    CHECK(card.rank == 10 && card.suit == 3);
    CHECK_STATUS(cg_card_parse("As", CG_NOTATION_HOMEWORK, &card), CG_OK);
    CHECK(card.rank == 14 && card.suit == 0);
    CHECK_STATUS(cg_card_parse("2c", CG_NOTATION_HOMEWORK, &card), CG_OK);
    CHECK(card.rank == 2 && card.suit == 2);
    CHECK_STATUS(cg_card_parse("6H", CG_NOTATION_DURAK, &card), CG_OK);
    CHECK(card.rank == 6 && card.suit == 1);

    /* Bad text leaves the out-parameter untouched. */
    CHECK_STATUS(cg_card_parse("5H", CG_NOTATION_DURAK, &untouched), CG_BAD_CARD);
    CHECK_STATUS(cg_card_parse("6h", CG_NOTATION_DURAK, &untouched), CG_BAD_CARD);
    CHECK_STATUS(cg_card_parse("Ax", CG_NOTATION_HOMEWORK, &untouched), CG_BAD_CARD);
    CHECK_STATUS(cg_card_parse("Ass", CG_NOTATION_HOMEWORK, &untouched), CG_BAD_CARD);
    CHECK_STATUS(cg_card_parse("", CG_NOTATION_HOMEWORK, &untouched), CG_BAD_CARD);
    CHECK_STATUS(cg_card_parse("\xff\xfe", CG_NOTATION_HOMEWORK, &untouched), CG_INVALID_UTF8);
    CHECK_STATUS(cg_card_parse("As", 7, &untouched), CG_INVALID_ARGUMENT);
    CHECK_STATUS(cg_card_parse(NULL, CG_NOTATION_HOMEWORK, &untouched), CG_NULL_POINTER);
    CHECK_STATUS(cg_card_parse("As", CG_NOTATION_HOMEWORK, NULL), CG_NULL_POINTER);
    CHECK(untouched.rank == 77 && untouched.suit == 77);

    card.rank = 10;
    card.suit = 0;
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_HOMEWORK, buf, sizeof buf, &needed), CG_OK);
    CHECK_STR(buf, "Ts");
    CHECK(needed == 2);
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_DURAK, buf, sizeof buf, &needed), CG_OK);
    CHECK_STR(buf, "TS");

    /* Too small: the needed length is reported, the buffer untouched. */
    needed = 0;
    buf[0] = 'x';
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_HOMEWORK, buf, 2, &needed), CG_BUFFER_TOO_SMALL);
    CHECK(needed == 2 && buf[0] == 'x');
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_HOMEWORK, NULL, 8, &needed), CG_NULL_POINTER);
    /* `needed` is optional. */
    buf[0] = 'x';
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_HOMEWORK, buf, 8, NULL), CG_OK);
    CHECK_STR(buf, "Ts");

    /* No such card, and no 2 in the Durak deck. */
    card.rank = 1;
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_HOMEWORK, buf, sizeof buf, &needed), CG_BAD_CARD);
    card.rank = 5;
    card.suit = 4;
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_HOMEWORK, buf, sizeof buf, &needed), CG_BAD_CARD);
    card.suit = 0;
    CHECK_STATUS(cg_card_format(card, CG_NOTATION_DURAK, buf, sizeof buf, &needed), CG_BAD_CARD);
    CHECK_STATUS(cg_card_format(card, 2, buf, sizeof buf, &needed), CG_INVALID_ARGUMENT);
    return check_report();
}
