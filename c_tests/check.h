/* Minimal checks for the C harnesses: each prints "N passed, N failed" at the
 * end (check_report) and exits non-zero on any failure. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed;
static int check_failed;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

/* A call that must return the given cg_status. */
#define CHECK_STATUS(call, expected)                                             \
    do {                                                                         \
        cg_status got_ = (call);                                                 \
        if (got_ == (expected)) {                                                \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s\n", __FILE__, \
                    __LINE__, #call, (int)got_, cg_status_str((int)got_), #expected); \
        }                                                                        \
    } while (0)

#define CHECK_STR(got, want) CHECK(strcmp((got), (want)) == 0)

static int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

#endif
