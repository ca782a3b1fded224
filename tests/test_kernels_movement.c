/* Kernels of pooling, MEAN, the data movement ops (reshape.c, pad.c,
 * transpose.c, concatenation.c, strided_slice.c, resize_nearest.c) and
 * BATCH_MATMUL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tinyarena/kernels.h"
#ifdef TINYARENA_GRAPH_H
#error "kernels.h includes graph.h: kernels need only tinyarena/types.h"
#endif
#include "common/util.h"
#include "kernel_test.h"
#include "runtime/kernels/fixedpoint.h"
#include "testutil.h"

/* ---- pooling, mean ------------------------------------------------------ */

static void test_pooling(void) {
    /* 1x2x2x1 input, 2x2 window, SAME stride 2 -> 1 output */
    int8_t in[4] = {1, 2, -1, -4}, o;
    ta_pool_params p = {.input = {1, 2, 2, 1}, .output = {1, 1, 1, 1}, .filter_h = 2, .filter_w = 2,
                        .stride_h = 2, .stride_w = 2, .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == -1); /* -2/4 = -0.5 -> -1 */
    in[3] = -2;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 0); /* 0 */
    in[0] = 2; in[1] = 3; in[2] = 3; in[3] = 4;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 3); /* 12/4 */
    in[3] = 5;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 3); /* 13/4 = 3.25 */
    in[3] = 7;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == 4); /* 15/4 = 3.75 */
    in[0] = in[1] = in[2] = -3; in[3] = -5;
    CHECK(ta_kernel_avg_pool_s8(&p, in, &o) == TA_OK && o == -4); /* -14/4 = -3.5 -> -4 */
    CHECK(ta_kernel_max_pool_s8(&p, in, &o) == TA_OK && o == -3);
    p.act_min = 0;
    CHECK(ta_kernel_max_pool_s8(&p, in, &o) == TA_OK && o == 0);
    /* padding excluded from the count: 3x3 input, 3x3 window SAME stride 1, corner = 4 taps */
    int8_t in9[9] = {1, 1, 0, 1, 2, 0, 0, 0, 0}, o9[9];
    ta_pool_params q = {.input = {1, 3, 3, 1}, .output = {1, 3, 3, 1}, .filter_h = 3, .filter_w = 3,
                        .stride_h = 1, .stride_w = 1, .pad_h = 1, .pad_w = 1, .act_min = -128, .act_max = 127};
    CHECK(ta_kernel_avg_pool_s8(&q, in9, o9) == TA_OK);
    CHECK(o9[0] == 1 && o9[8] == 1); /* 5/4 = 1.25 -> 1; 2/4 = 0.5 -> 1 */
    float f9[9] = {1, 1, 0, 1, 2, 0, 0, 0, 0}, fo9[9];
    q.f_act_min = -1e30f;
    q.f_act_max = 1e30f;
    CHECK(ta_kernel_avg_pool_f32(&q, f9, fo9) == TA_OK);
    CHECK(fo9[0] == 1.25f && fo9[8] == 0.5f && fo9[4] == 5.0f / 9.0f);
    CHECK(ta_kernel_max_pool_f32(&q, f9, fo9) == TA_OK && fo9[8] == 2.0f && fo9[2] == 2.0f);
    q.output.c = 2;
    CHECK(ta_kernel_max_pool_f32(&q, f9, fo9) == TA_E_INVALID_ARG);
}

