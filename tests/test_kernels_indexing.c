/* Kernels of the indexing, shape and reduction ops (issue 18 part B:
 * split.c, gather.c, fill.c, space_batch.c, mirror_pad.c, reduce.c,
 * add_n.c) on seeded random shapes, each against a reference written from
 * the op's definition (not from the kernel's loops): what the golden cases
 * in ../shared do not reach -- GATHER's batch_dims, every axis, 3 to 5
 * dims, both mirror modes at their widest paddings, ties. */
#include <stdlib.h>
#include <string.h>

#include "tinyarena/kernels.h"
#ifdef TINYARENA_GRAPH_H
#error "kernels.h includes graph.h: kernels need only tinyarena/types.h"
#endif
#include "common/util.h"
#include "kernel_test.h"
#include "testutil.h"

/* Row-major offset of idx in shape. */
static int64_t offset_of(int rank, const int32_t *shape, const int32_t *idx) {
    int64_t o = 0;
    for (int d = 0; d < rank; d++) o = o * shape[d] + idx[d];
    return o;
}

/* Advances idx through shape; false after the last index. */
static bool next_index(int rank, const int32_t *shape, int32_t *idx) {
    for (int d = rank - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) return true;
        idx[d] = 0;
    }
    return false;
}

/* GATHER: out[b, o, i, k] = params[b, o, idx[b, i], k] with batch_dims 1. */
static void test_gather(void) {
    for (int rep = 0; rep < 20; rep++) {
        const int32_t B = rnd(1, 3), O = rnd(1, 3), A = rnd(1, 5), N = rnd(1, 4), K = rnd(1, 3);
        int32_t params[3 * 3 * 5 * 3], idx[3 * 4], out[3 * 3 * 4 * 3];
        for (int i = 0; i < B * O * A * K; i++) params[i] = rnd(-1000, 1000);
        for (int i = 0; i < B * N; i++) idx[i] = rnd(0, A - 1);
        ta_gather_params p = {.batch = B, .outer = O, .n_idx = N, .inner_bytes = K * 4, .axis_size = A, .idx_size = 4};
        CHECK(ta_kernel_gather(&p, params, idx, out) == TA_OK);
        for (int b = 0; b < B; b++)
            for (int o = 0; o < O; o++)
                for (int i = 0; i < N; i++)
                    for (int k = 0; k < K; k++)
                        CHECK(out[((b * O + o) * N + i) * K + k] == params[((b * O + o) * A + idx[b * N + i]) * K + k]);
        idx[rnd(0, B * N - 1)] = rnd(0, 1) ? A : -1; /* one index out of range: refused */
        CHECK(ta_kernel_gather(&p, params, idx, out) == TA_E_OUT_OF_RANGE);
    }
    /* GATHER_ND: rows of [5, 4, 3] by (i, j) pairs; the flat position only */
    int8_t pr[60], o8[6];
    for (int i = 0; i < 60; i++) pr[i] = (int8_t)i;
    int64_t ix[4] = {4, 3, 0, 5}; /* (0, 5) lies past dim 1 but inside: row 1, 1 */
    ta_gather_nd_params q = {.n_slices = 2, .slice_elems = 3, .total_elems = 60, .strides = {12, 3}, .nd = 2,
                             .elem_size = 1, .idx_size = 8};
    CHECK(ta_kernel_gather_nd(&q, pr, ix, o8) == TA_OK);
    CHECK(o8[0] == 57 && o8[2] == 59 && o8[3] == 15 && o8[5] == 17);
    ix[0] = 5;
    CHECK(ta_kernel_gather_nd(&q, pr, ix, o8) == TA_E_OUT_OF_RANGE);
    ix[0] = INT64_MAX; /* no overflow on the way to the check */
    CHECK(ta_kernel_gather_nd(&q, pr, ix, o8) == TA_E_OUT_OF_RANGE);
}

