/* Kernels of the recurrent ops (svdf.c, lstm.c): SVDF, the int16 LUT
 * sigmoid/tanh, the LSTM cell. */
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

static void test_svdf(void) {
    /* 2 filters, rank 1, memory 2, all scales 1: hand-worked two invokes */
    ta_svdf_params p = {.batch = 1, .input_size = 2, .n_filter = 2, .n_memory = 2, .rank = 1};
    CHECK(ta_svdf_prepare(&p, 1.0f, 0, 1.0f, 1.0f, 1.0f, 0, 1.0f, 0) == TA_OK);
    CHECK(ta_kernel_svdf_scratch_bytes(&p) == 16 + 16);
    int8_t x[2] = {1, 2}, wf[4] = {1, 1, 2, -1}, out[2];
    int16_t wt[4] = {1, 2, 3, 4}, state[4] = {0, 0, 0, 0};
    int32_t bias[2] = {1, 1};
    int32_t scratch[8];
    CHECK(ta_kernel_svdf_s8(&p, x, wf, wt, bias, state, out, scratch, sizeof scratch) == TA_OK);
    CHECK(state[0] == 0 && state[1] == 3 && state[2] == 0 && state[3] == 0);
    CHECK(out[0] == 7 && out[1] == 1);
    x[1] = 0;
    CHECK(ta_kernel_svdf_s8(&p, x, wf, wt, bias, state, out, scratch, sizeof scratch) == TA_OK);
    CHECK(state[0] == 3 && state[1] == 1 && state[2] == 0 && state[3] == 2);
    CHECK(out[0] == 6 && out[1] == 9);
    CHECK(ta_kernel_svdf_s8(&p, x, wf, wt, bias, state, out, scratch, 16) == TA_E_NO_MEMORY);
    /* rank 2: both filters feed one unit; int8 state with a zero point */
    ta_svdf_params q = {.batch = 1, .input_size = 2, .n_filter = 2, .n_memory = 2, .rank = 2};
    CHECK(ta_svdf_prepare(&q, 1.0f, 1, 1.0f, 1.0f, 1.0f, -3, 1.0f, 2) == TA_OK);
    int8_t wt8[4] = {1, 2, 3, 4}, st8[4] = {-3, -3, -3, -3}, o1;
    int8_t x2[2] = {2, 3}; /* x - 1 = [1, 2]: dots [3, 0] + zp -3 -> state [0, -3] newest */
    CHECK(ta_kernel_svdf_s8_s8(&q, x2, wf, wt8, NULL, st8, &o1, scratch, sizeof scratch) == TA_OK);
    CHECK(st8[1] == 0 && st8[3] == -3);
    CHECK(o1 == 2 + 2 * 3 + 4 * 0); /* time sums 6 and 0, + zp_out 2 */
}

/* The int16 LUT activations the LSTM uses: exact at 0, saturating at the
 * ends, monotonic, and within a few Q0.15 steps of the real functions. */
static void test_s16_lut(void) {
    int bad = 0;
    for (int i = 0; i < 256; i++) {
        double e = 65536.0 / (1.0 + exp(-(double)i / 24.0));
        bad += fabs((double)ta__sigmoid_table[i] - e) > 1.2;
        bad += i > 0 && ta__sigmoid_table[i] < ta__sigmoid_table[i - 1];
    }
    CHECK(bad == 0);
    int16_t x[5] = {0, 32767, -32768, 4096, -4096}, y[5];
    ta_kernel_logistic_s16_lut(0, 0, 5, x, y);
    /* Q3.12 spans [-8, 8): sigmoid(+-8) is not saturated yet */
    CHECK(y[0] == 16384 && y[1] == 32757 && y[2] == 11 && y[3] + y[4] == 32768);
    ta_kernel_tanh_s16_lut(0, 0, 5, x, y);
    CHECK(y[0] == 0 && y[1] == 32767 && y[2] == -32767);
    /* sweep: Q3.12 in, Q0.15 out; tanh also at a Q4.11 cell scale (mult 6) */
    int wl = 0, wt = 0, wc = 0, mono = 1;
    int16_t prev_l = -32768, prev_t = -32768;
    for (int32_t v = -32768; v <= 32767; v += 7) {
        int16_t in = (int16_t)v, lo, th, tc;
        ta_kernel_logistic_s16_lut(0, 0, 1, &in, &lo);
        ta_kernel_tanh_s16_lut(0, 0, 1, &in, &th);
        ta_kernel_tanh_s16_lut(0, 1, 1, &in, &tc);
        double r = v / 4096.0;
        int dl = abs(lo - (int)lround(32768.0 / (1.0 + exp(-r))));
        int dt = abs(th - (int)lround(32768.0 * tanh(r)));
        int dc = abs(tc - (int)lround(32768.0 * tanh(v / 2048.0)));
        wl = dl > wl ? dl : wl;
        wt = dt > wt ? dt : wt;
        wc = dc > wc ? dc : wc;
        mono &= lo >= prev_l && th >= prev_t;
        prev_l = lo;
        prev_t = th;
    }
    CHECK(mono);
    CHECK(wl <= 12 && wt <= 24 && wc <= 24);
}

