/* FlexBuffer reader (src/tflite/flexbuf.c): the audio preprocessor's real
 * custom options decode to TFLM's values; every value kind reads back;
 * malformed buffers -- every truncation, every single-byte change of the real
 * options, seeded random bytes, self-referencing and aliasing offsets -- give
 * TA_OK or TA_E_MALFORMED and never a read outside the buffer (ASan). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "testutil.h"
#include "tflite/flexbuf.h"

/* Custom options of ops in tflm/audio_preprocessor_int8.tflite. */
static const uint8_t k_window[] = {0x73, 0x68, 0x69, 0x66, 0x74, 0x00, 0x01, 0x07, 0x01, 0x01,
                                   0x01, 0x0c, 0x04, 0x02, 0x24, 0x01};
static const uint8_t k_empty[] = {0x00, 0x00, 0x01, 0x00, 0x00, 0x24, 0x01};
static const uint8_t k_rfft[] = {0x54, 0x00, 0x66, 0x66, 0x74, 0x5f, 0x6c, 0x65, 0x6e, 0x67, 0x74,
                                 0x68, 0x00, 0x02, 0x0e, 0x0d, 0x02, 0x00, 0x01, 0x00, 0x02, 0x00,
                                 0x07, 0x00, 0x00, 0x02, 0x05, 0x05, 0x06, 0x25, 0x01};
static const uint8_t k_energy[] = {0x65, 0x6e, 0x64, 0x5f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x00, 0x73, 0x74, 0x61, 0x72,
                                   0x74, 0x5f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x00, 0x02, 0x17, 0x0e, 0x00, 0x03, 0x00,
                                   0x01, 0x00, 0x02, 0x00, 0xf1, 0x00, 0x05, 0x00, 0x05, 0x05, 0x06, 0x25, 0x01};
static const uint8_t k_specsub[] = {
    0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74, 0x65, 0x5f, 0x6f, 0x6e, 0x65, 0x5f, 0x6d, 0x69, 0x6e, 0x75, 0x73,
    0x5f, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74,
    0x65, 0x5f, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x63, 0x6c, 0x61, 0x6d, 0x70, 0x69, 0x6e,
    0x67, 0x00, 0x6d, 0x69, 0x6e, 0x5f, 0x73, 0x69, 0x67, 0x6e, 0x61, 0x6c, 0x5f, 0x72, 0x65, 0x6d, 0x61, 0x69, 0x6e,
    0x69, 0x6e, 0x67, 0x00, 0x6e, 0x75, 0x6d, 0x5f, 0x63, 0x68, 0x61, 0x6e, 0x6e, 0x65, 0x6c, 0x73, 0x00, 0x6f, 0x6e,
    0x65, 0x5f, 0x6d, 0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x73,
    0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x5f,
    0x62, 0x69, 0x74, 0x73, 0x00, 0x73, 0x70, 0x65, 0x63, 0x74, 0x72, 0x61, 0x6c, 0x5f, 0x73, 0x75, 0x62, 0x74, 0x72,
    0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00, 0x09, 0xa5, 0x88, 0x75, 0x6d, 0x59, 0x4d,
    0x3a, 0x31, 0x23, 0x09, 0x00, 0x01, 0x00, 0x09, 0x00, 0x29, 0x3c, 0xd7, 0x03, 0x00, 0x00, 0x33, 0x03, 0x28, 0x00,
    0x67, 0x3e, 0x99, 0x01, 0x0a, 0x00, 0x0e, 0x00, 0x05, 0x05, 0x69, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x1b, 0x25,
    0x01};

/* An untyped vector [INT -5, UINT 200, BOOL true] in width 1. */
static const uint8_t k_vec[] = {0x03, 0xfb, 0xc8, 0x01, 0x04, 0x08, 0x68, 0x06, 0x28, 0x01};
/* The string "hi". */
static const uint8_t k_str[] = {0x02, 0x68, 0x69, 0x00, 0x03, 0x14, 0x01};
/* A typed VECTOR_INT of width 2 [-2, 300] and an INDIRECT_UINT 70000 (width 4)
 * in a vector of width 1. */