/* SPLIT then CONCATENATION (PACK's kernel) along every axis of 3-D to 5-D
 * shapes gives the input back; each part equals the slice it names. */
static void test_split_concat(void) {
    for (int rep = 0; rep < 30; rep++) {
        const int rank = rnd(3, 5), axis = rnd(0, rank - 1), parts = rnd(1, 4);
        int32_t shape[5], idx[5] = {0};
        int64_t n = 1, outer = 1, inner = 1;
        for (int d = 0; d < rank; d++) {
            shape[d] = d == axis ? rnd(parts, 8) : rnd(1, 4);
            n *= shape[d];
            if (d < axis) outer *= shape[d];
            if (d > axis) inner *= shape[d];
        }
        int16_t *in = malloc((size_t)n * 2), *back = malloc((size_t)n * 2), *part[4];
        int64_t bytes[4];
        int32_t ext[4], left = shape[axis];
        for (int k = 0; k < parts; k++) {
            ext[k] = k == parts - 1 ? left : rnd(1, left - (parts - 1 - k));
            left -= ext[k];
            bytes[k] = ext[k] * inner * 2;
            part[k] = malloc((size_t)(outer * bytes[k]));
        }
        for (int64_t i = 0; i < n; i++) in[i] = (int16_t)rnd(-30000, 30000);
        ta_concat_params p = {.n_inputs = parts, .outer = outer, .copy_bytes = bytes};
        CHECK(ta_kernel_split(&p, in, (void *const *)part) == TA_OK);
        /* element idx of the input is in part k at the axis index minus the parts before */
        do {
            int32_t a = idx[axis], k = 0;
            while (a >= ext[k]) a -= ext[k++];
            int32_t pshape[5], pidx[5];
            memcpy(pshape, shape, sizeof pshape);
            memcpy(pidx, idx, sizeof pidx);
            pshape[axis] = ext[k];
            pidx[axis] = a;
            CHECK(part[k][offset_of(rank, pshape, pidx)] == in[offset_of(rank, shape, idx)]);
        } while (next_index(rank, shape, idx));
        CHECK(ta_kernel_concatenation(&p, (const void *const *)part, back) == TA_OK);
        CHECK(memcmp(in, back, (size_t)n * 2) == 0);
        for (int k = 0; k < parts; k++) free(part[k]);
        free(in);
        free(back);
    }
}

/* SPACE_TO_BATCH_ND then BATCH_TO_SPACE_ND with the paddings as crops is the
 * identity; a padded position of space-to-batch holds raw 0. */
static void test_space_batch(void) {
    for (int rep = 0; rep < 30; rep++) {
        const int32_t bh = rnd(1, 3), bw = rnd(1, 3), N = rnd(1, 2), C = rnd(1, 3);
        const int32_t H = rnd(1, 7), W = rnd(1, 7), top = rnd(0, bh), left = rnd(0, bw);
        const int32_t bottom = (bh - (H + top) % bh) % bh, right = (bw - (W + left) % bw) % bw;
        const int32_t OH = (H + top + bottom) / bh, OW = (W + left + right) / bw;
        ta_space_batch_params p = {.in = {N, H, W, C}, .out = {N * bh * bw, OH, OW, C}, .block_h = bh, .block_w = bw,
                                   .pad_top = top, .pad_left = left, .elem_size = 1};
        int8_t in[2 * 7 * 7 * 3], mid[1024], back[2 * 7 * 7 * 3];
        for (int i = 0; i < N * H * W * C; i++) in[i] = (int8_t)rnd(1, 127); /* never 0: padding is visible */
        CHECK(ta_kernel_space_to_batch(&p, in, mid) == TA_OK);
        int zeros = 0;
        for (int i = 0; i < N * bh * bw * OH * OW * C; i++) zeros += mid[i] == 0;
        CHECK(zeros == (N * bh * bw * OH * OW - N * H * W) * C);
        ta_space_batch_params q = {.in = p.out, .out = p.in, .block_h = bh, .block_w = bw, .pad_top = top,
                                   .pad_left = left, .elem_size = 1};
        CHECK(ta_kernel_batch_to_space(&q, mid, back) == TA_OK);
        CHECK(memcmp(in, back, (size_t)(N * H * W * C)) == 0);
    }
}