static void test_mean(void) {
    ta_mean_params p;
    memset(&p, 0, sizeof p);
    int32_t shape[4] = {1, 2, 2, 2}, axes[2] = {1, 2};
    CHECK(ta_mean_axes(&p, shape, 4, axes, 2) == TA_OK);
    CHECK(ta_kernel_mean_s8_scratch_bytes(&p) == 2 * sizeof(int32_t));
    int32_t scratch[2];
    int8_t in[8] = {1, -1, 2, -2, 3, -3, 4, -4}, out[2];
    p.same_quant = true;
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, sizeof scratch) == TA_OK);
    CHECK(out[0] == 2 && out[1] == -2); /* 10/4 = 2.5 and -2.5 truncate */
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, 4) == TA_E_NO_MEMORY);
    /* requantising path: s_in 1, s_out 2 -> (2^30, 0); N = 4 folds to (2^30, -2) */
    p.same_quant = false;
    ta_quant_multiplier(0.5, &p.mult, &p.shift);
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, sizeof scratch) == TA_OK);
    CHECK(out[0] == 1 && out[1] == -1); /* 10 * 0.5 / 4 = 1.25 */
    p.input_zp = -2;
    p.output_zp = 5;
    CHECK(ta_kernel_mean_s8(&p, in, out, scratch, sizeof scratch) == TA_OK);
    CHECK(out[0] == 7 && out[1] == 5); /* (10+8)/8 = 2.25 -> 2; (-10+8)/8 = -0.25 -> 0 */
    /* negative axis, reduce over channels */
    int32_t ax[1] = {-1};
    CHECK(ta_mean_axes(&p, shape, 4, ax, 1) == TA_OK && p.reduce[3] && !p.reduce[1]);
    int32_t bad[1] = {4};
    CHECK(ta_mean_axes(&p, shape, 4, bad, 1) == TA_E_INVALID_ARG);
    float fin[8] = {1, 10, 2, 20, 3, 30, 4, 40}, fout[2];
    CHECK(ta_mean_axes(&p, shape, 4, axes, 2) == TA_OK);
    CHECK(ta_kernel_mean_f32(&p, fin, fout) == TA_OK && fout[0] == 2.5f && fout[1] == 25.0f);
    /* N = 3 (not a power of two): mult' = (2^30 << 1) / 3 */
    int32_t s3[2] = {1, 3}, a1[1] = {1};
    CHECK(ta_mean_axes(&p, s3, 2, a1, 1) == TA_OK);
    p.same_quant = false;
    p.input_zp = p.output_zp = 0;
    ta_quant_multiplier(1.0, &p.mult, &p.shift); /* (2^30, 1) */
    int8_t in3[3] = {100, 100, 101}, o3;
    CHECK(ta_kernel_mean_s8(&p, in3, &o3, scratch, sizeof scratch) == TA_OK);
    CHECK(o3 == 100); /* 301/3 = 100.33 */
}

/* ---- data movement ------------------------------------------------------ */