static const uint8_t k_typed[] = {
    0x02, 0x00,             /* 0: size 2 (width 2) */
    0xfe, 0xff, 0x2c, 0x01, /* 2: -2, 300 */
    0x70, 0x11, 0x01, 0x00, /* 6: 70000 */
    0x02,                   /* 10: size of the outer vector */
    0x09, 0x06,             /* 11: offsets to 2 and 6 */
    0x2d, 0x1e,             /* 13: VECTOR_INT w16, INDIRECT_UINT w32 */
    0x04, 0x28, 0x01};      /* 15: root -> 11, VECTOR w8, width 1 */

static int64_t get_int(const ta_flex_ref *map, const char *key) {
    ta_flex_ref v;
    int64_t x = -999999;
    CHECK(ta_flex_map_find(map, key, &v) == TA_OK);
    CHECK(ta_flex_int(&v, &x) == TA_OK);
    return x;
}

static void test_real_options(void) {
    ta_flex_ref m;
    ta_diag d;
    CHECK(ta_flex_root(k_window, sizeof k_window, &m, &d) == TA_OK);
    CHECK(m.type == TA_FLEX_MAP && ta_flex_size(&m) == 1);
    CHECK(get_int(&m, "shift") == 12);
    ta_flex_ref v;
    CHECK(ta_flex_map_find(&m, "shif", &v) == TA_E_NOT_FOUND);
    CHECK(ta_flex_map_find(&m, "shifts", &v) == TA_E_NOT_FOUND);
    const char *key = NULL;
    CHECK(ta_flex_key_at(&m, 0, &key) == TA_OK && !strcmp(key, "shift"));
    CHECK(ta_flex_key_at(&m, 1, &key) == TA_E_NOT_FOUND);

    CHECK(ta_flex_root(k_empty, sizeof k_empty, &m, &d) == TA_OK);
    CHECK(m.type == TA_FLEX_MAP && ta_flex_size(&m) == 0);
    CHECK(ta_flex_map_find(&m, "anything", &v) == TA_E_NOT_FOUND);

    CHECK(ta_flex_root(k_rfft, sizeof k_rfft, &m, &d) == TA_OK);
    CHECK(m.width == 2 && get_int(&m, "T") == 7 && get_int(&m, "fft_length") == 512);

    CHECK(ta_flex_root(k_energy, sizeof k_energy, &m, &d) == TA_OK);
    CHECK(get_int(&m, "start_index") == 5 && get_int(&m, "end_index") == 241);

    CHECK(ta_flex_root(k_specsub, sizeof k_specsub, &m, &d) == TA_OK);
    CHECK(ta_flex_size(&m) == 9);
    /* the values TFLM's FlexbufferWrapper reads for micro_speech's front end */
    CHECK(get_int(&m, "num_channels") == 40);
    CHECK(get_int(&m, "smoothing") == 409);          /* 0.025 * 2^14: even channels */
    CHECK(get_int(&m, "one_minus_smoothing") == 15975);
    CHECK(get_int(&m, "alternate_smoothing") == 983); /* 0.06 * 2^14: odd channels */
    CHECK(get_int(&m, "alternate_one_minus_smoothing") == 15401);
    CHECK(get_int(&m, "min_signal_remaining") == 819);
    CHECK(get_int(&m, "smoothing_bits") == 10);
    CHECK(get_int(&m, "spectral_subtraction_bits") == 14);
    CHECK(ta_flex_map_find(&m, "clamping", &v) == TA_OK && v.type == TA_FLEX_BOOL);
    CHECK(get_int(&m, "clamping") == 0);
    /* keys come back sorted, as the format stores them */
    const char *prev = "";
    for (size_t i = 0; i < 9; i++) {
        CHECK(ta_flex_key_at(&m, i, &key) == TA_OK);
        CHECK(strcmp(prev, key) < 0);
        prev = key;
    }
}

