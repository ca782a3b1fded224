/* The supported-ops table: every definition of the op table declares its
 * types, names are unique, and the README's table is exactly what
 * `tinyarena ops --markdown` prints (tools/ops_table.c), so the README
 * cannot drift from the code. */
#include <stdlib.h>
#include <string.h>

#include "ops_table.h"
#include "testutil.h"
#include "tinyarena/ops.h"

static char *generated(void) {
    FILE *f = tmpfile();
    if (!f) return NULL;
    ops_table_write(f, true);
    long n = ftell(f);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    rewind(f);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = 0;
    fclose(f);
    return buf;
}

int main(void) {
    /* every definition declares its types; names are unique */
    for (uint32_t i = 0; i < ta_op_list_all.count; i++) {
        const ta_op_def *d = ta_op_list_all.defs[i];
        CHECK(ta_op_def_types(d) != 0);
        if (!ta_op_def_types(d)) fprintf(stderr, "%s declares no types\n", ta_op_def_name(d));
        for (uint32_t j = 0; j < i; j++) CHECK(strcmp(ta_op_def_name(d), ta_op_def_name(ta_op_list_all.defs[j])) != 0);
    }
    CHECK(ta_op_def_types(NULL) == 0);
    /* TFLM's list is sorted and unique (the table's order relies on it) */
    size_t n_tflm = 0;
    const char *const *tflm = ops_table_tflm_builtins(&n_tflm);
    CHECK(n_tflm >= 90);
    for (size_t i = 1; i < n_tflm; i++) CHECK(strcmp(tflm[i - 1], tflm[i]) < 0);

    char *gen = generated();
    CHECK(gen != NULL);
    /* one row per op of either list */
    size_t rows = 0;
    for (const char *p = gen; gen && (p = strstr(p, "\n| ")); p++) rows++;
    CHECK(rows >= n_tflm);
    CHECK(gen && strstr(gen, "| RELU | float32, int8, int16 | yes |") != NULL);
    CHECK(gen && strstr(gen, "| RESHAPE | any | yes |") != NULL);

    const char *src = getenv("TINYARENA_SRC");
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", src ? src : ".");
    char *readme = (char *)ta_test_read_file(path, NULL);
    CHECK(readme != NULL);
    if (readme && gen) {
        const char *begin = strstr(readme, "<!-- ops-table:begin");
        const char *end = begin ? strstr(begin, "<!-- ops-table:end -->") : NULL;
        CHECK(begin && end);
        if (begin && end) {
            begin = strchr(begin, '\n');
            begin = begin ? begin + 1 : end;
            const size_t len = (size_t)(end - begin);
            const int same = len == strlen(gen) && memcmp(begin, gen, len) == 0;
            CHECK(same);
            if (!same)
                fprintf(stderr, "README.md's op table differs from `tinyarena ops --markdown`: regenerate it between "
                                "the ops-table markers\n");
        }
    }
    free(readme);
    free(gen);
    return ta_test_finish("test_ops_table");
}
