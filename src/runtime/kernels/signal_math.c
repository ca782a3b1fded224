/*
 * The integer helpers of TFLM's signal library (kernels.h): leading bit,
 * square roots and the fixed-point log, in TFLM's exact arithmetic.
 */
#include "runtime/kernels/fixedpoint.h"

/* Correction of log2 over its chord on each of 128 segments of [1, 2):
 * round(2^16 log2(1 + i/128) - 2^9 i), i = 0..128 (tests/test_kernels.c
 * re-derives every entry). */
static const uint16_t k_log_lut[129] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944,
    3087, 3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791,
    4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578,
    5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498,
    5470, 5439, 5406, 5370, 5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697,
    4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286,
    3186, 3084, 2981, 2875, 2768, 2659, 2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353,
    1224, 1094, 963,  830,  695,  559,  421,  282,  142,  0};

uint32_t ta_signal_msb32(uint32_t x) {
    if (!x) return 32; /* TFLM's __builtin_clz path */
    uint32_t n = 0;
    for (uint32_t s = 16; s; s >>= 1)
        if (x >> s) {
            x >>= s;
            n += s;
        }
    return n + 1;
}

uint32_t ta_signal_msb64(uint64_t x) {
    if (!x) return 64;
    return x >> 32 ? 32 + ta_signal_msb32((uint32_t)(x >> 32)) : ta_signal_msb32((uint32_t)x);
}

/* Bit-pair square root: one result bit per step from the highest even bit
 * position at or below x's leading bit, then + 1 when the remainder is
 * larger than the root (round to nearest), unless the root is already the
 * type's largest. */
uint16_t ta_signal_sqrt32(uint32_t x) {
    if (!x) return 0;
    const uint32_t top = (32u - ta_signal_msb32(x)) | 1u; /* leading zeros, made odd */
    uint32_t bit = (uint32_t)1 << (31u - top), res = 0;
    for (uint32_t k = (31u - top) / 2u + 1u; k; k--) {
        if (x >= res + bit) {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (x > res && res != 0xFFFFu) res++;
    return (uint16_t)res;
}

uint32_t ta_signal_sqrt64(uint64_t x) {
    if (!(x >> 32)) return ta_signal_sqrt32((uint32_t)x);
    const uint32_t top = (64u - ta_signal_msb64(x)) | 1u;
    uint64_t bit = (uint64_t)1 << (63u - top), res = 0;
    for (uint32_t k = (63u - top) / 2u + 1u; k; k--) {
        if (x >= res + bit) {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (x > res && res != 0xFFFFFFFFu) res++;
    return (uint32_t)res;
}

uint32_t ta_signal_log2_q16(uint32_t x) {
    if (!x) return 0; /* TFLM never asks (its callers need x > 1) */
    const uint32_t ip = ta_signal_msb32(x) - 1u; /* floor(log2 x) */
    /* the bits below the leading one, as a Q16 fraction of [1, 2) */
    int32_t frac = (int32_t)(x - ((uint32_t)1 << ip));
    frac = ip < 16 ? (int32_t)((uint32_t)frac << (16u - ip)) : (int32_t)((uint32_t)frac >> (ip - 16u));
    const uint32_t seg = (uint32_t)frac >> 9; /* 128 segments of 2^9 */
    const int32_t c0 = k_log_lut[seg], c1 = k_log_lut[seg + 1];
    const int32_t rel = ta__asr((c1 - c0) * (frac - (int32_t)(seg << 9)), 16);
    return (ip << 16) + (uint32_t)(frac + c0 + rel);
}

uint32_t ta_signal_log32(uint32_t x, uint32_t out_scale) {
    const uint32_t log2 = ta_signal_log2_q16(x);
    const uint32_t loge = (uint32_t)(((uint64_t)45426u * log2 + 32768u) >> 16); /* x ln 2 */
    return (out_scale * loge + 32768u) >> 16; /* wraps in uint32, as TFLM's */
}
