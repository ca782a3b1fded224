#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ta_test_failures = 0;
int ta_test_checks = 0;

const char *ta_test_data_dir(const char *what) {
    const char *d = getenv("TINYARENA_DATA");
    if (!d || !*d) d = "../shared";
    struct stat st;
    if (stat(d, &st) == 0 && S_ISDIR(st.st_mode)) return d;
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) {
        fprintf(stderr, "FAIL: shared data directory '%s' missing under CI (needed for %s)\n", d, what);
        ta_test_failures++;
        return NULL;
    }
    printf("SKIP: %s: shared data directory '%s' not found (set TINYARENA_DATA)\n", what, d);
    return NULL;
}

unsigned char *ta_test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    if (n < 0) { fclose(f); return NULL; }
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    if (!buf) { fclose(f); return NULL; }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); fclose(f); return NULL; }
    fclose(f);
    buf[n] = 0;
    if (len) *len = (size_t)n;
    return buf;
}

int ta_test_finish(const char *name) {
    printf("%s: %d checks, %d failures\n", name, ta_test_checks, ta_test_failures);
    return ta_test_failures ? 1 : 0;
}
