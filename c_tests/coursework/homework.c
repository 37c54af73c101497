/* The homework written the way a student would, in C on the library's list
 * operations (include/cardgames.h): reads `in`, shuffles the deck, plays
 * War, Rolling Stone or Egyptian Scarabs with its own game loops on linked
 * lists, and writes `out`; with `--debug` it also writes `out.debug`, the
 * game step by step in the format of the original checker's .debug files.
 *
 * The library provides only the deck (a singly linked list of cards) and
 * the four shuffles; no cg_*_play or cg_homework_run is used here. The
 * rules are those of docs/rules/homework.md (§3-6: the readings the
 * reference outputs settle). On bad input: one line on stderr, exit status 1, no
 * `out`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardgames.h"

#define PLAYERS 4
#define SUITS 4
#define TURN_LIMIT 1000000UL
#define WAR_HANDS 100

static const char RANKS[] = "??23456789TJQKA";
static const char SUIT_CODES[] = "shcd";

/* The trace file, or NULL when not asked for. */
static FILE *debug;

static void die(const char *message, const char *detail)
{
    fprintf(stderr, "homework: %s%s\n", message, detail);
    exit(1);
}

/* Every list operation returns a status; one that fails here is a bug. */
static void must(cg_status status, const char *what)
{
    if (status != CG_OK) {
        char detail[256];
        size_t needed = 0;
        if (cg_last_error_message(detail, sizeof detail, &needed) != CG_OK)
            detail[0] = '\0';
        fprintf(stderr, "homework: %s: %s (%s)\n", what, cg_status_str(status), detail);
        exit(1);
    }
}

static cg_deck *new_empty(void)
{
    cg_deck *deck = NULL;
    must(cg_deck_new_empty(&deck), "new deck");
    return deck;
}

static size_t length(const cg_deck *deck)
{
    size_t len = 0;
    must(cg_deck_len(deck, &len), "deck length");
    return len;
}

/* ---- The trace: cards written like the reference, ['As', '8c'] ---- */

static void print_card(cg_card card)
{
    fprintf(debug, "'%c%c'", RANKS[card.rank], SUIT_CODES[card.suit]);
}

/* A pile, top card first. */
static void print_list(const cg_deck *deck)
{
    cg_deck_iter it;
    cg_card card;
    int first = 1;
    must(cg_deck_iter_init(deck, &it), "iterate");
    fputc('[', debug);
    while (cg_deck_iter_next(&it, &card)) {
        if (!first)
            fputs(", ", debug);
        print_card(card);
        first = 0;
    }
    fputc(']', debug);
}

/* A table kept last card on top, written first card first. */
static void print_table(const cg_deck *table)
{
    cg_card cards[52 * 4];
    size_t count = 0, i;
    must(cg_deck_cards(table, cards, sizeof cards / sizeof cards[0], &count), "table cards");
    fputc('[', debug);
    for (i = count; i > 0; i--) {
        print_card(cards[i - 1]);
        if (i > 1)
            fputs(", ", debug);
    }
    fputc(']', debug);
}

/* ---- War ---- */

static void war_trace(const cg_deck *p1, const cg_deck *p2)
{
    fputs("P1: ", debug);
    print_list(p1);
    fputs("\nP2: ", debug);
    print_list(p2);
    fputs("\n---------------\n", debug);
}

