/* A randomized harness over the whole C ABI: calls every exported function
 * with random, NULL, huge and malformed arguments (within the documented
 * contracts: a pointer is NULL or valid for what it is documented to hold)
 * for a bounded time, and checks that no call panics (CG_PANIC), returns a
 * status that is not one of cg_status, writes an out-parameter when it
 * fails, or leaves a last error that does not name the function and say
 * more than the status's generic message. Built with -fsanitize=address,undefined by `make fuzz-c`, so a
 * memory error or a leak fails the run too.
 *
 * usage: fuzz_abi [SECONDS [SEED]]   (defaults: 3 seconds, seed 1) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cardgames.h"

#define POOL 6
#define SENTINEL 0xA5

static uint64_t state;
static unsigned long calls, failures;

static uint64_t next(void)
{
    /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
}

static unsigned below(unsigned n)
{
    return (unsigned)(next() % n);
}

static void fail(const char *what, int line, cg_status status)
{
    char detail[512];
    size_t needed = 0;
    if (cg_last_error_message(detail, sizeof detail, &needed) != CG_OK)
        detail[0] = '\0';
    failures++;
    fprintf(stderr, "fuzz_abi.c:%d: %s (status %d: %s; %s)\n", line, what, (int)status,
            cg_status_str((int)status), detail);
}

/* The last error after a call that returned `status`: "" after a success;
 * after a failure "<function>: <detail>", the detail more than the status's
 * generic message. */
static void check_message(cg_status status, int line)
{
    char small[512];
    char *text = small;
    const char *colon;
    size_t needed = 0;
    cg_status got = cg_last_error_message(small, sizeof small, &needed);
    if (got == CG_BUFFER_TOO_SMALL) {
        text = (char *)malloc(needed + 1);
        if (text == NULL)
            return;
        got = cg_last_error_message(text, needed + 1, &needed);
    }
    if (got != CG_OK) {
        fail("cg_last_error_message failed", line, got);
    } else if (status == CG_OK) {
        if (text[0] != '\0')
            fail("a success left a last error", line, status);
    } else {
        colon = strstr(text, ": ");
        if (strncmp(text, "cg_", 3) != 0 || colon == NULL)
            fail("the last error does not name the function", line, status);
        else if (strcmp(colon + 2, cg_status_str((int)status)) == 0)
            fail("the last error is only the status's generic message", line, status);
    }
    if (text != small)
        free(text);
}

/* Every call: a known status, never CG_PANIC, and a last error that says
 * what went wrong (cg_last_error_message itself reports the previous one). */
static cg_status seen(cg_status status, int line, const char *call)
{
    calls++;
    if (status == CG_PANIC || strcmp(cg_status_str((int)status), "unknown status") == 0)
        fail("unexpected status", line, status);
    if (strncmp(call, "cg_last_error_message", 21) != 0)
        check_message(status, line);
    return status;
}
#define CALL(expr) seen((expr), __LINE__, #expr)

