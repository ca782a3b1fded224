/*
 * CONV_2D int8 on armv6-m (M0/M0+): the 1x1 kernel in assembly, one pixel
 * x 4 output channels, and small one-group windows gathered into it
 * (conv_pw_gather.h) -- the variant TA_KV_CONV_S8_PW_M0 of the fast kernel
 * (conv2d_s8_fast.c), reached through the variant table
 * (tinyarena/kernel_link.h).  The DSP cores' 1x1 kernel is
 * conv2d_s8_pw_dsp.c.
 * Byte-identical to ta__conv2d_s8_ref, as the rest of the fast kernel
 * (tests/test_kernels_fast.c, bare-metal under kernels_mcu).
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/conv_pw.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#include "tinyarena/pw_pack.h"

#if defined(__ARM_ARCH_6M__)
#include "runtime/kernels/conv_pw_gather.h"

/* armv6-m (M0/M0+) 1x1 convolutions: one pixel against 4 output channels,
 * in assembly.  Eight low registers hold the input pointer, the 4 weight
 * rows, a shared index counting up to 0 (LDRSB only takes a register
 * offset), the input byte and a product; the 4 sums live in r8-r11 (ADD
 * reaches the high registers, and neither MULS nor the sums need them low).
 * A term is LDRSB, MULS, ADD; the input byte is loaded once for 4 channels:
 * 57 instructions per 16 MACs, against GCC's 10 per 2 (it keeps two sums
 * and spills).  Byte loads only: nothing is read unaligned.
 *   void ta__m0_dot1x4(const int8_t *x, const int8_t *const rows[4],
 *                      int32_t depth, int32_t acc[4]);
 * rows: where each of the 4 channels' depth weights END (the rows need not
 * be adjacent: the kernel groups the channels that are not constant, below);
 * depth a multiple of 4, at least 4. */
void ta__m0_dot1x4(const int8_t *x, const int8_t *const rows[4], int32_t depth, int32_t acc[4]);
/* The same dot products, then each sum + its fold requantised in the same
 * assembly (TA__M0_RQM, requant.h) and stored: out[j] for the constants
 * k[j] (ta__rqm with fold set), j = 0..3.  The sums go from r8-r11 to the
 * stack and come back one POP each; no acc array, no call per output, the
 * constants read by immediate offsets from k (48 bytes per channel). */
void ta__m0_dot1x4_rq(const int8_t *x, const int8_t *const rows[4], int32_t depth, int8_t *out, const ta__rqm *k);
_Static_assert(sizeof(ta__rqm) == 48 && offsetof(ta__rqm, fold) == 44, "ta__m0_dot1x4_rq reads ta__rqm by offsets");
#define M0_TERM(W, A) "ldrsb r7, [" W ", r5]\n\tmuls r7, r6, r7\n\tadd " A ", r7\n\t"
#define M0_STEP                                                                         \
    "ldrsb r6, [r0, r5]\n\t" M0_TERM("r1", "r8") M0_TERM("r2", "r9") M0_TERM("r3", "r10") \
        M0_TERM("r4", "r11") "adds r5, #1\n\t"
/* Entry and loop of both: r8-r11 saved, r3 pushed, the 4 sums in r8-r11,
 * started by INIT. */
#define M0_DOT(NAME, INIT)                                                                 \
    ".section .text." NAME ",\"ax\",%progbits\n\t"                                   \
    ".balign 2\n\t"                                                                   \
    ".global " NAME "\n\t"                                                            \
    ".thumb\n\t"                                                                      \
    ".thumb_func\n\t"                                                                 \
    ".type " NAME ", %function\n" NAME ":\n\t"                                        \
    "push {r4, r5, r6, r7, lr}\n\t"                                                   \
    "mov r4, r8\n\t"                                                                  \
    "mov r5, r9\n\t"                                                                  \
    "mov r6, r10\n\t"                                                                 \
    "mov r7, r11\n\t"                                                                 \
    "push {r4, r5, r6, r7}\n\t"                                                       \
    "push {r3}\n\t"                                                                   \
    "adds r0, r0, r2\n\t" /* every pointer at its row's end, index -depth .. -1 */    \
    "rsbs r5, r2, #0\n\t"                                                             \
    "ldr r4, [r1, #12]\n\t"                                                           \
    "ldr r3, [r1, #8]\n\t"                                                            \
    "ldr r2, [r1, #4]\n\t"                                                            \
    "ldr r1, [r1]\n\t"                                                                \
    INIT "1:\n\t" M0_STEP M0_STEP M0_STEP M0_STEP "bne 1b\n\t"
