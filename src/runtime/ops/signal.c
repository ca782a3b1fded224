/*
 * TFLM's signal library, the custom ops of the audio front end:
 * SignalWindow, SignalFftAutoScale, SignalRfft (int16 kissfft), SignalEnergy,
 * SignalFilterBank, SignalFilterBankSquareRoot,
 * SignalFilterBankSpectralSubtraction (op state: the noise estimates),
 * SignalPCAN and SignalFilterBankLog.  Their options are a FlexBuffer map,
 * verified in full before a value is read.
 */
#include "runtime/ops/op.h"

#include "tflite/flexbuf.h"

typedef struct count_params {
    size_t n;
} count_params; /* SignalFftAutoScale, SignalFilterBankSquareRoot */

/* clang-format off */
#define TA__PARAMS_T ta_signal_window_params
static const ta__field k_fields_sig_window[] = {
    F(size, TA__F_I32), F(window, TA__F_I32), F(shift, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_window, ta_signal_window_params)

/* clang-format off */
#define TA__PARAMS_T count_params
static const ta__field k_fields_sig_count[] = {
    F(n, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_count, count_params)

/* clang-format off */
#define TA__PARAMS_T ta_signal_rfft_params
static const ta__field k_fields_sig_rfft[] = {
    F(fft_length, TA__F_I32), F(input_length, TA__F_I32), F(frames, TA__F_I32), F(twiddles, TA__F_PTR)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_rfft, ta_signal_rfft_params)

/* clang-format off */
#define TA__PARAMS_T ta_signal_energy_params
static const ta__field k_fields_sig_energy[] = {
    F(count, TA__F_I32), F(start, TA__F_I32), F(end, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_energy, ta_signal_energy_params)

/* clang-format off */
#define TA__PARAMS_T ta_signal_filter_bank_params
static const ta__field k_fields_sig_fb[] = {
    F(num_channels, TA__F_I32), F(input_size, TA__F_I32), F(weights_size, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_fb, ta_signal_filter_bank_params)

/* clang-format off */
#define TA__PARAMS_T ta_signal_spectral_subtraction_params
/* spectral_sub_state (below) reads num_channels from the decoded params */
static const ta__field k_fields_sig_ss[] = {
    F(num_channels, TA__F_I32), F(smoothing, TA__F_I32), F(one_minus_smoothing, TA__F_I32),
    F(alternate_smoothing, TA__F_I32), F(alternate_one_minus_smoothing, TA__F_I32),
    F(min_signal_remaining, TA__F_I32), F(smoothing_bits, TA__F_I32), F(spectral_subtraction_bits, TA__F_I32),
    F(clamping, TA__F_BOOL)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_ss, ta_signal_spectral_subtraction_params)

/* clang-format off */
#define TA__PARAMS_T ta_signal_pcan_params
static const ta__field k_fields_sig_pcan[] = {
    F(num_channels, TA__F_I32), F(snr_shift, TA__F_I32), F(lut_size, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_pcan, ta_signal_pcan_params)

/* clang-format off */
#define TA__PARAMS_T ta_signal_filter_bank_log_params
static const ta__field k_fields_sig_log[] = {
    F(num_channels, TA__F_I32), F(input_correction_bits, TA__F_I32), F(output_scale, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sig_log, ta_signal_filter_bank_log_params)

/* ---- custom options: a FlexBuffer map ---------------------------------- */

/* The op's custom options: a FlexBuffer map, verified in full. */
static ta_status custom_options(ta__op_ctx *c, ta_flex_ref *map) {
    if (!c->op->custom_data || !c->op->custom_data_bytes)
        return ta__op_fail(c, TA_E_MALFORMED, "custom options are missing");
    ta_diag d;
    d.msg[0] = 0;
    ta_status st = ta_flex_root(c->op->custom_data, c->op->custom_data_bytes, map, &d);
    if (st) return ta_diag_set(c->diag, st, "op %u (%s): custom options: %s", c->index, ta__op_ctx_name(c), d.msg);
    if (map->type != TA_FLEX_MAP) return ta__op_fail(c, TA_E_MALFORMED, "custom options are not a FlexBuffer map");
    return TA_OK;
}

/* Integer option `key` of the options map, in [lo, hi]. */
static ta_status opt_int(ta__op_ctx *c, const ta_flex_ref *map, const char *key, int64_t lo, int64_t hi, int64_t *v) {
    ta_flex_ref r;
    ta_status st = ta_flex_map_find(map, key, &r);
    if (st == TA_E_NOT_FOUND)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): custom option '%s' is missing", c->index,
                           ta__op_ctx_name(c), key);
    if (st || ta_flex_int(&r, v))
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): custom option '%s' is not an integer", c->index,
                           ta__op_ctx_name(c), key);
    if (*v < lo || *v > hi)
        return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): custom option '%s' = %lld is outside %lld..%lld",
                           c->index, ta__op_ctx_name(c), key, (long long)*v, (long long)lo, (long long)hi);
    return TA_OK;
}

