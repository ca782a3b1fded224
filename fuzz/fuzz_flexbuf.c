#define _POSIX_C_SOURCE 200809L
/*
 * libFuzzer target for the FlexBuffer reader (custom op options): verify,
 * then walk everything reachable -- every vector element, map key and value,
 * integer reads -- so ASan proves every access stays inside the input.
 * Built by scripts/fuzz.sh.  (A fuzz target may malloc.)
 *
 * Invariants (abort() = a finding): a failed verify gives a non-empty diag;
 * map keys are NUL-terminated inside the buffer; a map finds its own keys.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tflite/flexbuf.h"

static volatile unsigned sink;

static void require(int cond) {
    if (!cond) abort();
}

static void walk(const ta_flex_ref *r, int depth, unsigned *budget) {
    if (depth > 64 || !*budget) return;
    (*budget)--;
    int64_t v;
    if (ta_flex_int(r, &v) == TA_OK) sink += (unsigned)v;
    size_t n = ta_flex_size(r);
    for (size_t i = 0; i < n && i < 4096 && *budget; i++) {
        ta_flex_ref e;
        if (ta_flex_index(r, i, &e) == TA_OK) walk(&e, depth + 1, budget);
        const char *key;
        if (r->type == TA_FLEX_MAP && ta_flex_key_at(r, i, &key) == TA_OK) {
            require((const uint8_t *)key >= r->buf && (const uint8_t *)key < r->buf + r->len);
            size_t k = strnlen(key, (size_t)(r->buf + r->len - (const uint8_t *)key));
            require((const uint8_t *)key + k < r->buf + r->len);
            ta_flex_ref found;
            require(ta_flex_map_find(r, key, &found) == TA_OK);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* an exact-size heap copy so reads past the end are caught */
    uint8_t *buf = malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    ta_flex_ref root;
    ta_diag d;
    if (ta_flex_root(buf, size, &root, &d) == TA_OK) {
        unsigned budget = 100000;
        walk(&root, 0, &budget);
    } else {
        require(d.msg[0] != '\0');
    }
    free(buf);
    return 0;
}