/* Restores r8-r11 and returns. */
#define M0_RET(NAME)                                                                   \
    "pop {r4, r5, r6, r7}\n\t"                                                        \
    "mov r8, r4\n\t"                                                                  \
    "mov r9, r5\n\t"                                                                  \
    "mov r10, r6\n\t"                                                                 \
    "mov r11, r7\n\t"                                                                 \
    "pop {r4, r5, r6, r7, pc}\n\t"                                                    \
    ".size " NAME ", .-" NAME "\n\t"
#define M0_ZERO "movs r6, #0\n\tmov r8, r6\n\tmov r9, r6\n\tmov r10, r6\n\tmov r11, r6\n"
/* the sums start at the channels' folds (k: the fifth argument, sp + 40) */
#define M0_FOLDS                                                                                                \
    "ldr r6, [sp, #40]\n\tldr r7, [r6, #44]\n\tmov r8, r7\n\tldr r7, [r6, #92]\n\tmov r9, r7\n\t"              \
    "adds r6, #96\n\tldr r7, [r6, #44]\n\tmov r10, r7\n\tldr r7, [r6, #92]\n\tmov r11, r7\n"
__asm__(TA__ASM_UNIFIED M0_DOT("ta__m0_dot1x4", M0_ZERO)
        "pop {r3}\n\t"
        "mov r4, r8\n\t"
        "mov r5, r9\n\t"
        "mov r6, r10\n\t"
        "mov r7, r11\n\t"
        "stmia r3!, {r4, r5, r6, r7}\n\t" M0_RET("ta__m0_dot1x4")
        ".text\n\t" TA__ASM_RESTORE);
/* After the loop: sums pushed (sp: acc0..acc3, out, saved r8-r11, saved
 * r4-r7 and lr, then the caller's k at sp + 56). */
__asm__(TA__ASM_UNIFIED M0_DOT("ta__m0_dot1x4_rq", M0_FOLDS)
        "mov r4, r8\n\t"
        "mov r5, r9\n\t"
        "mov r6, r10\n\t"
        "mov r7, r11\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "ldr r7, [sp, #56]\n\t" TA__M0_RQ4
        "pop {r3}\n\t" M0_RET("ta__m0_dot1x4_rq")
        ".text\n\t" TA__ASM_RESTORE);
/* TA__M0_RQ4's routine (requant.h): the 4 outputs' requantisation, one
 * copy for the 1x1 and the 3x3 depthwise kernels (BL and BX: 2 instructions
 * per 4 outputs, 1.1 KB less code than a copy in each). */
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_rq4,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_rq4\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_rq4, %function\n"
        "ta__m0_rq4:\n\t"
        "mov r6, lr\n\t"
        "ldr r3, [sp, #16]\n\t"
        "movs r1, #1\n\t"
        "lsls r1, r1, #10\n\t" TA__M0_RQ_OUT("0", ".Lrq4_l0") TA__M0_RQ_OUT("1", ".Lrq4_l1")
            TA__M0_RQ_OUT("2", ".Lrq4_l2") TA__M0_RQ_OUT("3", ".Lrq4_l3") "bx r6\n\t"
        /* the long paths, out of line: a short one costs no branch past them */
        TA__M0_RQ_LONG_OUT("0", ".Lrq4_l0") TA__M0_RQ_LONG_OUT("1", ".Lrq4_l1") TA__M0_RQ_LONG_OUT("2", ".Lrq4_l2")
            TA__M0_RQ_LONG_OUT("3", ".Lrq4_l3")
        ".size ta__m0_rq4, .-ta__m0_rq4\n\t"
        ".text\n\t" TA__ASM_RESTORE);