/* Plays War and writes the result line (`1`, `2 C`) into `out`. */
static void play_war(cg_deck *deck, char *out, size_t out_len)
{
    cg_deck *pile[2], *turned[2];
    cg_card a, b, front[2];
    int hands = 0, i;

    pile[0] = deck;
    must(cg_deck_split_off(deck, length(deck) / 2, &pile[1]), "deal");
    turned[0] = new_empty();
    turned[1] = new_empty();
    if (debug)
        war_trace(pile[0], pile[1]);
    while (length(pile[0]) > 0 && length(pile[1]) > 0 && hands < WAR_HANDS) {
        int winner;
        hands++;
        must(cg_deck_peek_front(pile[0], &front[0]), "peek");
        must(cg_deck_peek_front(pile[1], &front[1]), "peek");
        /* Turned cards pile up last on top: the order they are taken in. */
        must(cg_deck_move_front_to(pile[0], turned[0], &a), "turn");
        must(cg_deck_move_front_to(pile[1], turned[1], &b), "turn");
        while (cg_card_value(a) == cg_card_value(b)) {
            size_t n = (size_t)cg_card_value(a), k;
            if (length(pile[0]) < n)
                n = length(pile[0]);
            if (length(pile[1]) < n)
                n = length(pile[1]);
            if (n == 0)
                break;
            for (k = 0; k < n; k++) {
                must(cg_deck_move_front_to(pile[0], turned[0], &a), "turn");
                must(cg_deck_move_front_to(pile[1], turned[1], &b), "turn");
            }
        }
        if (cg_card_value(a) != cg_card_value(b))
            winner = cg_card_value(a) > cg_card_value(b) ? 0 : 1;
        else if (length(pile[0]) != length(pile[1]))
            winner = length(pile[0]) > length(pile[1]) ? 0 : 1;
        else
            winner = -1;
        if (winner < 0) {
            /* Both ran out in a war: each takes his own cards back. */
            must(cg_deck_append(pile[0], turned[0]), "take back");
            must(cg_deck_append(pile[1], turned[1]), "take back");
        } else {
            must(cg_deck_append(pile[winner], turned[winner]), "take");
            must(cg_deck_append(pile[winner], turned[1 - winner]), "take");
        }
        if (debug) {
            fputs("P1 card: ", debug);
            fprintf(debug, "%c%c\nP2 card: %c%c\n", RANKS[front[0].rank], SUIT_CODES[front[0].suit],
                    RANKS[front[1].rank], SUIT_CODES[front[1].suit]);
            war_trace(pile[0], pile[1]);
        }
    }
    if (length(pile[0]) == 0 || length(pile[1]) == 0) {
        int winner = length(pile[0]) > 0 ? 1 : 2;
        if (length(pile[0]) == 0 && length(pile[1]) == 0)
            die("razboi: both players ran out of cards", "");
        sprintf(out, "%d\n", winner);
        if (debug)
            fprintf(debug, "p%d won all the cards\n%d\n", winner, winner);
    } else {
        /* After 100 hands: the frequency vector of each pile, by value. */
        int count[2][16];
        static const int order[] = {15, 14, 13, 12, 10, 9, 8, 7, 6, 5, 4, 3};
        memset(count, 0, sizeof count);
        for (i = 0; i < 2; i++) {
            cg_deck_iter it;
            cg_card card;
            must(cg_deck_iter_init(pile[i], &it), "iterate");
            while (cg_deck_iter_next(&it, &card))
                count[i][cg_card_value(card)]++;
        }
        for (i = 0; i < (int)(sizeof order / sizeof order[0]); i++) {
            int v = order[i];
            if (count[0][v] != count[1][v]) {
                int winner = count[0][v] > count[1][v] ? 1 : 2;
                char rank = v == 15 ? 'A' : v == 14 ? 'K' : v == 13 ? 'Q' : v == 12 ? 'J' : RANKS[v];
                sprintf(out, "%d %c\n", winner, rank);
                if (debug)
                    fprintf(debug, "p%d had more %cs\n%d\n", winner, rank, winner);
                break;
            }
        }
        if (i == (int)(sizeof order / sizeof order[0]))
            die("razboi ended in a tie after 100 hands", "");
    }
    (void)out_len;
    cg_deck_free(pile[1]);
    cg_deck_free(turned[0]);
    cg_deck_free(turned[1]);
}

/* ---- Dealing to four players ---- */

/* Cuts the deck into four piles of 13 consecutive cards (pile[0] is deck). */
static void deal_four(cg_deck *deck, cg_deck *pile[PLAYERS])
{
    size_t size = length(deck) / PLAYERS;
    int p;
    pile[0] = deck;
    for (p = 1; p < PLAYERS; p++)
        must(cg_deck_split_off(pile[p - 1], size, &pile[p]), "deal");
}

/* ---- Rolling Stone: each hand kept as one list per suit ---- */

static void rolling_trace(cg_deck *hand[PLAYERS][SUITS], const cg_deck *table)
{
    int p, s;
    for (p = 0; p < PLAYERS; p++) {
        fprintf(debug, "Player %d: {", p);
        for (s = 0; s < SUITS; s++) {
            fprintf(debug, "%s'%c': ", s ? ", " : "", SUIT_CODES[s]);
            print_list(hand[p][s]);
        }
        fputs("}\n", debug);
    }
    fputs("Table: ", debug);
    print_table(table);
    fputs("\n------------------\n", debug);
}

/* The first suit from `from` on (s -> h -> c -> d -> s) the hand holds. */
static int first_suit(cg_deck *hand[SUITS], int from)
{
    int k;
    for (k = 0; k < SUITS; k++)
        if (length(hand[(from + k) % SUITS]) > 0)
            return (from + k) % SUITS;
    return -1;
}

