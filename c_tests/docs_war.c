/* War written from the installed documentation alone: the header
 * (cardgames.h) and share/doc/cardgames/rules/homework.md, section 4. It
 * uses only the list operations of cg_deck, and checks itself hand by hand
 * against the library's own War (cg_war_step, cg_war_pile, cg_war_outcome)
 * on random deals: the winner of every hand, the cards first turned, both
 * piles after every hand, and the outcome.
 *
 * Usage: docs_war [DEALS [SEED]] (default 1000 deals, seed 1). Prints
 * "N deals, N hands, N wars, N wars cut short, ... 0 differences" and exits
 * non-zero on any difference. Installed as examples/war.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardgames.h"

/* rules/homework.md 4.5: after this many hands the rank counts decide. */
#define HAND_LIMIT 100

static unsigned long long rng_state;

static unsigned long long next_random(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static size_t below(size_t n)
{
    return (size_t)(next_random() % n);
}

static int differences;

static void differ(int deal, unsigned hand, const char *what)
{
    differences++;
    if (differences <= 10)
        fprintf(stderr, "deal %d, hand %u: %s\n", deal, hand, what);
}

/* Any failure of the library on a valid call is fatal. */
static void must(cg_status status, const char *what)
{
    if (status != CG_OK) {
        char message[256];
        size_t needed = 0;
        cg_last_error_message(message, sizeof message, &needed);
        fprintf(stderr, "%s: %s (%s)\n", what, cg_status_str((int)status), message);
        exit(2);
    }
}

static size_t length(const cg_deck *deck)
{
    size_t n = 0;
    must(cg_deck_len(deck, &n), "cg_deck_len");
    return n;
}

/* The same cards in the same order. */
static int same_pile(const cg_deck *a, const cg_deck *b)
{
    cg_deck_iter ia, ib;
    cg_card ca, cb;
    int more_a, more_b;
    must(cg_deck_iter_init(a, &ia), "cg_deck_iter_init");
    must(cg_deck_iter_init(b, &ib), "cg_deck_iter_init");
    for (;;) {
        more_a = cg_deck_iter_next(&ia, &ca);
        more_b = cg_deck_iter_next(&ib, &cb);
        if (more_a != more_b)
            return 0;
        if (!more_a)
            return 1;
        if (ca.rank != cb.rank || ca.suit != cb.suit)
            return 0;
    }
}

/* The game as the documentation describes it. */
struct war {
    cg_deck *pile[2]; /* player 1, player 2; top card first */
    unsigned hands;
};

struct counters {
    unsigned long hands, wars, cut_short, no_winner, all_cards, by_rank, ties;
};

/* One hand (rules/homework.md 4.2-4.4): returns the winner, 1 or 2, or 0
 * when neither could finish a war; *first1 and *first2 get the cards first
 * turned. */
static int play_hand(struct war *w, cg_card *first1, cg_card *first2, struct counters *count)
{
    cg_deck *turned[2]; /* each player's turned cards, the last turned on top */
    cg_card card[2];
    int winner;
    int p;
    w->hands++;
    for (p = 0; p < 2; p++) {
        must(cg_deck_new_empty(&turned[p]), "cg_deck_new_empty");
        must(cg_deck_move_front_to(w->pile[p], turned[p], &card[p]), "turn a card");
    }
    *first1 = card[0];
    *first2 = card[1];
    /* 4.3: equal values start a war of min(value, cards left, cards left). */
    while (cg_card_value(card[0]) == cg_card_value(card[1])) {
        size_t n = (size_t)cg_card_value(card[0]);
        size_t left1 = length(w->pile[0]), left2 = length(w->pile[1]);
        size_t i;
        if (left1 < n)
            n = left1;
        if (left2 < n)
            n = left2;
        count->wars++;
        if (n == 0) {
            count->cut_short++;
            break;
        }
        for (i = 0; i < n; i++)
            for (p = 0; p < 2; p++)
                must(cg_deck_move_front_to(w->pile[p], turned[p], &card[p]), "turn a war card");
    }
    if (cg_card_value(card[0]) > cg_card_value(card[1]))
        winner = 1;
    else if (cg_card_value(card[0]) < cg_card_value(card[1]))
        winner = 2;
    else if (length(w->pile[0]) != length(w->pile[1]))
        /* 4.3.4: a war cut short goes to the player who still has cards. */
        winner = length(w->pile[0]) > length(w->pile[1]) ? 1 : 2;
    else
        winner = 0;
    if (winner == 0) {
        /* Neither has a card: each takes his own back (4.3.4, 4.4 order). */
        count->no_winner++;
        for (p = 0; p < 2; p++)
            must(cg_deck_append(w->pile[p], turned[p]), "take back");
    } else {
        /* 4.4: own stack first, then the opponent's, each from the top. */
        cg_deck *own = turned[winner - 1], *other = turned[2 - winner];
        must(cg_deck_append(w->pile[winner - 1], own), "collect own");
        must(cg_deck_append(w->pile[winner - 1], other), "collect other");
    }
    cg_deck_free(turned[0]);
    cg_deck_free(turned[1]);
    return winner;
}

/* 4.5: over when a pile is empty or after 100 hands. */
static int over(const struct war *w)
{
    return length(w->pile[0]) == 0 || length(w->pile[1]) == 0 || w->hands >= HAND_LIMIT;
}

/* 4.5: the outcome. Returns 0 for a tie; otherwise the winner, with *rank
 * the deciding rank as a cg_card rank number (0 when all cards were won). */
static int outcome(const struct war *w, int *rank)
{
    /* Counts indexed by card value (cg_card_value: 2..15, so 16 slots). */
    unsigned counts[2][16];
    /* A K Q J T 9 .. 3 as values, and as cg_card rank numbers. */
    static const int values[12] = {15, 14, 13, 12, 10, 9, 8, 7, 6, 5, 4, 3};
    static const int ranks[12] = {14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3};
    int p, i;
    *rank = 0;
    if (length(w->pile[1]) == 0)
        return 1;
    if (length(w->pile[0]) == 0)
        return 2;
    memset(counts, 0, sizeof counts);
    for (p = 0; p < 2; p++) {
        cg_deck_iter it;
        cg_card card;
        must(cg_deck_iter_init(w->pile[p], &it), "cg_deck_iter_init");
        while (cg_deck_iter_next(&it, &card))
            counts[p][cg_card_value(card)]++;
    }
    for (i = 0; i < 12; i++) {
        if (counts[0][values[i]] != counts[1][values[i]]) {
            *rank = ranks[i];
            return counts[0][values[i]] > counts[1][values[i]] ? 1 : 2;
        }
    }
    return 0;
}

/* A deal: the 52 cards in random order, or (one deal in two) a random even
 * number of them, 2..52, so that short piles and wars cut short are common. */
static cg_deck *random_deal(void)
{
    cg_card all[52];
    cg_deck *deck;
    size_t i, n = 52;
    for (i = 0; i < 52; i++) {
        all[i].rank = (uint8_t)(2 + i / 4);
        all[i].suit = (uint8_t)(i % 4);
    }
    for (i = 51; i > 0; i--) {
        size_t j = below(i + 1);
        cg_card t = all[i];
        all[i] = all[j];
        all[j] = t;
    }
    if (below(2))
        n = 2 * (1 + below(26));
    must(cg_deck_new_empty(&deck), "cg_deck_new_empty");
    for (i = 0; i < n; i++)
        must(cg_deck_push_back(deck, all[i]), "cg_deck_push_back");
    return deck;
}

static void play_deal(int deal, struct counters *count)
{
    cg_deck *deck = random_deal();
    cg_war *game = NULL;
    struct war w;
    cg_war_result result;
    cg_status status;
    int rank = 0, winner;

    /* 4.1: player 1 the top half, player 2 the rest. */
    must(cg_war_new(deck, &game), "cg_war_new");
    w.pile[0] = deck;
    must(cg_deck_split_off(deck, length(deck) / 2, &w.pile[1]), "cg_deck_split_off");
    w.hands = 0;

    while (!over(&w)) {
        cg_card first1, first2;
        cg_war_hand hand;
        const cg_deck *pile1 = NULL, *pile2 = NULL;
        int mine = play_hand(&w, &first1, &first2, count);
        count->hands++;
        status = cg_war_step(game, &hand);
        if (status != CG_OK) {
            differ(deal, w.hands, "cg_war_step ended the game early");
            break;
        }
        if (hand.winner != mine)
            differ(deal, w.hands, "another winner of the hand");
        if (hand.card1.rank != first1.rank || hand.card1.suit != first1.suit ||
            hand.card2.rank != first2.rank || hand.card2.suit != first2.suit)
            differ(deal, w.hands, "other first cards");
        if (hand.hands != w.hands)
            differ(deal, w.hands, "another hand count");
        must(cg_war_pile(game, 1, &pile1), "cg_war_pile");
        must(cg_war_pile(game, 2, &pile2), "cg_war_pile");
        if (!same_pile(pile1, w.pile[0]) || !same_pile(pile2, w.pile[1]))
            differ(deal, w.hands, "other piles after the hand");
    }
    {
        cg_war_hand hand;
        if (cg_war_step(game, &hand) != CG_NO_MOVE)
            differ(deal, w.hands, "cg_war_step goes on after the end");
    }
    winner = outcome(&w, &rank);
    status = cg_war_outcome(game, &result);
    if (winner == 0) {
        count->ties++;
        if (status != CG_GAME_UNFINISHED)
            differ(deal, w.hands, "the library finds a winner where ranks tie");
    } else {
        if (rank == 0)
            count->all_cards++;
        else
            count->by_rank++;
        if (status != CG_OK)
            differ(deal, w.hands, "cg_war_outcome fails");
        else if (result.winner != winner || result.rank != rank || result.hands != w.hands)
            differ(deal, w.hands, "another outcome");
    }
    cg_war_free(game);
    cg_deck_free(w.pile[0]);
    cg_deck_free(w.pile[1]);
}

int main(int argc, char **argv)
{
    int deals = argc > 1 ? atoi(argv[1]) : 1000;
    int deal;
    struct counters count;
    memset(&count, 0, sizeof count);
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (rng_state == 0)
        rng_state = 1;
    for (deal = 0; deal < deals; deal++)
        play_deal(deal, &count);
    printf("%d deals, %lu hands, %lu wars (%lu cut short, %lu hands without a winner); "
           "%lu won with all the cards, %lu on rank counts, %lu ties; %d differences\n",
           deals, count.hands, count.wars, count.cut_short, count.no_winner, count.all_cards,
           count.by_rank, count.ties, differences);
    return differences == 0 && deals > 0 ? 0 : 1;
}