/* armv6-m: two multiply-accumulates per MULS.  With X = x0 + x1 * 2^16
 * (two input bytes of a pixel) and W = w1 + w0 * 2^16 (the channel's weights
 * for them, swapped), X * W = x0 * w1 + (x0 * w0 + x1 * w1) * 2^16 +
 * x1 * w0 * 2^32, and modulo 2^32 (MULS) the 2^32 term is gone: the top
 * half is the two-term dot product S plus floor(x0 * w1 / 2^16).  |x0 * w1|
 * <= 2^14 < 2^15, so rounding that half (ASRS #16 leaves bit 15 in the
 * carry, ADCS adds it) gives S exactly, as long as S fits int16: it is at
 * most 2 * 128 * 128 = 2^15 only for w0 = w1 = -128 (and x0 = x1 = -128),
 * so a set with such a pair of weights keeps ta__m0_dot1x4_rq
 * (pw_m0_pack).  A pair of input bytes is 6 instructions (LDRB, SXTB;
 * LDRB, LSLS, ASRS; ADDS) shared by the 4 channels, a channel's two MACs 4
 * (LDR W, MULS, ASRS, ADCS): 22 instructions per 8 MACs plus 4 per 32 for
 * the loop, against 57 per 16.  The sums are exact (each S is, and the
 * 32-bit sums wrap as TFLM's int32 does), so the result is the same bytes.
 *   void ta__m0_dot2x4_rq(const int8_t *x, const uint32_t *wp, int32_t depth,
 *                         int8_t *out, const ta__rqm *k);
 * wp: the set's packed weights, 4 words per input pair (channel 0..3),
 * depth / 2 pairs; depth a multiple of 4, at least 4; x byte loads only.
 * The sums start at the folds, live in r4-r7 (ADCS takes low registers),
 * and go to TA__M0_RQ4 as ta__m0_dot1x4_rq's do. */
void ta__m0_dot2x4_rq(const int8_t *x, const uint32_t *wp, int32_t depth, int8_t *out, const ta__rqm *k);
#define M0_PAIR(XO, WO)                                                                                \
    "ldrb r2, [r0, #" XO "]\n\tsxtb r2, r2\n\tldrb r3, [r0, #" XO "+1]\n\tlsls r3, r3, #24\n\t"         \
    "asrs r3, r3, #8\n\tadds r2, r2, r3\n\t"                                                         \
    "ldr r3, [r1, #" WO "]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r4, r3\n\t"                 \
    "ldr r3, [r1, #" WO "+4]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r5, r3\n\t"               \
    "ldr r3, [r1, #" WO "+8]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r6, r3\n\t"               \
    "ldr r3, [r1, #" WO "+12]\n\tmuls r3, r2, r3\n\tasrs r3, r3, #16\n\tadcs r7, r3\n\t"
/* sp after the entry: out, saved r8, saved r4-r7 and lr, then k (sp + 28) */
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_dot2x4_rq,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_dot2x4_rq\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_dot2x4_rq, %function\n"
        "ta__m0_dot2x4_rq:\n\t"
        "push {r4, r5, r6, r7, lr}\n\t"
        "mov r4, r8\n\t"
        "push {r3, r4}\n\t"
        "lsls r2, r2, #3\n\t" /* depth / 2 pairs of 16 bytes */
        "adds r2, r1, r2\n\t"
        "mov r8, r2\n\t"
        "ldr r7, [sp, #28]\n\t"
        "ldr r4, [r7, #44]\n\t"
        "ldr r5, [r7, #92]\n\t"
        "adds r7, #96\n\t"
        "ldr r6, [r7, #44]\n\t"
        "ldr r7, [r7, #92]\n"
        "1:\n\t" M0_PAIR("0", "0") M0_PAIR("2", "16")
        "adds r0, #4\n\t"
        "adds r1, #32\n\t"
        "cmp r1, r8\n\t"
        "bne 1b\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "ldr r7, [sp, #44]\n\t" TA__M0_RQ4
        "pop {r3, r4}\n\t"
        "mov r8, r4\n\t"
        "pop {r4, r5, r6, r7, pc}\n\t"
        ".size ta__m0_dot2x4_rq, .-ta__m0_dot2x4_rq\n\t"
        ".text\n\t" TA__ASM_RESTORE);

/* armv6-m: the sum of (byte + 128) over nw words at p (word-aligned, nw in
 * [1, 128]): each word's bytes flipped to x + 128 and added in two 16-bit
 * lanes (bytes 0 + 1 and 2 + 3, at most 510 a word, so 128 words cannot
 * carry out of a lane), folded at the end.  9 instructions a word against
 * 14 for 4 LDRSBs and adds; written as assembly because GCC's -Os kept the
 * lanes' masks in spilled locals (slower than the bytes).  Only the 1x1
 * kernel's weight rows take it (ta__sum_s8 inlined in every kernel grew
 * hello_world's fully connected firmware past 10 KB). */