static int play_rolling_stone(cg_deck *deck)
{
    cg_deck *pile[PLAYERS], *hand[PLAYERS][SUITS], *table = new_empty();
    int p, s, suit = -1, turn = 0, winner = -1;
    unsigned long turns = 0;

    deal_four(deck, pile);
    for (p = 0; p < PLAYERS; p++) {
        cg_card card;
        for (s = 0; s < SUITS; s++)
            hand[p][s] = new_empty();
        /* Sort the dealt cards into suits, keeping their order. */
        while (cg_deck_peek_front(pile[p], &card) == CG_OK)
            must(cg_deck_move_front_to_back(pile[p], hand[p][card.suit], NULL), "sort");
        if (p > 0)
            cg_deck_free(pile[p]);
    }
    if (debug)
        rolling_trace(hand, table);
    while (winner < 0) {
        if (++turns > TURN_LIMIT)
            die("rollingstone did not end within 1000000 turns", "");
        p = turn;
        if (suit < 0) {
            suit = first_suit(hand[p], 0);
            must(cg_deck_move_front_to(hand[p][suit], table, NULL), "lead");
        } else if (length(hand[p][suit]) > 0) {
            must(cg_deck_move_front_to(hand[p][suit], table, NULL), "follow");
        } else {
            /* Cannot follow: takes the table in table order (it is all of
             * this suit), then leads the next suit he holds. */
            must(cg_deck_reverse(table), "take");
            must(cg_deck_append(hand[p][suit], table), "take");
            if (debug)
                rolling_trace(hand, table);
            suit = first_suit(hand[p], (suit + 1) % SUITS);
            must(cg_deck_move_front_to(hand[p][suit], table, NULL), "lead");
        }
        if (first_suit(hand[p], 0) < 0)
            winner = p;
        else if (debug)
            rolling_trace(hand, table);
        turn = (p + 1) % PLAYERS;
    }
    if (debug)
        fprintf(debug, "%d\n", winner);
    for (p = 0; p < PLAYERS; p++)
        for (s = 0; s < SUITS; s++)
            cg_deck_free(hand[p][s]);
    cg_deck_free(table);
    return winner;
}

/* ---- Egyptian Scarabs ---- */

static int holders_of(cg_deck *pile[PLAYERS])
{
    int p, n = 0;
    for (p = 0; p < PLAYERS; p++)
        n += length(pile[p]) > 0;
    return n;
}

static void scarabs_trace(cg_deck *pile[PLAYERS], const cg_deck *table, int claim, int turn,
                          int forward)
{
    int p, first = 1;
    fprintf(debug, "Before action: %d\nCurrent player: %d\nPlayers in game: [", claim >= 0, turn);
    for (p = 0; p < PLAYERS; p++)
        if (length(pile[p]) > 0) {
            fprintf(debug, first ? "%d" : ", %d", p);
            first = 0;
        }
    fprintf(debug, "]\nDirection: %c\n", forward ? '+' : '-');
    for (p = 0; p < PLAYERS; p++) {
        fprintf(debug, "Player %d: ", p);
        print_list(pile[p]);
        fputc('\n', debug);
    }
    fputs("Table: ", debug);
    print_table(table);
    fprintf(debug, "\nTo win player: %d\n---------------------------------\n", claim >= 0 ? claim : 0);
}

static int play_scarabs(cg_deck *deck)
{
    cg_deck *pile[PLAYERS], *table = new_empty();
    int turn = 0, forward = 1, claim = -1, p, winner = -1;
    unsigned long turns = 0;

    deal_four(deck, pile);
    if (debug)
        scarabs_trace(pile, table, claim, turn, forward);
    while (holders_of(pile) > 1) {
        cg_card card;
        int rank, taken = 0;
        if (++turns > TURN_LIMIT)
            die("scarabei did not end within 1000000 turns", "");
        p = turn;
        must(cg_deck_move_front_to(pile[p], table, &card), "turn a card");
        rank = card.rank;
        if (rank >= 11) {
            claim = p; /* A, K, Q, J: a scarab */
        } else if (rank == 8) {
            if (claim < 0)
                forward = !forward;
        } else if (claim >= 0) {
            /* A number on a scarab: the last scarab player takes the table,
             * last card turned first, and starts the next hand. */
            must(cg_deck_append(pile[claim], table), "take");
            turn = claim;
            claim = -1;
            taken = 1;
        }
        if (!taken) {
            int k;
            for (k = 1; k < PLAYERS; k++) {
                int seat = (p + (forward ? k : PLAYERS - k)) % PLAYERS;
                if (length(pile[seat]) > 0) {
                    turn = seat;
                    break;
                }
            }
        }
        if (debug)
            scarabs_trace(pile, table, claim, turn, forward);
    }
    for (p = 0; p < PLAYERS; p++)
        if (length(pile[p]) > 0)
            winner = p;
    if (winner < 0)
        die("scarabei: no player holds a card", "");
    if (debug)
        fprintf(debug, "%d\n", winner);
    for (p = 1; p < PLAYERS; p++)
        cg_deck_free(pile[p]);
    cg_deck_free(table);
    return winner;
}

