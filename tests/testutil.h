/* Minimal test harness shared by every test executable. */
#ifndef TA_TESTUTIL_H
#define TA_TESTUTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

extern int ta_test_failures;
extern int ta_test_checks;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        ta_test_checks++;                                                            \
        if (!(cond)) {                                                               \
            ta_test_failures++;                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_EQ_U(a, b)                                                                     \
    do {                                                                                     \
        unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b);     \
        ta_test_checks++;                                                                    \
        if (va_ != vb_) {                                                                    \
            ta_test_failures++;                                                              \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %llu, %s = %llu\n", __FILE__,     \
                    __LINE__, #a, va_, #b, vb_);                                             \
        }                                                                                    \
    } while (0)

/* Directory of the shared data, or NULL.  When missing: under CI=true the
 * test fails (returns NULL and counts a failure); otherwise it prints a
 * SKIP line naming `what` and returns NULL. */
const char *ta_test_data_dir(const char *what);
/* Reads a whole file (malloc'ed; caller frees).  NULL on failure. */
unsigned char *ta_test_read_file(const char *path, size_t *len);
/* Prints a summary and returns the process exit code. */
int ta_test_finish(const char *name);
#endif