/* An out-parameter untouched on failure: its bytes are still SENTINEL. */
static int untouched(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (b[i] != SENTINEL)
            return 0;
    return 1;
}
#define CHECK_UNTOUCHED(status, var)                                                   \
    do {                                                                               \
        if ((status) != CG_OK && !untouched(&(var), sizeof(var)))                      \
            fail("out-parameter written on failure: " #var, __LINE__, (status));       \
    } while (0)
#define ARM(var) memset(&(var), SENTINEL, sizeof(var))

static cg_deck *decks[POOL];
static cg_war *wars[2];
static cg_rolling_stone *stones[2];
static cg_scarabs *scarabs[2];
static cg_durak_bot *bots[2];
static cg_coup_memory *memories[2];

/* A pool entry or NULL (one time in eight). */
static cg_deck *any_deck(void)
{
    return below(8) == 0 ? NULL : decks[below(POOL)];
}

static size_t deck_len(const cg_deck *deck)
{
    size_t len = 0;
    if (deck != NULL)
        CALL(cg_deck_len(deck, &len));
    return len;
}

static cg_card any_card(void)
{
    cg_card card;
    card.rank = (uint8_t)(below(4) == 0 ? below(256) : 2 + below(13));
    card.suit = (uint8_t)(below(4) == 0 ? below(256) : below(4));
    return card;
}

/* Huge, zero, or a small value. */
static size_t any_size(void)
{
    switch (below(6)) {
    case 0:
        return 0;
    case 1:
        return (size_t)-1;
    case 2:
        return (size_t)next();
    default:
        return below(64);
    }
}

static char text[4096];

/* A string: a valid shuffle/card/protocol word, random bytes (often not
 * UTF-8), a long run, or empty. Returns NULL one time in ten. */
static const char *any_text(void)
{
    static const char *const words[] = {
        "inversare", "intercalare", "mongean", "npiles 4 1 4 3 2", "npiles 13 1 2 3",
        "npiles 5 1 2 3 4 5", "As Kh 2c", "AS 6D", "Ts", "Xx", "razboi\n0\n",
        "scarabei\r\n1\r\nmongean", "rollingstone\n2\nmongean\ninversare\n",
        "amestecare\n1\nnpiles 52 1 2\n", "trump S", "give 1 6S", "move 2 3 6D", "MOVE",
        "BEAT", "ADD", "I\n", "search", "random", "\xff\xfe", "caf\xc3\xa9", "",
    };
    size_t len, i;
    switch (below(10)) {
    case 0:
        return NULL;
    case 1:
    case 2:
        len = below(64);
        for (i = 0; i < len; i++)
            text[i] = (char)(1 + below(255));
        text[len] = '\0';
        return text;
    case 3:
        len = below(sizeof text - 1);
        memset(text, below(2) ? 'A' : ' ', len);
        text[len] = '\0';
        return text;
    default:
        return words[below(sizeof words / sizeof words[0])];
    }
}

/* Keeps pool decks small, so whole games stay quick. */
static void trim(int i)
{
    if (deck_len(decks[i]) > 120) {
        cg_deck_free(decks[i]);
        decks[i] = NULL;
        CALL(cg_deck_new(&decks[i]));
    }
}

static void deck_ops(void)
{
    int i = (int)below(POOL);
    cg_deck *d = any_deck(), *e = any_deck();
    cg_deck *made;
    cg_card card;
    size_t n;
    cg_status s;
    char buf[512];
    switch (below(26)) {
    case 0:
        ARM(made);
        s = CALL(cg_deck_new(below(10) ? &made : NULL));
        if (s == CG_OK) {
            cg_deck_free(decks[i]);
            decks[i] = made;
        }
        break;
    case 1:
        ARM(made);
        s = CALL(cg_deck_new_empty(below(10) ? &made : NULL));
        if (s == CG_OK) {
            cg_deck_free(decks[i]);
            decks[i] = made;
        }
        break;
    case 2:
        ARM(made);
        s = CALL(cg_deck_from_str(any_text(), below(3), &made));
        CHECK_UNTOUCHED(s, made);
        if (s == CG_OK) {
            cg_deck_free(decks[i]);
            decks[i] = made;
        }
        break;
    case 3:
        ARM(made);
        s = CALL(cg_deck_clone(d, &made));
        CHECK_UNTOUCHED(s, made);
        if (s == CG_OK) {
            cg_deck_free(decks[i]);
            decks[i] = made;
        }
        break;
    case 4:
        ARM(made);
        s = CALL(cg_deck_split_off(d, below(2) ? below(60) : any_size(), &made));
        CHECK_UNTOUCHED(s, made);
        if (s == CG_OK) {
            cg_deck_free(decks[i]);
            decks[i] = made;
        }
        break;
    case 5:
        ARM(n);
        s = CALL(cg_deck_len(d, below(10) ? &n : NULL));
        CHECK_UNTOUCHED(s, n);
        break;
    case 6:
        ARM(card);
        s = CALL(cg_deck_get(d, any_size(), &card));
        CHECK_UNTOUCHED(s, card);
        break;
    case 7:
        ARM(buf);
        ARM(n);
        s = CALL(cg_deck_to_str(d, below(3), below(10) ? buf : NULL, below(2) ? sizeof buf : below(8), &n));
        if (s != CG_OK && s != CG_BUFFER_TOO_SMALL)
            CHECK_UNTOUCHED(s, n);
        if (s != CG_OK)
            CHECK_UNTOUCHED(s, buf);
        break;
    case 8:
        CALL(cg_deck_shuffle(d, any_text()));
        break;
    case 9:
        CALL(cg_deck_reverse(d));
        break;
    case 10: {
        size_t order[16];
        size_t k = below(17), j;
        for (j = 0; j < k; j++)
            order[j] = below(4) ? j + 1 : any_size();
        for (j = k; j > 1; j--) {
            size_t r = below((unsigned)j), t = order[j - 1];
            order[j - 1] = order[r];
            order[r] = t;
        }
        CALL(cg_deck_npiles(d, below(10) ? order : NULL, k));
        break;
    }
    case 11:
        CALL(cg_deck_interleave(d));
        break;
    case 12:
        CALL(cg_deck_mongean(d));
        break;
    case 13:
        CALL(cg_deck_push_front(d, any_card()));
        break;
    case 14:
        CALL(cg_deck_push_back(d, any_card()));
        break;
    case 15:
        ARM(card);
        s = CALL(cg_deck_pop_front(d, below(10) ? &card : NULL));
        CHECK_UNTOUCHED(s, card);
        break;
    case 16:
        ARM(card);
        s = CALL(cg_deck_peek_front(d, &card));
        CHECK_UNTOUCHED(s, card);
        break;
    case 17:
        ARM(card);
        s = CALL(cg_deck_move_front_to(d, e, below(2) ? &card : NULL));
        CHECK_UNTOUCHED(s, card);
        break;
    case 18:
        ARM(card);
        s = CALL(cg_deck_move_front_to_back(d, e, below(2) ? &card : NULL));
        CHECK_UNTOUCHED(s, card);
        break;
    case 19:
        CALL(cg_deck_append(d, e));
        break;
    case 20:
        ARM(card);
        s = CALL(cg_deck_move_first_matching_to(d, below(3) ? below(4) : (uint32_t)next(), e, &card));
        CHECK_UNTOUCHED(s, card);
        break;
    case 21: {
        cg_card cards[200];
        ARM(n);
        ARM(cards);
        s = CALL(cg_deck_cards(d, below(10) ? cards : NULL, below(2) ? 200 : below(60), below(10) ? &n : NULL));
        if (s != CG_OK && s != CG_BUFFER_TOO_SMALL)
            CHECK_UNTOUCHED(s, n);
        if (s != CG_OK)
            CHECK_UNTOUCHED(s, cards);
        break;
    }
    case 22: {
        cg_deck_iter it;
        int count = 0;
        ARM(it);
        s = CALL(cg_deck_iter_init(d, below(10) ? &it : NULL));
        CHECK_UNTOUCHED(s, it);
        if (s == CG_OK) {
            while (cg_deck_iter_next(&it, &card))
                count++;
            if ((size_t)count != deck_len(d))
                fail("the iterator's count is not the length", __LINE__, s);
        }
        if (cg_deck_iter_next(NULL, &card) != 0)
            fail("cg_deck_iter_next(NULL) is not 0", __LINE__, CG_OK);
        break;
    }
    case 23: {
        int v = cg_card_value(any_card());
        calls++;
        if (v != 0 && (v < 2 || v > 15 || v == 11))
            fail("cg_card_value out of the homework's scale", __LINE__, CG_OK);
        break;
    }
    case 24:
        ARM(card);
        s = CALL(cg_card_parse(any_text(), below(3), &card));
        CHECK_UNTOUCHED(s, card);
        break;
    default:
        ARM(buf);
        ARM(n);
        s = CALL(cg_card_format(any_card(), below(3), buf, below(2) ? sizeof buf : below(4), &n));
        if (s != CG_OK)
            CHECK_UNTOUCHED(s, buf);
        break;
    }
    trim(i);
}

/* Reads a lent view with the const deck functions. */
static void read_view(const cg_deck *view)
{
    char buf[700];
    size_t n;
    cg_deck_iter it;
    cg_card card;
    CALL(cg_deck_to_str(view, 0, buf, sizeof buf, &n));
    CALL(cg_deck_iter_init(view, &it));
    while (cg_deck_iter_next(&it, &card))
        ;
}

static void game_ops(void)
{
    int g = (int)below(2);
    const cg_deck *d = any_deck();
    const cg_deck *view;
    cg_status s;
    switch (below(12)) {
    case 0: {
        cg_war_result r;
        ARM(r);
        s = CALL(cg_war_play(d, &r));
        CHECK_UNTOUCHED(s, r);
        break;
    }
    case 1: {
        cg_game_result r;
        ARM(r);
        s = deck_len(d) <= 52 && below(4) == 0 ? CALL(cg_rolling_stone_play(d, &r))
                                               : CALL(cg_rolling_stone_play_within(d, below(3000), &r));
        CHECK_UNTOUCHED(s, r);
        break;
    }
    case 2: {
        cg_game_result r;
        ARM(r);
        s = deck_len(d) <= 52 && below(4) == 0 ? CALL(cg_scarabs_play(d, &r))
                                               : CALL(cg_scarabs_play_within(d, below(3000), &r));
        CHECK_UNTOUCHED(s, r);
        break;
    }
    case 3: {
        cg_war *w;
        ARM(w);
        s = CALL(cg_war_new(d, &w));
        CHECK_UNTOUCHED(s, w);
        if (s == CG_OK) {
            cg_war_free(wars[g]);
            wars[g] = w;
        }
        break;
    }
    case 4: {
        cg_rolling_stone *r;
        ARM(r);
        s = CALL(cg_rolling_stone_new(d, &r));
        CHECK_UNTOUCHED(s, r);
        if (s == CG_OK) {
            cg_rolling_stone_free(stones[g]);
            stones[g] = r;
        }
        break;
    }
    case 5: {
        cg_scarabs *c;
        ARM(c);
        s = CALL(cg_scarabs_new(d, &c));
        CHECK_UNTOUCHED(s, c);
        if (s == CG_OK) {
            cg_scarabs_free(scarabs[g]);
            scarabs[g] = c;
        }
        break;
    }
    case 6: {
        cg_war_hand h;
        cg_war_result r;
        cg_war *w = below(8) ? wars[g] : NULL;
        ARM(h);
        s = CALL(cg_war_step(w, &h));
        CHECK_UNTOUCHED(s, h);
        ARM(view);
        s = CALL(cg_war_pile(w, below(4), &view));
        CHECK_UNTOUCHED(s, view);
        if (s == CG_OK)
            read_view(view);
        ARM(r);
        s = CALL(cg_war_outcome(w, &r));
        CHECK_UNTOUCHED(s, r);
        break;
    }
    case 7: {
        cg_rolling_stone_turn t;
        cg_game_result r;
        cg_rolling_stone *game = below(8) ? stones[g] : NULL;
        ARM(t);
        s = CALL(cg_rolling_stone_step(game, &t));
        CHECK_UNTOUCHED(s, t);
        ARM(view);
        s = CALL(cg_rolling_stone_hand(game, below(6), below(3) ? below(4) : (uint32_t)next(), &view));
        CHECK_UNTOUCHED(s, view);
        if (s == CG_OK)
            read_view(view);
        ARM(view);
        s = CALL(cg_rolling_stone_table(game, &view));
        CHECK_UNTOUCHED(s, view);
        if (s == CG_OK)
            read_view(view);
        ARM(r);
        s = CALL(cg_rolling_stone_winner(game, &r));
        CHECK_UNTOUCHED(s, r);
        break;
    }
    case 8: {
        cg_scarabs_turn t;
        cg_game_result r;
        cg_scarabs *game = below(8) ? scarabs[g] : NULL;
        ARM(t);
        s = CALL(cg_scarabs_step(game, &t));
        CHECK_UNTOUCHED(s, t);
        ARM(view);
        s = CALL(cg_scarabs_pile(game, below(6), &view));
        CHECK_UNTOUCHED(s, view);
        if (s == CG_OK)
            read_view(view);
        ARM(view);
        s = CALL(cg_scarabs_table(game, &view));
        CHECK_UNTOUCHED(s, view);
        if (s == CG_OK)
            read_view(view);
        ARM(r);
        s = CALL(cg_scarabs_winner(game, &r));
        CHECK_UNTOUCHED(s, r);
        break;
    }
    case 9: {
        char out[256];
        size_t n;
        ARM(out);
        ARM(n);
        s = CALL(cg_homework_run(any_text(), out, below(2) ? sizeof out : below(4), &n));
        if (s != CG_OK)
            CHECK_UNTOUCHED(s, out);
        break;
    }
    case 10: {
        static char trace[1 << 16];
        size_t n;
        ARM(n);
        s = CALL(cg_homework_trace(any_text(), below(10) ? trace : NULL, below(2) ? sizeof trace : below(8), &n));
        (void)s;
        break;
    }
    default: {
        FILE *sink = fopen("/dev/null", "w");
        CALL(cg_homework_trace_file(any_text(), below(8) ? sink : NULL));
        if (sink != NULL)
            fclose(sink);
        break;
    }
    }
}

static void bot_ops(void)
{
    int b = (int)below(2);
    cg_status s;
    switch (below(10)) {
    case 0: {
        cg_durak_bot *bot;
        ARM(bot);
        s = CALL(cg_durak_bot_new(next(), below(10) ? &bot : NULL));
        if (s == CG_OK) {
            cg_durak_bot_free(bots[b]);
            bots[b] = bot;
        }
        break;
    }
    case 1:
        CALL(cg_durak_bot_feed(below(8) ? bots[b] : NULL, any_text()));
        break;
    case 2: {
        char buf[16];
        size_t n;
        ARM(buf);
        s = CALL(cg_durak_bot_answer(below(8) ? bots[b] : NULL, any_text(), buf, below(2) ? sizeof buf : below(4), &n));
        if (s != CG_OK)
            CHECK_UNTOUCHED(s, buf);
        break;
    }
    case 8:
        CALL(cg_durak_bot_set(below(8) ? bots[b] : NULL, below(2) ? "max_samples=8, hard_share=100" : any_text()));
        break;
    case 3: {
        uint8_t pits[7];
        int out, k;
        for (k = 0; k < 7; k++)
            pits[k] = (uint8_t)(below(8) ? below(4) : below(256));
        ARM(out);
        s = below(2) ? CALL(cg_ioiwari_best_move(below(10) ? pits : NULL, &out))
                     : CALL(cg_ioiwari_value(below(10) ? pits : NULL, &out));
        CHECK_UNTOUCHED(s, out);
        /* Now and then the solver's table is released (the next call
         * rebuilds it). */
        if (below(16) == 0)
            cg_ioiwari_release();
        break;
    }
    case 4: {
        cg_coup_memory *memory;
        ARM(memory);
        s = CALL(cg_coup_memory_new(below(10) ? &memory : NULL));
        if (s == CG_OK) {
            cg_coup_memory_free(memories[b]);
            memories[b] = memory;
        }
        break;
    }
    case 5:
        CALL(cg_coup_memory_load(below(8) ? memories[b] : NULL,
                                 below(3) ? "coup-memory v16\nX 1 0 -\n" : any_text()));
        break;
    case 6: {
        char buf[256];
        size_t n;
        ARM(buf);
        s = CALL(cg_coup_memory_text(below(8) ? memories[b] : NULL, buf,
                                     below(2) ? sizeof buf : below(4), &n));
        if (s != CG_OK)
            CHECK_UNTOUCHED(s, buf);
        break;
    }
    case 7: {
        int settled;
        CALL(cg_coup_memory_update(below(8) ? memories[b] : NULL, "A", below(4) ? "B" : any_text(),
                                   below(2) ? "A_B_0_0.txt" : any_text(),
                                   below(2) ? "I\nI\nI\nI\nAsq=" : any_text(),
                                   below(2) ? &settled : NULL));
        break;
    }
    default: {
        const char *legal[4];
        char answer[128], keep[8];
        size_t alen, klen, count = below(5), k;
        static const char *const strategies[] = {"calculator", "random", "honest", "nope", NULL};
        for (k = 0; k < count; k++) {
            const char *t = any_text();
            legal[k] = t == text ? "T\n" : t; /* `text` is reused: keep strings distinct */
        }
        ARM(answer);
        ARM(keep);
        if (below(2))
            s = CALL(cg_coup_decide(strategies[below(5)], below(4) ? "I\nFp\n" : any_text(),
                                    (int64_t)below(14), (int64_t)next(),
                                    below(4) ? "$^" : any_text(), count ? legal : NULL, count,
                                    answer, below(2) ? sizeof answer : below(3), &alen, keep,
                                    sizeof keep, &klen));
        else
            s = CALL(cg_coup_decide_remembering(
                below(4) ? memories[b] : NULL, below(8) ? "B" : NULL,
                below(8) ? "A_B_0_0.txt" : NULL, strategies[below(5)],
                below(4) ? "I\nFp\n" : any_text(), (int64_t)below(14), (int64_t)next(),
                below(4) ? "$^" : any_text(), count ? legal : NULL, count, answer,
                below(2) ? sizeof answer : below(3), &alen, keep, sizeof keep, &klen));
        if (s != CG_OK) {
            CHECK_UNTOUCHED(s, answer);
        } else {
            int found = 0;
            for (k = 0; k < count; k++)
                found |= legal[k] != NULL && strcmp(legal[k], answer) == 0;
            if (!found)
                fail("cg_coup_decide answered outside legal", __LINE__, s);
        }
        break;
    }
    }
}

static void boundary_ops(void)
{
    char buf[300];
    size_t n;
    cg_status s;
    const char *m = cg_status_str((int)next());
    calls++;
    if (m == NULL)
        fail("cg_status_str returned NULL", __LINE__, CG_OK);
    if (cg_version() == NULL)
        fail("cg_version returned NULL", __LINE__, CG_OK);
    ARM(buf);
    s = CALL(cg_last_error_message(below(10) ? buf : NULL, below(2) ? sizeof buf : below(4), &n));
    if (s != CG_OK)
        CHECK_UNTOUCHED(s, buf);
#ifdef CG_DEBUG_PANIC
    if (below(50) == 0 && cg_debug_panic() != CG_PANIC)
        fail("cg_debug_panic did not return CG_PANIC", __LINE__, CG_OK);
#endif
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3.0;
    unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
    clock_t start = clock();
    int i;
    state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (i = 0; i < POOL; i++)
        CALL(cg_deck_new(&decks[i]));
    while ((double)(clock() - start) / CLOCKS_PER_SEC < seconds) {
        switch (below(10)) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4:
            deck_ops();
            break;
        case 5:
        case 6:
        case 7:
            game_ops();
            break;
        case 8:
            bot_ops();
            break;
        default:
            boundary_ops();
            break;
        }
    }
    for (i = 0; i < POOL; i++)
        cg_deck_free(decks[i]);
    for (i = 0; i < 2; i++) {
        cg_war_free(wars[i]);
        cg_rolling_stone_free(stones[i]);
        cg_scarabs_free(scarabs[i]);
        cg_durak_bot_free(bots[i]);
        cg_coup_memory_free(memories[i]);
    }
    printf("fuzz_abi: seed %lu, %.1f s, %lu calls, %lu failures\n", seed, seconds, calls, failures);
    return failures == 0 ? 0 : 1;
}