static void test_data_movement(void) {
    uint8_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
    CHECK(ta_kernel_reshape(buf, dst, 8) == TA_OK && memcmp(buf, dst, 8) == 0);
    CHECK(ta_kernel_reshape(buf, buf, 8) == TA_OK);
    CHECK(ta_kernel_reshape(NULL, dst, 8) == TA_E_INVALID_ARG);

    /* pad [2,2] int8 by (1,0) rows and (0,2) cols with -3 */
    int8_t pin[4] = {1, 2, 3, 4}, pout[12], pv = -3;
    ta_pad_params pp = {.rank = 2, .in_shape = {2, 2}, .before = {1, 0}, .after = {0, 2}, .elem_size = 1};
    CHECK(ta_kernel_pad(&pp, pin, &pv, pout) == TA_OK);
    int8_t pexp[12] = {-3, -3, -3, -3, 1, 2, -3, -3, 3, 4, -3, -3};
    CHECK(memcmp(pout, pexp, 12) == 0);
    /* float, 4D channel pad (blazeface style) */
    float fin[2] = {1.5f, 2.5f}, fout[8], zero = 0.0f;
    ta_pad_params fp = {.rank = 4, .in_shape = {1, 1, 2, 1}, .before = {0, 0, 0, 1}, .after = {0, 0, 0, 2}, .elem_size = 4};
    CHECK(ta_kernel_pad(&fp, fin, &zero, fout) == TA_OK);
    CHECK(fout[0] == 0.0f && fout[1] == 1.5f && fout[2] == 0.0f && fout[5] == 2.5f && fout[7] == 0.0f);
    fp.before[0] = -1;
    CHECK(ta_kernel_pad(&fp, fin, &zero, fout) == TA_E_INVALID_ARG);

    /* transpose NCHW [1,2,2,3] -> NHWC perm {0,2,3,1} */
    int8_t tin[12], tout[12];
    for (int i = 0; i < 12; i++) tin[i] = (int8_t)i;
    ta_transpose_params tp = {.rank = 4, .in_shape = {1, 2, 2, 3}, .perm = {0, 2, 3, 1}, .elem_size = 1};
    CHECK(ta_kernel_transpose(&tp, tin, tout) == TA_OK);
    /* out[h][w][c] = in[c][h][w] -> out index (h*3+w)*2+c */
    int ok = 1;
    for (int c = 0; c < 2; c++)
        for (int h = 0; h < 2; h++)
            for (int w = 0; w < 3; w++) ok &= tout[(h * 3 + w) * 2 + c] == tin[(c * 2 + h) * 3 + w];
    CHECK(ok);
    /* transpose twice with inverse perm = identity, 6D, 2-byte elements */
    int16_t t6[720], t6b[720], t6c[720];
    for (int i = 0; i < 720; i++) t6[i] = (int16_t)(i * 7);
    ta_transpose_params t6p = {.rank = 6, .in_shape = {2, 3, 4, 5, 1, 6}, .perm = {5, 3, 1, 0, 4, 2}, .elem_size = 2};
    CHECK(ta_kernel_transpose(&t6p, t6, t6b) == TA_OK);
    ta_transpose_params t6q = {.rank = 6, .in_shape = {6, 5, 3, 2, 1, 4}, .perm = {3, 2, 5, 1, 4, 0}, .elem_size = 2};
    CHECK(ta_kernel_transpose(&t6q, t6b, t6c) == TA_OK);
    CHECK(memcmp(t6, t6c, sizeof t6) == 0);
    t6p.perm[0] = 3;
    CHECK(ta_kernel_transpose(&t6p, t6, t6b) == TA_E_INVALID_ARG);

    /* concat [2,1] and [2,2] on axis 1 */
    int8_t c1[2] = {1, 2}, c2[4] = {3, 4, 5, 6}, cout[6];
    const void *ins[2] = {c1, c2};
    int64_t cb[2] = {1, 2};
    ta_concat_params cp = {.n_inputs = 2, .outer = 2, .copy_bytes = cb};
    CHECK(ta_kernel_concatenation(&cp, ins, cout) == TA_OK);
    int8_t cexp[6] = {1, 3, 4, 2, 5, 6};
    CHECK(memcmp(cout, cexp, 6) == 0);

    /* strided slice: [3,4] rows 1.., cols ::-2 */
    int8_t sin[12], sout[12];
    for (int i = 0; i < 12; i++) sin[i] = (int8_t)i;
    int32_t shp[2] = {3, 4}, beg[2] = {1, -1}, end[2] = {0, 0}, strd[2] = {1, -2};
    ta_slice_params sp;
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, beg, end, strd, 0, 3, 0, false, 1) == TA_OK);
    CHECK(sp.start[0] == 1 && sp.stop[0] == 3 && sp.start[1] == 3 && sp.stop[1] == -1);
    CHECK(ta_kernel_strided_slice(&sp, sin, sout) == TA_OK);
    int8_t sexp[4] = {7, 5, 11, 9};
    CHECK(memcmp(sout, sexp, 4) == 0);
    /* shrink axis 0 at index -1, begin_mask on axis 1 */
    int32_t b2[2] = {-1, 2}, e2[2] = {0, 4}, s2[2] = {1, 1};
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, b2, e2, s2, 2, 0, 1, false, 1) == TA_OK);
    CHECK(ta_kernel_strided_slice(&sp, sin, sout) == TA_OK);
    CHECK(sout[0] == 8 && sout[1] == 9 && sout[2] == 10 && sout[3] == 11);
    /* offset: end = begin + size */
    int32_t b3[2] = {0, 1}, e3[2] = {2, 2};
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, b3, e3, s2, 0, 0, 0, true, 1) == TA_OK);
    CHECK(ta_kernel_strided_slice(&sp, sin, sout) == TA_OK);
    CHECK(sout[0] == 1 && sout[1] == 2 && sout[2] == 5 && sout[3] == 6);
    int32_t z2[2] = {1, 0};
    CHECK(ta_strided_slice_resolve(&sp, shp, 2, b3, e3, z2, 0, 0, 0, false, 1) == TA_E_INVALID_ARG);
}