/* MIRROR_PAD against the mirror's definition: REFLECT maps -i to i and
 * n - 1 + i to n - 1 - i, SYMMETRIC -i to i - 1 and n - 1 + i to n - i. */
static int32_t mirror(int32_t i, int32_t n, bool reflect) {
    if (i < 0) return reflect ? -i : -i - 1;
    if (i >= n) return reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
    return i;
}

static void test_mirror_pad(void) {
    for (int rep = 0; rep < 40; rep++) {
        const int rank = rnd(1, 4);
        const bool reflect = rnd(0, 1);
        ta_mirror_pad_params p = {.rank = rank, .offset = reflect, .elem_size = 4};
        int32_t oshape[4], idx[4] = {0}, src[4];
        int64_t n = 1, on = 1;
        for (int d = 0; d < rank; d++) {
            p.in_shape[d] = rnd(reflect ? 2 : 1, 4);
            p.before[d] = rnd(0, p.in_shape[d] - reflect); /* up to the widest allowed */
            p.after[d] = rnd(0, p.in_shape[d] - reflect);
            oshape[d] = p.in_shape[d] + p.before[d] + p.after[d];
            n *= p.in_shape[d];
            on *= oshape[d];
        }
        float *in = malloc((size_t)n * 4), *out = malloc((size_t)on * 4);
        for (int64_t i = 0; i < n; i++) in[i] = (float)i;
        CHECK(ta_kernel_mirror_pad(&p, in, out) == TA_OK);
        do {
            for (int d = 0; d < rank; d++) src[d] = mirror(idx[d] - p.before[d], p.in_shape[d], reflect);
            CHECK(out[offset_of(rank, oshape, idx)] == in[offset_of(rank, p.in_shape, src)]);
        } while (next_index(rank, oshape, idx));
        p.before[0] = p.in_shape[0] + 1 - reflect; /* one wider: refused */
        CHECK(ta_kernel_mirror_pad(&p, in, out) == TA_E_INVALID_ARG);
        free(in);
        free(out);
    }
}

/* ARG_MAX / ARG_MIN: the first index of the extreme on ties. */
static void test_arg_min_max(void) {
    const int8_t x[2 * 4 * 2] = {3, 0, 7, 9, 7, 9, 1, -5, /* batch 0: axis 4, inner 2 */
                                 -1, 2, -1, 2, -2, 2, -2, 2};
    int32_t o[4];
    ta_arg_params p = {.outer = 2, .inner = 2, .axis_size = 4, .type = TA_DTYPE_INT8, .out_size = 4};
    CHECK(ta_kernel_arg_min_max(&p, x, o) == TA_OK);
    CHECK(o[0] == 1 && o[1] == 1 && o[2] == 0 && o[3] == 0);
    p.is_min = true;
    CHECK(ta_kernel_arg_min_max(&p, x, o) == TA_OK);
    CHECK(o[0] == 3 && o[1] == 3 && o[2] == 2 && o[3] == 0);
}

/* CUMSUM (float, every combination of exclusive and reverse) against the
 * running sum in the definition's order. */