/* ---- Reading `in` ---- */

/* Reads a whole file into a NUL-terminated buffer the caller frees. */
static char *read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    if (file == NULL)
        return NULL;
    do {
        if (cap - len < 4096) {
            char *bigger = (char *)realloc(text, cap * 2 + 4096);
            if (bigger == NULL) {
                free(text);
                fclose(file);
                return NULL;
            }
            text = bigger;
            cap = cap * 2 + 4096;
        }
        got = fread(text + len, 1, cap - len - 1, file);
        len += got;
    } while (got > 0);
    fclose(file);
    text[len] = '\0';
    return text;
}

/* The next line without its end and surrounding blanks; NULL at the end. */
static char *next_line(char **cursor)
{
    char *line = *cursor, *end;
    if (*line == '\0')
        return NULL;
    end = strchr(line, '\n');
    if (end != NULL) {
        *end = '\0';
        *cursor = end + 1;
    } else {
        *cursor = line + strlen(line);
    }
    while (*line == ' ' || *line == '\t' || *line == '\r')
        line++;
    end = line + strlen(line);
    while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        *--end = '\0';
    return line;
}

/* Applies one shuffle line to the deck. */
static void shuffle(cg_deck *deck, char *line)
{
    char *word = strtok(line, " \t");
    if (word == NULL)
        die("empty shuffle line", "");
    if (strcmp(word, "inversare") == 0) {
        must(cg_deck_reverse(deck), "inversare");
    } else if (strcmp(word, "intercalare") == 0) {
        must(cg_deck_interleave(deck), "intercalare");
    } else if (strcmp(word, "mongean") == 0) {
        must(cg_deck_mongean(deck), "mongean");
    } else if (strcmp(word, "npiles") == 0) {
        size_t order[52], k = 0, i;
        char *number = strtok(NULL, " \t");
        if (number == NULL || (k = (size_t)strtoul(number, NULL, 10)) == 0 || k > 52)
            die("npiles: bad pile count", "");
        for (i = 0; i < k; i++) {
            number = strtok(NULL, " \t");
            if (number == NULL)
                die("npiles: too few pile numbers", "");
            order[i] = (size_t)strtoul(number, NULL, 10);
        }
        if (strtok(NULL, " \t") != NULL)
            die("npiles: too many pile numbers", "");
        must(cg_deck_npiles(deck, order, k), "npiles");
    } else {
        die("unknown shuffle ", word);
    }
}

int main(int argc, char **argv)
{
    char *text, *cursor, *task, *line, out[200];
    cg_deck *deck = NULL;
    long count, i;
    FILE *file;

    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--debug") != 0))
        die("usage: homework [--debug]", "");
    text = read_file("in");
    if (text == NULL)
        die("cannot read in", "");
    cursor = text;
    task = next_line(&cursor);
    line = next_line(&cursor);
    if (task == NULL || line == NULL || (count = strtol(line, NULL, 10)) < 0)
        die("in: expected a task and the number of shuffles", "");
    if (strcmp(task, "amestecare") != 0 && strcmp(task, "razboi") != 0 &&
        strcmp(task, "rollingstone") != 0 && strcmp(task, "scarabei") != 0)
        die("unknown task ", task);
    if (argc == 2) {
        debug = fopen("out.debug", "wb");
        if (debug == NULL)
            die("cannot write out.debug", "");
    }
    must(cg_deck_new(&deck), "new deck");
    for (i = 0; i < count; i++) {
        line = next_line(&cursor);
        if (line == NULL)
            die("in: fewer shuffle lines than announced", "");
        shuffle(deck, line);
        /* amestecare has no official trace: the deck after each shuffle. */
        if (debug && strcmp(task, "amestecare") == 0) {
            print_list(deck);
            fputc('\n', debug);
        }
    }
    if (strcmp(task, "amestecare") == 0) {
        size_t needed = 0;
        must(cg_deck_to_str(deck, CG_NOTATION_HOMEWORK, out, sizeof out - 1, &needed), "print");
        strcat(out, "\n");
    } else if (strcmp(task, "razboi") == 0) {
        play_war(deck, out, sizeof out);
    } else if (strcmp(task, "rollingstone") == 0) {
        sprintf(out, "%d\n", play_rolling_stone(deck) + 1);
    } else {
        sprintf(out, "%d\n", play_scarabs(deck) + 1);
    }
    cg_deck_free(deck);
    free(text);
    if (debug != NULL && fclose(debug) != 0)
        die("cannot write out.debug", "");
    file = fopen("out", "wb");
    if (file == NULL || fputs(out, file) == EOF || fclose(file) != 0)
        die("cannot write out", "");
    return 0;
}