static void test_value_kinds(void) {
    ta_flex_ref r, e;
    ta_diag d;
    int64_t x;
    CHECK(ta_flex_root(k_vec, sizeof k_vec, &r, &d) == TA_OK);
    CHECK(r.type == TA_FLEX_VECTOR && ta_flex_size(&r) == 3);
    CHECK(ta_flex_index(&r, 0, &e) == TA_OK && e.type == TA_FLEX_INT && ta_flex_int(&e, &x) == TA_OK && x == -5);
    CHECK(ta_flex_index(&r, 1, &e) == TA_OK && e.type == TA_FLEX_UINT && ta_flex_int(&e, &x) == TA_OK && x == 200);
    CHECK(ta_flex_index(&r, 2, &e) == TA_OK && e.type == TA_FLEX_BOOL && ta_flex_int(&e, &x) == TA_OK && x == 1);
    CHECK(ta_flex_index(&r, 3, &e) == TA_E_NOT_FOUND);
    CHECK(ta_flex_map_find(&r, "x", &e) == TA_E_MALFORMED); /* a vector is not a map */

    CHECK(ta_flex_root(k_str, sizeof k_str, &r, &d) == TA_OK);
    CHECK(r.type == TA_FLEX_STRING && ta_flex_size(&r) == 2 && !memcmp(r.buf + r.at, "hi", 3));
    CHECK(ta_flex_int(&r, &x) == TA_E_MALFORMED);
    uint8_t s2[sizeof k_str];
    memcpy(s2, k_str, sizeof s2);
    s2[3] = 'x'; /* the terminating NUL */
    CHECK(ta_flex_root(s2, sizeof s2, &r, &d) == TA_E_MALFORMED && strstr(d.msg, "NUL") != NULL);

    CHECK(ta_flex_root(k_typed, sizeof k_typed, &r, &d) == TA_OK);
    ta_flex_ref tv;
    CHECK(ta_flex_index(&r, 0, &tv) == TA_OK && tv.type == TA_FLEX_VECTOR_INT && tv.width == 2);
    CHECK(ta_flex_size(&tv) == 2);
    CHECK(ta_flex_index(&tv, 0, &e) == TA_OK && ta_flex_int(&e, &x) == TA_OK && x == -2);
    CHECK(ta_flex_index(&tv, 1, &e) == TA_OK && ta_flex_int(&e, &x) == TA_OK && x == 300);
    CHECK(ta_flex_index(&r, 1, &e) == TA_OK && e.type == TA_FLEX_INDIRECT_UINT);
    CHECK(ta_flex_int(&e, &x) == TA_OK && x == 70000);

    /* root problems are named */
    CHECK(ta_flex_root(k_vec, 2, &r, &d) == TA_E_MALFORMED);
    const uint8_t badw[] = {0x00, 0x04, 0x03};
    CHECK(ta_flex_root(badw, sizeof badw, &r, &d) == TA_E_MALFORMED && strstr(d.msg, "byte width") != NULL);
    const uint8_t badt[] = {0x00, 0xfc, 0x01}; /* type 63 */
    CHECK(ta_flex_root(badt, sizeof badt, &r, &d) == TA_E_MALFORMED && strstr(d.msg, "type") != NULL);
    const uint8_t before[] = {0x05, 0x28, 0x01}; /* vector 5 bytes before the buffer */
    CHECK(ta_flex_root(before, sizeof before, &r, &d) == TA_E_MALFORMED);
    CHECK(ta_flex_root(NULL, 3, &r, &d) == TA_E_INVALID_ARG);
}

/* Everything reachable, read; ASan catches a read outside the buffer. */
static volatile uint64_t g_sink;
static void walk(const ta_flex_ref *r, int depth) {
    if (depth > 40) return;
    int64_t x;
    if (ta_flex_int(r, &x) == TA_OK) g_sink += (uint64_t)x;
    const size_t n = ta_flex_size(r);
    for (size_t i = 0; i < n && i < 64; i++) {
        ta_flex_ref e;
        if (r->type == TA_FLEX_MAP) {
            const char *k;
            if (ta_flex_key_at(r, i, &k) == TA_OK) {
                g_sink += (unsigned char)k[0];
                ta_flex_map_find(r, k, &e);
            }
        }
        if (ta_flex_index(r, i, &e) == TA_OK) walk(&e, depth + 1);
    }
}

