/* The C ABI decides Durak as the library does: reads transcripts of the deep
 * bot's seats (written by tests/c_harnesses.rs from games played in process,
 * every answer checked there against `durak::bot::decide`) and answers every
 * command again through cg_durak_bot_new, cg_durak_bot_set, cg_durak_bot_feed
 * and cg_durak_bot_answer.
 *
 * usage: agree_durak TRANSCRIPT
 * Lines: `bot SEED SETTINGS` starts a new bot (SETTINGS as durak-bot --deep
 * reads them); then the seat's lines as the server sent them, each command
 * (MOVE, BEAT, ADD) followed by `> ANSWER`, the library's answer.
 * Prints `agree_durak: N decisions, M failed`; exits 1 on any difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardgames.h"

int main(int argc, char **argv) {
    FILE *f;
    char line[256], want[256], answer[8];
    unsigned long bots = 0, decisions = 0, failed = 0;
    cg_durak_bot *bot = NULL;
    enum cg_status status;
    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: agree_durak TRANSCRIPT (a readable file)\n");
        return 2;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "bot ", 4) == 0) {
            char *end;
            unsigned long long seed = strtoull(line + 4, &end, 10);
            cg_durak_bot_free(bot);
            bot = NULL;
            bots++;
            if (cg_durak_bot_new(seed, &bot) != CG_OK ||
                cg_durak_bot_set(bot, *end == ' ' ? end + 1 : end) != CG_OK) {
                fprintf(stderr, "agree_durak: bot %lu: cannot make it as \"%s\"\n", bots, line);
                return 2;
            }
        } else if (bot == NULL) {
            fprintf(stderr, "agree_durak: a line before the first bot: \"%s\"\n", line);
            return 2;
        } else if (strcmp(line, "MOVE") == 0 || strcmp(line, "BEAT") == 0 || strcmp(line, "ADD") == 0) {
            if (fgets(want, sizeof want, f) == NULL || strncmp(want, "> ", 2) != 0) {
                fprintf(stderr, "agree_durak: bot %lu: no answer after %s\n", bots, line);
                return 2;
            }
            want[strcspn(want, "\n")] = '\0';
            decisions++;
            answer[0] = '\0';
            status = cg_durak_bot_answer(bot, line, answer, sizeof answer, NULL);
            if (status != CG_OK || strcmp(answer, want + 2) != 0) {
                printf("decision %lu (bot %lu, %s): C answered %d \"%s\", the library \"%s\"\n",
                       decisions, bots, line, (int)status, answer, want + 2);
                failed++;
            }
        } else if ((status = cg_durak_bot_feed(bot, line)) != CG_OK) {
            printf("bot %lu: \"%s\" not fed (status %d)\n", bots, line, (int)status);
            failed++;
        }
    }
    cg_durak_bot_free(bot);
    fclose(f);
    printf("agree_durak: %lu decisions, %lu failed\n", decisions, failed);
    return failed == 0 && decisions > 0 ? 0 : 1;
}