static inline uint32_t m0_sum_words(const int8_t *p, int32_t nw) {
    uint32_t acc = 0, v, t;
    const uint32_t end = (uint32_t)(uintptr_t)p + 4u * (uint32_t)nw, m = 0x00FF00FFu, x = 0x80808080u;
    uintptr_t q = (uintptr_t)p;
    __asm__(".syntax unified\n"
            "1:\n\t"
            "ldmia %[q]!, {%[v]}\n\t"
            "eors %[v], %[x]\n\t"
            "lsrs %[t], %[v], #8\n\t"
            "ands %[v], %[m]\n\t"
            "ands %[t], %[m]\n\t"
            "adds %[acc], %[acc], %[v]\n\t"
            "adds %[acc], %[acc], %[t]\n\t"
            "cmp %[q], %[end]\n\t"
            "bne 1b\n\t"
#if !defined(__ARM_ASM_SYNTAX_UNIFIED__)
            ".syntax divided\n\t"
#endif
            : [acc] "+l"(acc), [q] "+l"(q), [v] "=&l"(v), [t] "=&l"(t)
            : [end] "l"(end), [m] "l"(m), [x] "l"(x), "m"(*(const int8_t(*)[512])p)
            : "cc");
    return (acc & 0xFFFFu) + (acc >> 16);
}

/* The same sum over 2 * n2 words (n2 in [1, 64]), two words per LDM and no
 * second mask: with a_i the flipped bytes, E = sum(word & 0x00FF00FF) holds
 * sum a0 and sum a2 in its halves, H = sum(word >> 8) = sum a1 + 2^8 sum a2
 * + 2^16 sum a3 (below 2^32 for 128 words), so H - 2^8 sum a2 holds sum a1
 * and sum a3 in its halves.  13 instructions per 2 words, against 18; the
 * end pointer in r8. */
uint32_t ta__m0_sum_words2(const int8_t *p, int32_t n2);
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_sum_words2,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_sum_words2\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_sum_words2, %function\n"
        "ta__m0_sum_words2:\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "mov r4, r8\n\t"
        "push {r4}\n\t"
        "lsls r1, r1, #3\n\t"
        "adds r1, r0, r1\n\t"
        "mov r8, r1\n\t"
        "movs r6, #255\n\t"
        "lsls r7, r6, #16\n\t"
        "orrs r6, r7\n\t" /* 0x00FF00FF */
        "lsls r7, r6, #7\n\t"
        "ands r7, r6\n\t" /* 0x00800080 */
        "lsls r1, r7, #8\n\t"
        "orrs r7, r1\n\t" /* 0x80808080 */
        "movs r2, #0\n\t"
        "movs r3, #0\n"
        "1:\n\t"
        "ldmia r0!, {r4, r5}\n\t"
        "eors r4, r7\n\t"
        "eors r5, r7\n\t"
        "lsrs r1, r4, #8\n\t"
        "ands r4, r6\n\t"
        "adds r2, r2, r4\n\t"
        "adds r3, r3, r1\n\t"
        "lsrs r1, r5, #8\n\t"
        "ands r5, r6\n\t"
        "adds r2, r2, r5\n\t"
        "adds r3, r3, r1\n\t"
        "cmp r0, r8\n\t"
        "bne 1b\n\t"
        "lsrs r4, r2, #16\n\t" /* sum a2 */
        "lsls r5, r4, #8\n\t"
        "subs r3, r3, r5\n\t" /* sum a1 + 2^16 sum a3 */
        "uxth r5, r2\n\t"
        "adds r4, r4, r5\n\t"
        "uxth r5, r3\n\t"
        "adds r4, r4, r5\n\t"
        "lsrs r3, r3, #16\n\t"
        "adds r0, r4, r3\n\t"
        "pop {r4}\n\t"
        "mov r8, r4\n\t"
        "pop {r4, r5, r6, r7}\n\t"
        "bx lr\n\t"
        ".size ta__m0_sum_words2, .-ta__m0_sum_words2\n\t"
        ".text\n\t" TA__ASM_RESTORE);

/* ta__sum_s8 of a weight row, by words when it is word-aligned (the usual
 * rows: depth a multiple of 4, the tensor aligned in the model): pairs of
 * words by ta__m0_sum_words2, an odd last word by m0_sum_words. */
static int32_t pw_m0_wsum(const int8_t *w, int32_t n) {
    if (((uintptr_t)w & 3u) != 0 || n % 4 != 0) return ta__sum_s8(w, n);
    const int32_t nw = n >> 2;
    uint32_t u = 0;
    int32_t j = 0;
    for (; nw - j >= 2; j += 128) {
        const int32_t m = nw - j < 128 ? nw - j : 128;
        u += ta__m0_sum_words2(w + 4 * j, m >> 1);
        if (m & 1) break;
    }
    if (nw & 1) u += m0_sum_words(w + 4 * (nw - 1), 1);
    return (int32_t)(u - (uint32_t)nw * 512u);
}

