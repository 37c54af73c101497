/* The C ABI decides as the library does, memory included: reads a transcript
 * of Coup decisions (written by tests/c_harnesses.rs from whole games of the
 * library's `coup::decide` with a memory; tests/coup_agree.rs checks that
 * `coup-bot` answers every such call the same) and answers each position
 * again through cg_coup_memory_load + cg_coup_decide_remembering.
 *
 * usage: agree_coup TRANSCRIPT
 * A record is a sequence of fields, each written `LENGTH:BYTES\n`: the memory
 * text before the call, the opponent's name, the game's file name, the
 * history, the opponent's coins, my coins, my cards, the number of legal
 * answers, each legal answer, the expected answer and the expected kept cards.
 * Prints `agree_coup: N decisions, M failed`; exits 1 on any difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardgames.h"

/* Reads one field into a new NUL-terminated string; NULL at the end of the
 * file or on a malformed field. */
static char *read_field(FILE *f) {
    unsigned long len = 0;
    char *s;
    if (fscanf(f, "%lu:", &len) != 1) {
        return NULL;
    }
    s = malloc(len + 1);
    if (s == NULL || fread(s, 1, len, f) != len) {
        free(s);
        return NULL;
    }
    s[len] = '\0';
    return s;
}

int main(int argc, char **argv) {
    FILE *f;
    unsigned long decisions = 0, failed = 0;
    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: agree_coup TRANSCRIPT (a readable file)\n");
        return 2;
    }
    for (;;) {
        char *memory_text = read_field(f);
        char *field[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
        char *count, *answer_want = NULL, *keep_want = NULL;
        char **legal = NULL;
        char answer[64], keep[16];
        size_t n = 0, i, answer_len = 0, keep_len = 0;
        cg_coup_memory *memory = NULL;
        enum cg_status status;
        if (memory_text == NULL) {
            break;
        }
        /* opponent, game, history, opponent's coins, my coins, my cards */
        for (i = 0; i < 6; i++) {
            field[i] = read_field(f);
        }
        count = read_field(f);
        if (count != NULL) {
            n = strtoul(count, NULL, 10);
            legal = calloc(n + 1, sizeof *legal);
            for (i = 0; legal != NULL && i < n; i++) {
                legal[i] = read_field(f);
            }
            answer_want = read_field(f);
            keep_want = read_field(f);
        }
        if (field[5] == NULL || legal == NULL || answer_want == NULL || keep_want == NULL) {
            fprintf(stderr, "agree_coup: malformed record %lu\n", decisions + 1);
            return 2;
        }
        decisions++;
        if (cg_coup_memory_new(&memory) != CG_OK || cg_coup_memory_load(memory, memory_text) != CG_OK) {
            printf("decision %lu: the memory text does not load\n", decisions);
            failed++;
        } else {
            answer[0] = '\0';
            keep[0] = '\0';
            status = cg_coup_decide_remembering(
                memory, field[0], field[1], NULL, field[2], strtol(field[3], NULL, 10),
                strtol(field[4], NULL, 10), field[5], (const char *const *)legal, n, answer,
                sizeof answer, &answer_len, keep, sizeof keep, &keep_len);
            if (status != CG_OK || strcmp(answer, answer_want) != 0 || strcmp(keep, keep_want) != 0) {
                printf("decision %lu (game %s, history %lu bytes): C answered %d \"%s\" keep \"%s\", "
                       "the library \"%s\" keep \"%s\"\n",
                       decisions, field[1], (unsigned long)strlen(field[2]), (int)status,
                       status == CG_OK ? answer : "", status == CG_OK ? keep : "", answer_want,
                       keep_want);
                failed++;
            }
        }
        cg_coup_memory_free(memory);
        for (i = 0; i < n; i++) {
            free(legal[i]);
        }
        free(legal);
        for (i = 0; i < 6; i++) {
            free(field[i]);
        }
        free(memory_text);
        free(count);
        free(answer_want);
        free(keep_want);
    }
    fclose(f);
    printf("agree_coup: %lu decisions, %lu failed\n", decisions, failed);
    return failed == 0 && decisions > 0 ? 0 : 1;
}