static void test_cumsum(void) {
    for (int rep = 0; rep < 20; rep++) {
        ta_cumsum_params p = {.outer = rnd(1, 3), .inner = rnd(1, 3), .depth = rnd(1, 6), .exclusive = rnd(0, 1),
                              .reverse = rnd(0, 1)};
        float in[3 * 6 * 3], out[3 * 6 * 3];
        for (int i = 0; i < 54; i++) in[i] = (float)rnd(-100, 100) / 8.0f;
        CHECK(ta_kernel_cumsum_f32(&p, in, out) == TA_OK);
        for (int o = 0; o < p.outer; o++)
            for (int i = 0; i < p.inner; i++)
                for (int k = 0; k < p.depth; k++) {
                    float want = 0.0f; /* sum of the elements before k (or after, reversed) */
                    for (int j = 0; j < p.depth; j++) {
                        const bool take = p.reverse ? (p.exclusive ? j > k : j >= k) : (p.exclusive ? j < k : j <= k);
                        if (take) want += in[(o * p.depth + j) * p.inner + i];
                    }
                    CHECK(out[(o * p.depth + k) * p.inner + i] == want); /* eighths: exact */
                }
        /* in place (TA__OP_INPLACE): the same bytes, float and int8 */
        const size_t n = (size_t)(p.outer * p.depth * p.inner);
        CHECK(ta_kernel_cumsum_f32(&p, in, in) == TA_OK && memcmp(in, out, sizeof(float) * n) == 0);
        CHECK(ta_sum_q_prepare(&p.q, 0.05f, -3, 0.4f, 0) == TA_OK);
        int8_t q[54], qo[54];
        for (int i = 0; i < 54; i++) q[i] = (int8_t)rnd(-128, 127);
        CHECK(ta_kernel_cumsum_s8(&p, q, qo) == TA_OK && ta_kernel_cumsum_s8(&p, q, q) == TA_OK);
        CHECK(memcmp(q, qo, n) == 0);
    }
}

/* ADD_N int8: with input zero point 0 the result is the requantised sum
 * (within one step); with zero point z it is TFLM's: about -z/2 input steps
 * higher (the accumulator starts at the scaled offset). */
static void test_add_n_s8(void) {
    ta_sum_q_params q;
    CHECK(ta_sum_q_prepare(&q, 0.05f, 0, 0.1f, 2) == TA_OK);
    int8_t a[64], b[64], c[64], o[64];
    for (int i = 0; i < 64; i++) {
        a[i] = (int8_t)rnd(-60, 60);
        b[i] = (int8_t)rnd(-60, 60);
        c[i] = (int8_t)rnd(-60, 60);
    }
    const int8_t *ins[3] = {a, b, c};
    CHECK(ta_kernel_add_n_s8(&q, 64, 3, ins, o) == TA_OK);
    for (int i = 0; i < 64; i++) {
        const double exact = 2.0 + 0.05 * (a[i] + b[i] + c[i]) / 0.1;
        CHECK(o[i] >= exact - 1.0 && o[i] <= exact + 1.0);
    }
    CHECK(ta_sum_q_prepare(&q, 0.05f, -3, 0.1f, 2) == TA_OK);
    int8_t zp[64];
    CHECK(ta_kernel_add_n_s8(&q, 64, 3, ins, zp) == TA_OK);
    for (int i = 0; i < 64; i++) {
        /* the inputs now mean 0.05 (x + 3): exact + 3 x 1.5, plus TFLM's +1.5 */
        const double tflm = 2.0 + 0.05 * (a[i] + b[i] + c[i] + 9 + 3) / 0.1;
        CHECK(zp[i] >= tflm - 1.0 && zp[i] <= tflm + 1.0);
    }
    CHECK(ta_sum_q_prepare(&q, 0.05f, 0, 0.0f, 0) == TA_E_INVALID_ARG);
    /* in place (TA__OP_INPLACE): output over the second input */
    CHECK(ta_sum_q_prepare(&q, 0.05f, -3, 0.1f, 2) == TA_OK);
    CHECK(ta_kernel_add_n_s8(&q, 64, 3, ins, b) == TA_OK && memcmp(b, zp, 64) == 0);
}

int main(void) {
    test_gather();
    test_split_concat();
    test_space_batch();
    test_mirror_pad();
    test_arg_min_max();
    test_cumsum();
    test_add_n_s8();
    return ta_test_finish("test_kernels_indexing");
}