/* Up to 4 output channels the 1x1 kernel runs together: their rows (ends),
 * output channels and constants; n of them set. */
typedef struct pw_m0_set {
    const int8_t *rows[4];
    int32_t ch[4];
    ta__rqm rqm[4]; /* for ta__m0_dot1x4_rq (fold inside) */
    ta__rq rq[4];   /* for the C requantisation */
    int n;
} pw_m0_set;

/* n pixels of an adjacent set with the assembly requantisation, from x
 * and op on (xs, os bytes apart): nothing else is live in this loop (GCC's
 * -Os kept the set's fields in spilled locals when it was inline). */
static __attribute__((noinline)) void pw_m0_px_rq(const int8_t *x, int8_t *op, int32_t n, ptrdiff_t xs, ptrdiff_t os,
                                                  const pw_m0_set *s, int32_t depth, const uint32_t *wp) {
    const int8_t *const *rows = s->rows;
    const ta__rqm *k = s->rqm;
    if (wp != NULL)
        for (; n > 0; n--, x += xs, op += os) ta__m0_dot2x4_rq(x, wp, depth, op, k);
    else
        for (; n > 0; n--, x += xs, op += os) ta__m0_dot1x4_rq(x, rows, depth, op, k);
}

/* The deepest layer ta__m0_dot2x4_rq takes: its packed weights, 8 bytes per
 * input channel for the set's 4 channels, sit on the stack (1 KB). */
#define PW_M0_PAIR_DEPTH 128

/* A set's weights packed for ta__m0_dot2x4_rq: word 4i + j is
 * w1 + w0 * 2^16 for channel j's input pair i (w0 = row[2i], w1 =
 * row[2i + 1], as integers, not as bit fields).  False (nothing usable) when
 * a pair is -128, -128, whose two-term dot product can reach 2^15 (that
 * pair's word is 0xFF7FFF80 and no other pair's is).  One pass per call,
 * about 6 instructions a pair, against 2 MACs per pixel saved a pair. */
/* One row of pw_m0_pack from a word-aligned row, a word (two pairs) per
 * pass: 21 instructions per 2 pairs, where GCC's byte loop took 15 a pair.
 *   int ta__m0_pack_row(const int8_t *w, int32_t depth, uint32_t *d);
 * d: the row's first word, the next pair's 16 bytes on; 0 on a pair of -128. */
int ta__m0_pack_row(const int8_t *w, int32_t depth, uint32_t *d);
__asm__(TA__ASM_UNIFIED ".section .text.ta__m0_pack_row,\"ax\",%progbits\n\t"
        ".balign 2\n\t"
        ".global ta__m0_pack_row\n\t"
        ".thumb\n\t"
        ".thumb_func\n\t"
        ".type ta__m0_pack_row, %function\n"
        "ta__m0_pack_row:\n\t"
        "push {r4, r5, r6, r7}\n\t"
        "adds r1, r0, r1\n\t"
        "movs r7, #128\n\t"
        "lsls r7, r7, #16\n\t"
        "adds r7, #127\n\t"
        "mvns r7, r7\n" /* 0xFF7FFF80: the pair -128, -128 */
        "1:\n\t"
        "ldmia r0!, {r3}\n\t"
        "lsls r4, r3, #24\n\t"
        "asrs r4, r4, #8\n\t" /* byte 0 * 2^16 */
        "lsls r5, r3, #16\n\t"
        "asrs r5, r5, #24\n\t" /* byte 1 */
        "adds r4, r4, r5\n\t"
        "cmp r4, r7\n\t"
        "beq 2f\n\t"
        "str r4, [r2]\n\t"
        "asrs r5, r3, #24\n\t" /* byte 3 */
        "lsls r4, r3, #8\n\t"
        "asrs r4, r4, #24\n\t"
        "lsls r4, r4, #16\n\t" /* byte 2 * 2^16 */
        "adds r4, r4, r5\n\t"
        "cmp r4, r7\n\t"
        "beq 2f\n\t"
        "str r4, [r2, #16]\n\t"
        "adds r2, #32\n\t"
        "cmp r0, r1\n\t"
        "bne 1b\n\t"
        "movs r0, #1\n\t"
        "pop {r4, r5, r6, r7}\n\t"
        "bx lr\n"
        "2:\n\t"
        "movs r0, #0\n\t"
        "pop {r4, r5, r6, r7}\n\t"
        "bx lr\n\t"
        ".size ta__m0_pack_row, .-ta__m0_pack_row\n\t"
        ".text\n\t" TA__ASM_RESTORE);

