/*
 * The reader reads what TFLM reads (issue 15): a real model whose int64
 * zero-point vectors are moved to 4 mod 8 -- where converters may leave
 * them, and where TFLM reads them without complaint -- still opens, plans
 * to the same arena and runs to the same output bytes as the original.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tflite/fb.h"
#include "tflite/schema_ids.h"
#include "tinyarena/runtime.h"

/* Appends a copy of every non-empty zero-point vector of subgraph 0 at the
 * end of the file, its count at 0 mod 8 (so the int64 elements sit at
 * 4 mod 8), and points the field at it.  Returns the new bytes (malloc'ed,
 * 16-aligned) or NULL; *moved counts the vectors moved. */
static unsigned char *move_zero_points(const unsigned char *p, size_t len, size_t *out_len,
                                       unsigned *moved) {
    ta_fb fb;
    ta_fb_table root, sg, t, q;
    ta_fb_vec sgs, tensors, zp;
    bool present;
    *moved = 0;
    ta_fb_init(&fb, p, len, UINT64_MAX);
    if (!ta_fb_root(&fb, "TFL3", &root)) return NULL;
    if (!ta_fb_vector(&fb, &root, TFL_MODEL_SUBGRAPHS, 4, &sgs) || sgs.n < 1) return NULL;
    if (!ta_fb_vec_table(&fb, &sgs, 0, &sg)) return NULL;
    if (!ta_fb_vector(&fb, &sg, TFL_SUBGRAPH_TENSORS, 4, &tensors)) return NULL;
    /* worst case: every tensor's vector, plus padding */
    size_t cap = len + 16;
    for (uint32_t i = 0; i < tensors.n; i++) {
        if (!ta_fb_vec_table(&fb, &tensors, i, &t)) return NULL;
        if (!ta_fb_table_field(&fb, &t, TFL_TENSOR_QUANTIZATION, &q, &present)) return NULL;
        if (!present) continue;
        if (!ta_fb_vector(&fb, &q, TFL_QUANT_ZERO_POINT, 8, &zp)) return NULL;
        cap += 16 + 8 * (size_t)zp.n;
    }
    unsigned char *out = aligned_alloc(16, (cap + 15) & ~(size_t)15);
    if (!out) return NULL;
    memcpy(out, p, len);
    size_t n = len;
    for (uint32_t i = 0; i < tensors.n; i++) {
        ta_fb_vec_table(&fb, &tensors, i, &t);
        ta_fb_table_field(&fb, &t, TFL_TENSOR_QUANTIZATION, &q, &present);
        if (!present) continue;
        ta_fb_vector(&fb, &q, TFL_QUANT_ZERO_POINT, 8, &zp);
        if (zp.n == 0) continue;
        while (n % 8) out[n++] = 0;
        size_t vec = n;
        memcpy(out + n, p + zp.pos - 4, 4 + 8 * (size_t)zp.n);
        n += 4 + 8 * (size_t)zp.n;
        /* the field's uoffset, from the vtable entry of slot 3 */
        uint16_t off = ta_fb_ld16(p + q.vt + 4 + 2 * TFL_QUANT_ZERO_POINT);
        size_t fpos = q.pos + off;
        uint32_t u = (uint32_t)(vec - fpos);
        out[fpos] = (unsigned char)u;
        out[fpos + 1] = (unsigned char)(u >> 8);
        out[fpos + 2] = (unsigned char)(u >> 16);
        out[fpos + 3] = (unsigned char)(u >> 24);
        (*moved)++;
    }
    *out_len = n;
    return out;
}

typedef struct ran {
    ta_status st;
    size_t total, planned;
    unsigned char out[64];
    size_t out_bytes;
} ran;

/* Plans (greedy) and runs once with a fixed input pattern. */
static ran run_model(const unsigned char *bytes, size_t len) {
    ran r;
    memset(&r, 0, sizeof r);
    ta_runtime rt;
    ta_diag d;
    ta_runtime_options opt = ta_runtime_options_default();
    ta_runtime_use_strategy(&opt, "greedy");
    if ((r.st = ta_runtime_open(&rt, bytes, len, &opt, &d))) {
        fprintf(stderr, "open: %s\n", d.msg);
        return r;
    }
    size_t work = ta_runtime_work_bytes(&rt);
    void *wm = malloc(work);
    ta_arena_breakdown b;
    while ((r.st = ta_runtime_query(&rt, wm, work, &b, &d)) == TA_E_NO_MEMORY && b.work_bytes > work) {
        work = b.work_bytes;
        wm = realloc(wm, work);
    }
    void *arena = NULL;
    if (!r.st) {
        arena = malloc(b.total);
        r.st = ta_runtime_init(&rt, wm, work, arena, b.total, &d);
    }
    if (!r.st) {
        r.total = b.total;
        r.planned = b.planned;
        const ta_io *in = ta_runtime_input(&rt, 0);
        for (size_t k = 0; k < in->bytes; k++) ((unsigned char *)in->data)[k] = (unsigned char)(k * 37 + 11);
        r.st = ta_runtime_invoke(&rt, &d);
        const ta_io *o = ta_runtime_output(&rt, 0);
        r.out_bytes = o->bytes < sizeof r.out ? o->bytes : sizeof r.out;
        memcpy(r.out, o->data, r.out_bytes);
    }
    if (r.st) fprintf(stderr, "run: %s\n", d.msg);
    free(arena);
    free(wm);
    return r;
}

static void check_model(const char *dir, const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s", dir, rel);
    size_t len, len2;
    unsigned char *raw = ta_test_read_file(path, &len);
    CHECK(raw != NULL);
    if (!raw) return;
    unsigned char *p = aligned_alloc(16, (len + 15) & ~(size_t)15);
    memcpy(p, raw, len);
    free(raw);
    unsigned moved = 0;
    unsigned char *q = move_zero_points(p, len, &len2, &moved);
    CHECK(q != NULL && moved > 0);
    if (q) {
        ran a = run_model(p, len), b = run_model(q, len2);
        CHECK(a.st == TA_OK && b.st == TA_OK);
        CHECK_EQ_U(a.planned, b.planned);
        CHECK(a.out_bytes > 0 && a.out_bytes == b.out_bytes && memcmp(a.out, b.out, a.out_bytes) == 0);
        printf("%s: %u zero-point vectors moved to 4 mod 8: planned %zu bytes, output identical\n", rel,
               moved, b.planned);
    }
    free(q);
    free(p);
}

int main(void) {
    const char *dir = ta_test_data_dir("misaligned zero points in real models");
    if (dir) {
        check_model(dir, "tflm/hello_world_int8.tflite");
        check_model(dir, "tflm/keyword_scrambled.tflite");
    }
    return ta_test_finish("test_relaxed");
}