static ta_status opt_i32(ta__op_ctx *c, const ta_flex_ref *map, const char *key, int64_t lo, int64_t hi, int32_t *out) {
    int64_t v;
    ta_status st = opt_int(c, map, key, lo, hi, &v);
    if (!st) *out = (int32_t)v;
    return st;
}

/* TFLM reads these as int32 into uint32 fields: -1 is 0xFFFFFFFF. */
static ta_status opt_u32(ta__op_ctx *c, const ta_flex_ref *map, const char *key, uint32_t *out) {
    int64_t v;
    ta_status st = opt_int(c, map, key, INT32_MIN, UINT32_MAX, &v);
    if (!st) *out = (uint32_t)(uint64_t)v;
    return st;
}

/* Operand k: present, of type t, of rank `rank` (-1: any rank >= 1). */
static ta_status sig_operand(ta__op_ctx *c, const ta_tensor *t, const char *role, ta_dtype type, int32_t rank) {
    if (!t)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): the %s is missing", c->index, ta__op_ctx_name(c),
                           role);
    if (t->dtype != type) return ta__op_fail_type(c, role, t->dtype);
    if (rank >= 0 ? t->rank != rank : t->rank < 1)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): the %s has rank %d", c->index, ta__op_ctx_name(c),
                           role, t->rank);
    return TA_OK;
}

/* ---- prepare ---------------------------------------------------------- */

static ta_status prep_sig_window(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    const ta_tensor *in = ta__op_in(c, 0), *w = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, -1)) ||
        (st = sig_operand(c, w, "weights", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, out, "output", TA_DTYPE_INT16, in->rank)))
        return st;
    ta_signal_window_params *p = (ta_signal_window_params *)c->params;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "shift", 0, 31, &p->shift))) return st;
    if (ta__op_elems(in) != ta__op_elems(out) || ta__op_elems(w) < 1 || ta__op_elems(in) % ta__op_elems(w) ||
        ta__op_elems(in) > INT32_MAX)
        return ta__op_fail(c, TA_E_MALFORMED, "input and output must be whole frames of the weights");
    p->size = (int32_t)ta__op_elems(in);
    p->window = (int32_t)ta__op_elems(w);
    return TA_OK;
}

static ta_status prep_sig_fft_auto_scale(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 1, 1, 2);
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0), *sb = ta__op_out(c, 1);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, out, "output", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, sb, "scale bits output", TA_DTYPE_INT32, 0)))
        return st;
    if (ta__op_elems(in) != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    ((count_params *)c->params)->n = (size_t)ta__op_elems(in);
    return TA_OK;
}

static ta_status prep_sig_rfft(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, -1)) ||
        (st = sig_operand(c, out, "output", TA_DTYPE_INT16, in->rank)))
        return st;
    ta_signal_rfft_params *p = (ta_signal_rfft_params *)c->params;
    ta_flex_ref map;
    int32_t type;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "T", INT32_MIN, INT32_MAX, &type)) ||
        (st = opt_i32(c, &map, "fft_length", 1, 1 << 24, &p->fft_length)))
        return st;
    if (type != 7) /* TFLite's TensorType_INT16 */
        return ta__op_fail(c, TA_E_UNSUPPORTED, "only the int16 FFT (T = int16) has a kernel");
    const size_t table = ta_signal_rfft_table_count(p->fft_length);
    if (!table)
        return ta__op_fail(c, TA_E_UNSUPPORTED,
                           "fft_length must be 4 times a power of two, or twice one (radix 4 and 2)");
    p->input_length = in->shape[in->rank - 1];
    if (p->input_length < 1 || p->input_length > p->fft_length || ta__op_elems(in) % p->input_length)
        return ta__op_fail(c, TA_E_MALFORMED, "input frames do not fit fft_length");
    p->frames = (int32_t)(ta__op_elems(in) / p->input_length);
    if (out->shape[out->rank - 1] != p->fft_length + 2 || ta__op_elems(out) != (int64_t)p->frames * (p->fft_length + 2))
        return ta__op_fail(c, TA_E_MALFORMED, "output must hold fft_length / 2 + 1 complex values per frame");
    int16_t *tw = ta__op_take(c, table * sizeof(int16_t));
    if (tw) {
        if ((st = ta_signal_rfft_twiddles(p->fft_length, tw))) return ta__op_fail(c, st, "cannot build the twiddles");
        p->twiddles = tw;
    }
    return TA_OK;
}