static bool pw_m0_pack(const int8_t *const rows[4], int32_t depth, uint32_t *wp) {
    for (int j = 0; j < 4; j++) {
        const int8_t *w = rows[j] - depth;
        uint32_t *d = wp + j;
        if (((uintptr_t)w & 3u) == 0) {
            if (!ta__m0_pack_row(w, depth, d)) return false;
            continue;
        }
        for (int32_t i = 0; i < depth; i += 2, d += 4) {
            const uint32_t v = (uint32_t)(int32_t)w[i] * 65536u + (uint32_t)(int32_t)w[i + 1];
            if (v == 0xFF7FFF80u) return false;
            *d = v;
        }
    }
    return true;
}

/* Every pixel of set s's 4 channels: by ta__m0_dot2x4_rq on the packed
 * weights wp when given, else with the assembly requantisation when asm_rq
 * (every channel ta__rqm_ch_ok), else the dot products and ta__rq_s8.
 * Adjacent channels are stored in place, others through 4 bytes on the
 * stack. */
static __attribute__((noinline)) void pw_m0_set_loop(const ta_conv_params *p, const int8_t *input, int8_t *output,
                                                     pw_m0_set *s, bool asm_rq, const uint32_t *wp) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t depth = p->filter.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const ptrdiff_t xs = (ptrdiff_t)p->stride_w * in.c, ys = (ptrdiff_t)p->stride_h * in.w * in.c;
    const int32_t c0 = s->ch[0];
    const bool adjacent = s->ch[1] == c0 + 1 && s->ch[2] == c0 + 2 && s->ch[3] == c0 + 3;
    int8_t tmp[4];
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++) {
            const int8_t *x = input + ((ptrdiff_t)b * in.h * in.w * in.c) + (ptrdiff_t)oy * ys;
            int8_t *op = output + ta__nhwc_p(&out, b, oy, 0);
            if (asm_rq && adjacent) {
                /* the common set: a loop of its own, with the row whole
                 * when stride 1 makes the image one run of pixels */
                const bool whole = xs == in.c && out.w == in.w && p->stride_h == 1;
                pw_m0_px_rq(x, op + c0, whole ? out.h * out.w : out.w, xs, out.c, s, depth, wp);
                if (whole) break;
                continue;
            }
            for (int32_t ox = 0; ox < out.w; ox++, x += xs, op += out.c) {
                int8_t *dst = adjacent ? op + c0 : tmp;
                if (wp != NULL) {
                    ta__m0_dot2x4_rq(x, wp, depth, dst, s->rqm);
                } else if (asm_rq) {
                    ta__m0_dot1x4_rq(x, s->rows, depth, dst, s->rqm);
                } else {
                    int32_t acc[4];
                    ta__m0_dot1x4(x, s->rows, depth, acc);
                    for (int j = 0; j < 4; j++) dst[j] = ta__rq_s8(&s->rq[j], ro, (uint32_t)acc[j] + s->rqm[j].fold);
                }
                if (!adjacent) op[s->ch[0]] = tmp[0], op[s->ch[1]] = tmp[1], op[s->ch[2]] = tmp[2], op[s->ch[3]] = tmp[3];
            }
        }
}

/* The packed weights on the stack, in frames of their own so that only a
 * call that packs pays them: 256 B up to depth 32 (the 1x1 layers of
 * person_detect's patch stages, whose band loop is the deepest stack), 1 KB
 * up to PW_M0_PAIR_DEPTH.  False when pw_m0_pack refuses the set. */
static __attribute__((noinline)) bool pw_m0_set_pk32(const ta_conv_params *p, const int8_t *input, int8_t *output,
                                                     pw_m0_set *s) {
    uint32_t wbuf[32 * 2];
    if (!pw_m0_pack(s->rows, p->filter.c, wbuf)) return false;
    pw_m0_set_loop(p, input, output, s, true, wbuf);
    return true;
}
static __attribute__((noinline)) bool pw_m0_set_pk128(const ta_conv_params *p, const int8_t *input, int8_t *output,
                                                      pw_m0_set *s) {
    uint32_t wbuf[PW_M0_PAIR_DEPTH * 2];
    if (!pw_m0_pack(s->rows, p->filter.c, wbuf)) return false;
    pw_m0_set_loop(p, input, output, s, true, wbuf);
    return true;
}