/* A small LSTM against a float evaluation of the same quantised model. */
static void test_lstm(void) {
    enum { B = 2, T = 3, I = 4, S = 3 };
    const float xs = 0.05f, ws = 0.02f, hs = 1.0f / 128.0f, cs = 1.0f / 2048.0f;
    ta_lstm_params p = {.time_major = false, .batch = B, .time = T, .input_dim = I, .state_dim = S, .cell_act = TA_ACT_TANH};
    for (int g = 0; g < 4; g++) {
        ta_lstm_fc_prepare(&p.in_fc[g], xs, 0, ws, 0);
        ta_lstm_fc_prepare(&p.rec_fc[g], hs, 0, ws, 0);
    }
    CHECK(ta_lstm_cell_prepare(&p, cs, 10.0f, hs, 0) == TA_OK);
    CHECK(p.cell_scale_power == -11 && p.cell_clip == 20480);
    CHECK(ta_lstm_cell_prepare(&p, 0.0003f, 0.0f, hs, 0) == TA_E_UNSUPPORTED); /* not a power of two */
    CHECK(ta_lstm_cell_prepare(&p, cs, 10.0f, hs, 0) == TA_OK);
    CHECK(ta_kernel_lstm_scratch_bytes(&p) == 4 * 16);
    int8_t x[B * T * I], wi[4][S * I], wr[4][S * S], h[B * S] = {0}, out[B * T * S];
    int32_t bias[4][S];
    int16_t c[B * S] = {0};
    rnd_s8(x, sizeof x);
    for (int g = 0; g < 4; g++) {
        rnd_s8(wi[g], sizeof wi[g]);
        rnd_s8(wr[g], sizeof wr[g]);
        for (int k = 0; k < S; k++) bias[g][k] = rnd(-2000, 2000); /* scale xs * ws */
    }
    ta_lstm_tensors t = {.input = x, .hidden = h, .cell = c, .output = out};
    for (int g = 0; g < 4; g++) t.w_in[g] = wi[g], t.w_rec[g] = wr[g], t.bias[g] = bias[g];
    int16_t scratch[32];
    CHECK(ta_kernel_lstm_s8(&p, &t, scratch, sizeof scratch) == TA_OK);
    /* float reference on the dequantised model */
    int worst = 0;
    for (int b = 0; b < B; b++) {
        double hf[S] = {0}, cf[S] = {0};
        for (int s = 0; s < T; s++) {
            double gv[4][S];
            for (int g = 0; g < 4; g++)
                for (int k = 0; k < S; k++) {
                    double a = bias[g][k] * (double)xs * ws;
                    for (int d = 0; d < I; d++) a += xs * x[(b * T + s) * I + d] * ws * wi[g][k * I + d];
                    for (int d = 0; d < S; d++) a += hf[d] * ws * wr[g][k * S + d];
                    gv[g][k] = g == TA_LSTM_CELL ? tanh(a) : 1.0 / (1.0 + exp(-a));
                }
            for (int k = 0; k < S; k++) {
                cf[k] = gv[TA_LSTM_FORGET][k] * cf[k] + gv[TA_LSTM_INPUT][k] * gv[TA_LSTM_CELL][k];
                double hv = gv[TA_LSTM_OUTPUT][k] * tanh(cf[k]);
                long q = lround(hv / hs);
                q = q < -128 ? -128 : q > 127 ? 127 : q;
                hf[k] = (double)q * hs; /* the recurrence sees the int8 hidden state */
                int d = abs(out[(b * T + s) * S + k] - (int)q);
                worst = d > worst ? d : worst;
            }
        }
    }
    CHECK(worst <= 2);
    CHECK(ta_kernel_lstm_s8(&p, &t, scratch, 16) == TA_E_NO_MEMORY);
    /* time-major: the same sequence laid out [T, B, I] gives the same outputs */
    int8_t xt[T * B * I], ot[T * B * S], h2[B * S] = {0};
    int16_t c2[B * S] = {0};
    for (int b = 0; b < B; b++)
        for (int s = 0; s < T; s++) memcpy(xt + (s * B + b) * I, x + (b * T + s) * I, I);
    p.time_major = true;
    ta_lstm_tensors tt = t;
    tt.input = xt;
    tt.output = ot;
    tt.hidden = h2;
    tt.cell = c2;
    CHECK(ta_kernel_lstm_scratch_bytes(&p) == 4 * 16);
    CHECK(ta_kernel_lstm_s8(&p, &tt, scratch, sizeof scratch) == TA_OK);
    int same = 1;
    for (int b = 0; b < B; b++)
        for (int s = 0; s < T; s++) same &= memcmp(ot + (s * B + b) * S, out + (b * T + s) * S, S) == 0;
    CHECK(same);
}

