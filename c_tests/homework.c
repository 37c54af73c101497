/* The homework as a C coursework program on the library's C API: reads the
 * file `in` of the current directory, writes `out` (see README.md). On bad
 * input it prints one line on stderr, exits 1 and writes no `out`. */
#include <stdio.h>
#include <stdlib.h>

#include "cardgames.h"

/* Reads a whole file into a NUL-terminated buffer the caller frees. */
static char *read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0;
    size_t cap = 0;
    size_t got;

    if (file == NULL)
        return NULL;
    do {
        if (cap - len < 4096) {
            char *bigger = realloc(text, cap * 2 + 4096);
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

int main(void)
{
    char out[256];
    size_t written = 0;
    cg_status status;
    FILE *file;
    char *in = read_file("in");

    if (in == NULL) {
        fprintf(stderr, "homework: cannot read in\n");
        return 1;
    }
    status = cg_homework_run(in, out, sizeof out, &written);
    free(in);
    if (status != CG_OK) {
        /* The detail (e.g. `in:3: unknown shuffle "x"`), else the status. */
        char detail[512];
        size_t needed = 0;
        if (cg_last_error_message(detail, sizeof detail, &needed) != CG_OK || detail[0] == '\0')
            fprintf(stderr, "homework: %s\n", cg_status_str(status));
        else
            fprintf(stderr, "homework: %s\n", detail);
        return 1;
    }
    file = fopen("out", "wb");
    if (file == NULL || fwrite(out, 1, written, file) != written) {
        fprintf(stderr, "homework: cannot write out\n");
        if (file != NULL)
            fclose(file);
        return 1;
    }
    return fclose(file) == 0 ? 0 : 1;
}