/* Packing costs about 10 instructions per pair of weights and saves about
 * 1.4 per pair and pixel: a call of fewer pixels (the OVERLAP walk's one-row
 * bands of the 6x6 layers) keeps ta__m0_dot1x4_rq. */
#define PW_M0_PAIR_MIN_PX 12

/* Every pixel of set s's channels (a set of fewer than 4 repeats its last
 * channel), by pw_m0_set_loop: packed for ta__m0_dot2x4_rq when the
 * requantisation is the assembly's, the depth at most PW_M0_PAIR_DEPTH and
 * the call has PW_M0_PAIR_MIN_PX pixels, else ta__m0_dot1x4_rq or C. */
static void pw_m0_set_run(const ta_conv_params *p, const int8_t *input, int8_t *output, pw_m0_set *s, bool asm_rq,
                          const uint32_t *pk) {
    if (pk != NULL) { /* the host packed these 4 channels (tinyarena/pw_pack.h) */
        s->n = 0;
        pw_m0_set_loop(p, input, output, s, true, pk);
        return;
    }
    for (int j = s->n; j < 4; j++) {
        s->rows[j] = s->rows[j - 1], s->ch[j] = s->ch[j - 1];
        s->rqm[j] = s->rqm[j - 1], s->rq[j] = s->rq[j - 1];
    }
    s->n = 0;
    const int32_t depth = p->filter.c;
    const ta_dims4 out = p->output;
    if (asm_rq && depth <= PW_M0_PAIR_DEPTH && (ptrdiff_t)out.n * out.h * out.w >= PW_M0_PAIR_MIN_PX &&
        (depth <= 32 ? pw_m0_set_pk32(p, input, output, s) : pw_m0_set_pk128(p, input, output, s)))
        return;
    pw_m0_set_loop(p, input, output, s, asm_rq, NULL);
}

/* The 1x1 convolutions it takes (ta__pw_m0_ok), every output channel:
 *  - a channel whose every window requantises to one byte (ta__pw_const:
 *    the dead channels of vww_96_int8's deep layers, a bias of +-2^30 that
 *    no window sum can move; up to 92% of a layer's channels there) is
 *    filled with that byte, no dot product;
 *  - the others in sets of 4, those the assembly requantisation takes
 *    (ta__rqm_ch_ok) apart from the rest, so that one channel with a long
 *    rounding shift no longer sends its layer to the C requantisation.
 * Only channels whose fold is at least the window's reach are tested for
 * a constant (a window sum then cannot cross 0): the test costs two
 * requantisations, and a live channel's bias is far smaller. */
/* The layer's pack in the armv6-m layout (ta_kernel_pw_pack_m0), if the
 * firmware named one for this filter and shape: a few compares per call,
 * against packing every set's pairs and summing every row again at every
 * row band of the OVERLAP walk. */
static const ta_pw_pack *pw_m0_find(const int8_t *filter, int32_t depth, int32_t channels) {
    const ta_pw_packs *t = &ta__pw_packs;
    for (uint32_t i = 0; i < t->n; i++) {
        const ta_pw_pack *k = &t->packs[i];
        if (k->weights == filter && k->depth == depth && k->channels == channels) return k;
    }
    return NULL;
}