static ta_status prep_sig_energy(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, out, "output", TA_DTYPE_UINT32, 1)))
        return st;
    ta_signal_energy_params *p = (ta_signal_energy_params *)c->params;
    if (ta__op_elems(in) % 2 || ta__op_elems(out) != ta__op_elems(in) / 2)
        return ta__op_fail(c, TA_E_MALFORMED, "output must have one value per complex input");
    p->count = (int32_t)ta__op_elems(out);
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "start_index", 0, p->count, &p->start)) ||
        (st = opt_i32(c, &map, "end_index", p->start, p->count, &p->end)))
        return st;
    return TA_OK;
}

static ta_status prep_sig_filter_bank(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 6, 6, 1);
    if (st || (st = sig_operand(c, ta__op_in(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, ta__op_out(c, 0), "output", TA_DTYPE_UINT64, 1)))
        return st;
    static const char *const roles[5] = {"weights", "unweights", "channel frequency starts", "channel weight starts",
                                         "channel widths"};
    for (uint32_t k = 1; k <= 5; k++)
        if ((st = sig_operand(c, ta__op_in(c, k), roles[k - 1], TA_DTYPE_INT16, 1))) return st;
    ta_signal_filter_bank_params *p = (ta_signal_filter_bank_params *)c->params;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "num_channels", 0, 1 << 20, &p->num_channels)))
        return st;
    if (ta__op_elems(ta__op_out(c, 0)) != p->num_channels)
        return ta__op_fail(c, TA_E_MALFORMED, "output size differs from num_channels");
    for (uint32_t k = 3; k <= 5; k++)
        if (ta__op_elems(ta__op_in(c, k)) < (int64_t)p->num_channels + 1)
            return ta__op_fail(c, TA_E_MALFORMED, "channel tables need num_channels + 1 entries");
    p->input_size = (int32_t)ta__op_elems(ta__op_in(c, 0));
    const int64_t nw = ta__op_elems(ta__op_in(c, 1)), nu = ta__op_elems(ta__op_in(c, 2));
    p->weights_size = (int32_t)(nw < nu ? nw : nu);
    /* The tables must be constant (as TFLM's front end has them): every
     * band is checked here against the input and weight tables, so the
     * kernel never meets a band prepare did not prove in bounds. */
    const ta_signal_filter_bank_tables t = {ta__op_in(c, 1)->data, ta__op_in(c, 2)->data, ta__op_in(c, 3)->data,
                                            ta__op_in(c, 4)->data, ta__op_in(c, 5)->data};
    if (!t.weights || !t.unweights || !t.freq_starts || !t.weight_starts || !t.widths)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "weight and channel tables must be constant");
    {
        for (uint32_t k = 1; k <= 5; k++)
            if (((uintptr_t)ta__op_in(c, k)->data & 1u) != 0)
                return ta__op_fail(c, TA_E_MALFORMED, "a table is misaligned");
        if (ta_signal_filter_bank_check(p, &t))
            return ta__op_fail(c, TA_E_MALFORMED,
                               "a channel's band or weights fall outside the input or weight tables");
    }
    return TA_OK;
}

static ta_status prep_sig_fb_sqrt(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st || (st = sig_operand(c, ta__op_in(c, 0), "input", TA_DTYPE_UINT64, 1)) ||
        (st = sig_operand(c, ta__op_in(c, 1), "scale bits", TA_DTYPE_INT32, 0)) ||
        (st = sig_operand(c, ta__op_out(c, 0), "output", TA_DTYPE_UINT32, 1)))
        return st;
    if (ta__op_elems(ta__op_in(c, 0)) != ta__op_elems(ta__op_out(c, 0)))
        return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    ((count_params *)c->params)->n = (size_t)ta__op_elems(ta__op_in(c, 0));
    return TA_OK;
}