/* Verifies an exact-size heap copy (so ASan sees its end). */
static ta_status check_copy(const uint8_t *p, size_t n) {
    uint8_t *c = malloc(n ? n : 1);
    if (n) memcpy(c, p, n);
    ta_flex_ref r;
    ta_diag d;
    d.msg[0] = 0;
    ta_status st = ta_flex_root(c, n, &r, &d);
    CHECK(st == TA_OK || st == TA_E_MALFORMED);
    if (st) CHECK(d.msg[0] != 0 && strchr(d.msg, '\n') == NULL);
    else walk(&r, 0);
    free(c);
    return st;
}

static void test_malformed(void) {
    const struct {
        const uint8_t *p;
        size_t n;
    } k_all[] = {{k_window, sizeof k_window}, {k_empty, sizeof k_empty}, {k_rfft, sizeof k_rfft},
                 {k_energy, sizeof k_energy}, {k_specsub, sizeof k_specsub}, {k_vec, sizeof k_vec},
                 {k_str, sizeof k_str},       {k_typed, sizeof k_typed}};
    size_t refused = 0, tried = 0;
    for (size_t b = 0; b < sizeof k_all / sizeof k_all[0]; b++) {
        const uint8_t *p = k_all[b].p;
        const size_t n = k_all[b].n;
        CHECK(check_copy(p, n) == TA_OK);
        /* every truncation, from either end */
        for (size_t k = 0; k < n; k++) {
            refused += check_copy(p, k) != TA_OK;
            refused += check_copy(p + n - k, k) != TA_OK;
            tried += 2;
        }
        /* every byte changed in several ways */
        uint8_t *q = malloc(n);
        static const uint8_t k_xor[] = {0x01, 0x02, 0x04, 0x10, 0x80, 0xff};
        for (size_t i = 0; i < n; i++) {
            for (size_t x = 0; x < sizeof k_xor + 2; x++) {
                memcpy(q, p, n);
                q[i] = x < sizeof k_xor ? (uint8_t)(p[i] ^ k_xor[x]) : x == sizeof k_xor ? 0x00 : 0xff;
                refused += check_copy(q, n) != TA_OK;
                tried++;
            }
        }
        free(q);
    }
    printf("  %zu malformed variants of the real options: %zu refused, the rest read in bounds\n", tried, refused);
    CHECK(refused > tried / 4);
    /* seeded random buffers */
    uint64_t seed = 99;
    uint8_t buf[96];
    for (int it = 0; it < 20000; it++) {
        const size_t n = (size_t)(ta__rng_next(&seed) % sizeof buf);
        for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)ta__rng_next(&seed);
        if (n > 2 && (it & 1)) buf[n - 1] = (uint8_t)(1u << (ta__rng_next(&seed) % 4)); /* a plausible root width */
        check_copy(buf, n);
    }
}

static void test_limits(void) {
    ta_flex_ref r;
    ta_diag d;
    /* a vector whose only element points at the vector itself: depth limit */
    const uint8_t self[] = {0x01, 0x00, 0x28, 0x02, 0x28, 0x01};
    CHECK(ta_flex_root(self, sizeof self, &r, &d) == TA_E_MALFORMED);
    printf("  self-reference: %s\n", d.msg);
    /* 24 levels of vectors whose two elements both point at the level below:
     * 2^24 paths through 120 bytes stop at the work limit */
    uint8_t dag[8 + 24 * 5];
    size_t at = 0;
    dag[at++] = 0x00; /* level 0: an empty vector at byte 1 */
    size_t below = at;
    for (int lvl = 0; lvl < 24; lvl++) {
        dag[at++] = 0x02; /* size */
        const size_t e = at;
        dag[at++] = (uint8_t)(e - below);
        dag[at++] = (uint8_t)(e + 1 - below);
        dag[at++] = 0x28;
        dag[at++] = 0x28;
        below = e;
    }
    dag[at] = (uint8_t)(at - below);
    at++;
    dag[at++] = 0x28;
    dag[at++] = 0x01;
    CHECK(ta_flex_root(dag, at, &r, &d) == TA_E_MALFORMED);
    printf("  aliasing offsets: %s\n", d.msg);
    CHECK(strstr(d.msg, "work limit") != NULL || strstr(d.msg, "deeply") != NULL);
}

int main(void) {
    test_real_options();
    test_value_kinds();
    test_malformed();
    test_limits();
    return ta_test_finish("test_flexbuf");
}