/* ---- int16 activations, attention, recurrent ops ------------------------ */

static void test_batch_matmul(void) {
    /* [2x3] x [3x2] with zero points, multiplier 1 */
    ta_batch_matmul_params p = {.lhs = {1, 1, 1, 2, 3}, .rhs = {1, 1, 1, 3, 2}, .lhs_offset = -1, .rhs_offset = 2,
                                .output_offset = 3, .mult = 1 << 30, .shift = 1};
    int32_t os[5];
    CHECK(ta_batch_matmul_shape(&p, os) == TA_OK && os[3] == 2 && os[4] == 2);
    int8_t l[6] = {1, 2, 3, 4, 5, 6}, r[6] = {-1, 0, 1, -2, 0, 3}, o[4];
    CHECK(ta_kernel_batch_matmul_s8(&p, l, r, o) == TA_OK);
    /* L - 1 = [[0,1,2],[3,4,5]], R + 2 = [[1,2],[3,0],[2,5]] */
    CHECK(o[0] == 7 + 3 && o[1] == 10 + 3 && o[2] == 25 + 3 && o[3] == 31 + 3);
    /* adj_y: the same RHS stored transposed */
    int8_t rt[6] = {-1, 1, 0, 0, -2, 3};
    p.adj_y = true;
    p.rhs[3] = 2;
    p.rhs[4] = 3;
    CHECK(ta_kernel_batch_matmul_s8(&p, l, rt, o) == TA_OK && o[0] == 10 && o[3] == 34);
    /* adj_x too */
    int8_t lt[6] = {1, 4, 2, 5, 3, 6};
    p.adj_x = true;
    p.lhs[3] = 3;
    p.lhs[4] = 2;
    CHECK(ta_kernel_batch_matmul_s8(&p, lt, rt, o) == TA_OK && o[0] == 10 && o[1] == 13 && o[2] == 28);
    /* batch broadcast: lhs [2, 2, 3], rhs [1, 3, 2] against the per-batch product; float */
    ta_batch_matmul_params f = {.lhs = {1, 1, 2, 2, 3}, .rhs = {1, 1, 1, 3, 2}};
    float fl[12], fr[6], fo[8];
    for (int i = 0; i < 12; i++) fl[i] = 0.5f * (float)(i - 5);
    for (int i = 0; i < 6; i++) fr[i] = 0.25f * (float)(3 - i);
    CHECK(ta_kernel_batch_matmul_f32(&f, fl, fr, fo) == TA_OK);
    for (int b = 0; b < 2; b++)
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 2; c++) {
                float acc = 0.0f;
                for (int k = 0; k < 3; k++) acc += fl[b * 6 + a * 3 + k] * fr[k * 2 + c];
                CHECK(fo[b * 4 + a * 2 + c] == acc);
            }
    f.rhs[2] = 3; /* neither equal nor 1 */
    CHECK(ta_kernel_batch_matmul_f32(&f, fl, fr, fo) == TA_E_INVALID_ARG);
    /* int16: int64 accumulation, ta_q_mul64 */
    ta_batch_matmul_params h = {.lhs = {1, 1, 1, 1, 2}, .rhs = {1, 1, 1, 2, 1}, .mult = 1 << 30, .shift = 0};
    int16_t hl[2] = {30000, 30000}, hr[2] = {2, 1}, ho[1];
    CHECK(ta_kernel_batch_matmul_s16(&h, hl, hr, ho) == TA_OK && ho[0] == 32767); /* 90000 / 2 clamps */
    hl[0] = -300;
    CHECK(ta_kernel_batch_matmul_s16(&h, hl, hr, ho) == TA_OK && ho[0] == 14700);
}

int main(void) {
    test_pooling();
    test_mean();
    test_data_movement();
    test_batch_matmul();
    return ta_test_finish("test_kernels_movement");
}