/* float SVDF against the definition, in double: after k invokes the memory
 * of filter f holds its last min(k, M) feature projections (older ones
 * zero), and unit u is act(bias + sum over its rank filters of memory .
 * time weights).  Three batches, rank 2, more invokes than memory. */
static void test_svdf_f32(void) {
    enum { B = 3, I = 5, R = 2, U = 3, F = R * U, M = 4, STEPS = 7 };
    ta_svdf_params p = {.batch = B, .input_size = I, .n_filter = F, .n_memory = M, .rank = R,
                        .activation = TA_ACT_RELU6};
    CHECK(ta_kernel_svdf_f32_scratch_bytes(&p) == B * F * sizeof(float));
    float wf[F * I], wt[F * M], bias[U], state[B * F * M] = {0}, out[B * U], scratch[B * F];
    float xs[STEPS][B * I];
    for (int k = 0; k < F * I; k++) wf[k] = (float)rnd(-100, 99) / 64.0f;
    for (int k = 0; k < F * M; k++) wt[k] = (float)rnd(-100, 99) / 64.0f;
    for (int k = 0; k < U; k++) bias[k] = (float)k - 1.0f;
    for (int t = 0; t < STEPS; t++)
        for (int k = 0; k < B * I; k++) xs[t][k] = (float)rnd(-100, 99) / 128.0f;
    for (int t = 0; t < STEPS; t++) {
        CHECK(ta_kernel_svdf_f32(&p, xs[t], wf, wt, bias, state, out, scratch, sizeof scratch) == TA_OK);
        for (int b = 0; b < B; b++)
            for (int u = 0; u < U; u++) {
                double v = bias[u];
                for (int r = 0; r < R; r++) {
                    const int f = u * R + r;
                    for (int m = 0; m < M; m++) {
                        const int age = M - 1 - m, step = t - age; /* memory slot m holds invoke t - age */
                        if (step < 0) continue;
                        double proj = 0;
                        for (int k = 0; k < I; k++) proj += (double)wf[f * I + k] * xs[step][b * I + k];
                        v += proj * wt[f * M + m];
                    }
                }
                v = v < 0 ? 0 : v > 6 ? 6 : v;
                CHECK(fabs(out[b * U + u] - v) < 1e-4);
            }
    }
    CHECK(ta_kernel_svdf_f32(&p, xs[0], wf, wt, bias, state, out, scratch, sizeof scratch - 4) == TA_E_NO_MEMORY);
    p.rank = 4; /* does not divide the filters */
    CHECK(ta_kernel_svdf_f32(&p, xs[0], wf, wt, bias, state, out, scratch, sizeof scratch) == TA_E_INVALID_ARG);
}

int main(void) {
    test_svdf();
    test_svdf_f32();
    test_s16_lut();
    test_lstm();
    return ta_test_finish("test_kernels_recurrent");
}