static ta_status prep_sig_spectral_sub(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 1, 1, 2);
    if (st || (st = sig_operand(c, ta__op_in(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, ta__op_out(c, 0), "output", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, ta__op_out(c, 1), "noise estimate output", TA_DTYPE_UINT32, 1)))
        return st;
    ta_signal_spectral_subtraction_params *p = (ta_signal_spectral_subtraction_params *)c->params;
    ta_flex_ref map;
    int64_t clamping;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "num_channels", 0, 1 << 20, &p->num_channels)) ||
        (st = opt_u32(c, &map, "smoothing", &p->smoothing)) ||
        (st = opt_u32(c, &map, "one_minus_smoothing", &p->one_minus_smoothing)) ||
        (st = opt_u32(c, &map, "alternate_smoothing", &p->alternate_smoothing)) ||
        (st = opt_u32(c, &map, "alternate_one_minus_smoothing", &p->alternate_one_minus_smoothing)) ||
        (st = opt_u32(c, &map, "min_signal_remaining", &p->min_signal_remaining)) ||
        (st = opt_int(c, &map, "clamping", INT64_MIN, INT64_MAX, &clamping)))
        return st;
    int32_t sb, ssb;
    if ((st = opt_i32(c, &map, "smoothing_bits", 0, 31, &sb)) ||
        (st = opt_i32(c, &map, "spectral_subtraction_bits", 0, 63, &ssb)))
        return st;
    p->smoothing_bits = (uint32_t)sb;
    p->spectral_subtraction_bits = (uint32_t)ssb;
    p->clamping = clamping != 0;
    if (ta__op_elems(ta__op_in(c, 0)) != p->num_channels || ta__op_elems(ta__op_out(c, 0)) != p->num_channels ||
        ta__op_elems(ta__op_out(c, 1)) != p->num_channels)
        return ta__op_fail(c, TA_E_MALFORMED, "input and outputs must have num_channels elements");
    c->state = (size_t)p->num_channels * sizeof(uint32_t); /* the noise estimates */
    return TA_OK;
}

static ta_status prep_sig_pcan(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 3, 3, 1);
    if (st || (st = sig_operand(c, ta__op_in(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, ta__op_in(c, 1), "noise estimate", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, ta__op_in(c, 2), "gain table", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, ta__op_out(c, 0), "output", TA_DTYPE_UINT32, 1)))
        return st;
    ta_signal_pcan_params *p = (ta_signal_pcan_params *)c->params;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "snr_shift", 0, 63, &p->snr_shift))) return st;
    const int64_t n = ta__op_elems(ta__op_in(c, 0));
    if (n < 1 || ta__op_elems(ta__op_in(c, 1)) != n || ta__op_elems(ta__op_out(c, 0)) != n)
        return ta__op_fail(c, TA_E_MALFORMED, "input, noise estimate and output sizes differ");
    if (ta__op_elems(ta__op_in(c, 2)) < 125)
        return ta__op_fail(c, TA_E_MALFORMED, "gain table has fewer than 125 entries");
    p->num_channels = (int32_t)n;
    p->lut_size = (int32_t)ta__op_elems(ta__op_in(c, 2));
    return TA_OK;
}

static ta_status prep_sig_fb_log(ta__op_ctx *c) {
    c->path = TA__P_COPY;
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st || (st = sig_operand(c, ta__op_in(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, ta__op_out(c, 0), "output", TA_DTYPE_INT16, 1)))
        return st;
    ta_signal_filter_bank_log_params *p = (ta_signal_filter_bank_log_params *)c->params;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) ||
        (st = opt_i32(c, &map, "input_correction_bits", 0, 31, &p->input_correction_bits)) ||
        (st = opt_i32(c, &map, "output_scale", INT32_MIN, INT32_MAX, &p->output_scale)))
        return st;
    if (ta__op_elems(ta__op_in(c, 0)) != ta__op_elems(ta__op_out(c, 0)))
        return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    p->num_channels = (int32_t)ta__op_elems(ta__op_in(c, 0));
    return TA_OK;
}

/* ---- invoke ------------------------------------------------------------ */