static int32_t pw_m0(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                     int8_t *output) {
    const ta_dims4 out = p->output;
    const int32_t depth = p->filter.c;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const int64_t reach = (int64_t)depth * 16384;
    const ptrdiff_t npx = (ptrdiff_t)out.n * out.h * out.w;
    const ta_pw_pack *pack = pw_m0_find(filter, depth, out.c);
    pw_m0_set sets[2]; /* [1]: the assembly requantisation's, [0]: the rest */
    sets[0].n = sets[1].n = 0;
    for (int32_t oc = 0; oc < out.c; oc++) {
        const int8_t *w = filter + (ptrdiff_t)oc * depth;
        const ta__rq rq = ta__rq_make(&p->q, oc);
        const int32_t wsum = pack ? pack->wsum[oc] : pw_m0_wsum(w, depth);
        const uint32_t fold = ta__fold(bias, oc, p->q.input_offset, wsum);
        const int64_t f = (int32_t)fold;
        int8_t kb;
        if ((f < 0 ? -f : f) >= reach && ta__pw_const(&rq, ro, fold, depth, &kb)) {
            int8_t *op = output + oc;
            for (ptrdiff_t i = 0; i < npx; i++, op += out.c) *op = kb;
            continue;
        }
        const bool asm_rq = ta__rqm_ch_ok(&p->q, oc);
        pw_m0_set *s = &sets[asm_rq];
        s->rows[s->n] = w + depth, s->ch[s->n] = oc, s->rq[s->n] = rq;
        s->rqm[s->n] = ta__rqm_make(&rq, ro);
        s->rqm[s->n].fold = fold;
        if (++s->n == 4) {
            /* the pack's groups are channels 4g .. 4g + 3: a set of them
             * (none constant, all the assembly's) reads its words, at any
             * pixel count and depth */
            const bool grp = pack && asm_rq && s->ch[0] % 4 == 0 && s->ch[3] == s->ch[0] + 3;
            pw_m0_set_run(p, input, output, s, asm_rq, grp ? pack->words + (ptrdiff_t)s->ch[0] * depth / 2 : NULL);
        }
    }
    for (int k = 0; k < 2; k++)
        if (sets[k].n) pw_m0_set_run(p, input, output, &sets[k], k == 1, NULL);
    return out.c;
}

/* Small one-group convolutions (ta__gather_m0_ok: the first layer's 3x3 on
 * RGB): each window gathered once into kp bytes (ta__pw_gather_px) and run
 * against every 4 output channels by the 1x1 assembly.  The weights are
 * copied once into kp-byte rows, zero-extended past K (the dot product
 * reads kp bytes of each row and must not read past the filter); a set of
 * 4 channels whose constants the assembly requantisation does not take
 * (ta__rqm_ch_ok) is requantised in C. */
static int32_t gather_m0(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                         int8_t *output) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t k = p->filter.h * p->filter.w * p->filter.c, kp = (k + 3) & ~3;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    int8_t wbuf[TA__GATHER_M0_BYTES];
    const int8_t *rows[TA__GATHER_M0_CH];
    ta__rq rq[TA__GATHER_M0_CH];
    ta__rqm rqm[TA__GATHER_M0_CH];
    bool asm_rq[TA__GATHER_M0_CH / 4];
    for (int32_t oc = 0; oc < out.c; oc++) {
        int8_t *w = wbuf + oc * kp;
        for (int32_t i = 0; i < kp; i++) w[i] = i < k ? filter[(ptrdiff_t)oc * k + i] : 0;
        rows[oc] = w + kp;
        rq[oc] = ta__rq_make(&p->q, oc);
        rqm[oc] = ta__rqm_make(&rq[oc], ro);
        rqm[oc].fold = ta__fold(bias, oc, p->q.input_offset, pw_m0_wsum(w, kp));
        if (oc % 4 == 0) asm_rq[oc / 4] = true;
        asm_rq[oc / 4] = asm_rq[oc / 4] && ta__rqm_ch_ok(&p->q, oc);
    }
    const ta__pw_gather g = {input, in, p->filter.h, p->filter.w, p->stride_h, p->stride_w, p->dilation_h,
                         p->dilation_w, p->pad_h, p->pad_w, k, kp, (int8_t)-p->q.input_offset};
    uint32_t col[21]; /* one window, kp <= 84 bytes */
    int8_t *op = output;
    for (int32_t b = 0; b < out.n; b++)
        for (int32_t oy = 0; oy < out.h; oy++)
            for (int32_t ox = 0; ox < out.w; ox++, op += out.c) {
                ta__pw_gather_px(&g, b, oy, ox, col);
                for (int32_t c0 = 0; c0 < out.c; c0 += 4) {
                    if (asm_rq[c0 / 4]) {
                        ta__m0_dot1x4_rq((const int8_t *)col, rows + c0, kp, op + c0, rqm + c0);
                        continue;
                    }
                    int32_t acc[4];
                    ta__m0_dot1x4((const int8_t *)col, rows + c0, kp, acc);
                    for (int j = 0; j < 4; j++)
                        op[c0 + j] = ta__rq_s8(&rq[c0 + j], ro, (uint32_t)acc[j] + rqm[c0 + j].fold);
                }
            }
    return out.c;
}

ta_status ta__kv_conv_s8_pw_m0(ta_kernel_args *a) {
    a->done = ta__pw_m0_ok(a->p) ? pw_m0(a->p, a->input, a->weights, a->bias, a->output)
                                 : gather_m0(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}
#endif