static ta_status run_window(const ta__op_run *r) {
    return ta_kernel_signal_window(r->params, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

static ta_status run_fft_auto_scale(const ta__op_run *r) {
    const count_params *p = r->params;
    return ta_kernel_signal_fft_auto_scale(p->n, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0), ta__op_out_ptr(r, 1));
}

static ta_status run_rfft(const ta__op_run *r) {
    return ta_kernel_signal_rfft_s16(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

static ta_status run_energy(const ta__op_run *r) {
    return ta_kernel_signal_energy(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

static ta_status run_filter_bank(const ta__op_run *r) {
    const ta_signal_filter_bank_tables t = {ta__op_in_ptr(r, 1), ta__op_in_ptr(r, 2), ta__op_in_ptr(r, 3),
                                            ta__op_in_ptr(r, 4), ta__op_in_ptr(r, 5)};
    return ta_kernel_signal_filter_bank(r->params, &t, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

static ta_status run_fb_sqrt(const ta__op_run *r) {
    const count_params *p = r->params;
    const int32_t *bits = ta__op_in_ptr(r, 1);
    if (!bits) return TA_E_INVALID_ARG;
    return ta_kernel_signal_filter_bank_sqrt(p->n, ta__op_in_ptr(r, 0), *bits, ta__op_out_ptr(r, 0));
}

static ta_status run_spectral_sub(const ta__op_run *r) {
    return ta_kernel_signal_spectral_subtraction(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0),
                                                 ta__op_out_ptr(r, 1), r->state);
}

/* The noise estimates: one uint32 per channel. */
static uint32_t spectral_sub_state(const void *params) {
    const ta_signal_spectral_subtraction_params *p = params;
    return p->num_channels > 0 ? (uint32_t)p->num_channels * 4u : 0u;
}

static ta_status run_pcan(const ta__op_run *r) {
    return ta_kernel_signal_pcan(r->params, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_in_ptr(r, 2),
                                 ta__op_out_ptr(r, 0));
}

static ta_status run_fb_log(const ta__op_run *r) {
    return ta_kernel_signal_filter_bank_log(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

/* Record kinds TA__K_SIG_* (op.h), matched by custom name. */
TA__OP_DEF_RAW(ta_op_SignalWindow, TA__K_SIG_WINDOW, "SignalWindow", ta_signal_window_params, k_fields_sig_window,
               TA__CLEAR_PADDING(clear_sig_window), prep_sig_window, run_window, 0, NULL, TA__T(INT16),
               TA__OVERLAP_NONE, NULL);
TA__OP_DEF_RAW(ta_op_SignalFftAutoScale, TA__K_SIG_FFT_AUTO_SCALE, "SignalFftAutoScale", count_params,
               k_fields_sig_count, TA__CLEAR_PADDING(clear_sig_count), prep_sig_fft_auto_scale, run_fft_auto_scale, 0,
               NULL, TA__T(INT16), TA__OVERLAP_NONE, NULL);
TA__OP_DEF_RAW(ta_op_SignalRfft, TA__K_SIG_RFFT, "SignalRfft", ta_signal_rfft_params, k_fields_sig_rfft,
               TA__CLEAR_PADDING(clear_sig_rfft), prep_sig_rfft, run_rfft, 0, NULL, TA__T(INT16), TA__OVERLAP_NONE,
               NULL);
TA__OP_DEF_RAW(ta_op_SignalEnergy, TA__K_SIG_ENERGY, "SignalEnergy", ta_signal_energy_params, k_fields_sig_energy,
               TA__CLEAR_PADDING(clear_sig_energy), prep_sig_energy, run_energy, 0, NULL, TA__T(INT16),
               TA__OVERLAP_NONE, NULL);
TA__OP_DEF_RAW(ta_op_SignalFilterBank, TA__K_SIG_FILTER_BANK, "SignalFilterBank", ta_signal_filter_bank_params,
               k_fields_sig_fb, TA__CLEAR_PADDING(clear_sig_fb), prep_sig_filter_bank, run_filter_bank, 0, NULL,
               TA__T(UINT32), TA__OVERLAP_NONE, NULL);
TA__OP_DEF_RAW(ta_op_SignalFilterBankSquareRoot, TA__K_SIG_FB_SQRT, "SignalFilterBankSquareRoot", count_params,
               k_fields_sig_count, TA__CLEAR_PADDING(clear_sig_count), prep_sig_fb_sqrt, run_fb_sqrt, 0, NULL,
               TA__T(UINT64), TA__OVERLAP_NONE, NULL);
TA__OP_DEF_RAW(ta_op_SignalFilterBankSpectralSubtraction, TA__K_SIG_SPECTRAL_SUB, "SignalFilterBankSpectralSubtraction",
               ta_signal_spectral_subtraction_params, k_fields_sig_ss, TA__CLEAR_PADDING(clear_sig_ss),
               prep_sig_spectral_sub, run_spectral_sub, TA__OP_STATE, spectral_sub_state, TA__T(UINT32),
               TA__OVERLAP_NONE, NULL);
TA__OP_DEF_RAW(ta_op_SignalPCAN, TA__K_SIG_PCAN, "SignalPCAN", ta_signal_pcan_params, k_fields_sig_pcan,
               TA__CLEAR_PADDING(clear_sig_pcan), prep_sig_pcan, run_pcan, 0, NULL, TA__T(UINT32), TA__OVERLAP_NONE,
               NULL);
TA__OP_DEF_RAW(ta_op_SignalFilterBankLog, TA__K_SIG_FB_LOG, "SignalFilterBankLog", ta_signal_filter_bank_log_params,
               k_fields_sig_log, TA__CLEAR_PADDING(clear_sig_log), prep_sig_fb_log, run_fb_log, 0, NULL, TA__T(UINT32),
               TA__OVERLAP_NONE, NULL);
