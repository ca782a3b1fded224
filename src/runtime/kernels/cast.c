/*
 * CAST: TFLM's static_cast of every element.  Integer (and bool) values are
 * read as int64 or uint64 and written modulo the output type's range;
 * to float32 they round to nearest.
 */
#include <string.h>

#include "tinyarena/kernels.h"

static bool int_type(ta_dtype t) {
    switch (t) {
    case TA_DTYPE_INT8:
    case TA_DTYPE_UINT8:
    case TA_DTYPE_INT16:
    case TA_DTYPE_UINT16:
    case TA_DTYPE_INT32:
    case TA_DTYPE_UINT32:
    case TA_DTYPE_INT64:
    case TA_DTYPE_UINT64:
    case TA_DTYPE_BOOL: return true;
    default: return false;
    }
}

bool ta_kernel_cast_supported(ta_dtype in_type, ta_dtype out_type) {
    if (in_type == TA_DTYPE_FLOAT32) return out_type == TA_DTYPE_FLOAT32;
    return int_type(in_type) && (int_type(out_type) || out_type == TA_DTYPE_FLOAT32);
}

/* Element i as the low 64 bits of its two's complement value, and whether
 * it is negative (for the conversion to float). */
static uint64_t load(ta_dtype t, const void *p, size_t i, bool *neg) {
    int64_t s = 0;
    uint64_t u = 0;
    bool is_signed = true;
    switch (t) {
    case TA_DTYPE_INT8: s = ((const int8_t *)p)[i]; break;
    case TA_DTYPE_INT16: s = ((const int16_t *)p)[i]; break;
    case TA_DTYPE_INT32: s = ((const int32_t *)p)[i]; break;
    case TA_DTYPE_INT64: memcpy(&s, (const uint8_t *)p + 8 * i, 8); break;
    case TA_DTYPE_UINT8: u = ((const uint8_t *)p)[i], is_signed = false; break;
    case TA_DTYPE_UINT16: u = ((const uint16_t *)p)[i], is_signed = false; break;
    case TA_DTYPE_UINT32: u = ((const uint32_t *)p)[i], is_signed = false; break;
    case TA_DTYPE_UINT64: memcpy(&u, (const uint8_t *)p + 8 * i, 8), is_signed = false; break;
    default: u = ((const uint8_t *)p)[i] != 0, is_signed = false; break; /* bool: one byte */
    }
    *neg = is_signed && s < 0;
    return is_signed ? (uint64_t)s : u;
}

/* The low bits of v as a signed integer of `bits` bits. */
static int64_t sign_narrow(uint64_t v, unsigned bits) {
    const uint64_t m = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1, top = (uint64_t)1 << (bits - 1);
    v &= m;
    return v & top ? -(int64_t)(m - v) - 1 : (int64_t)v;
}

ta_status ta_kernel_cast(size_t n, ta_dtype in_type, const void *input, ta_dtype out_type, void *output) {
    if (n && (!input || !output)) return TA_E_INVALID_ARG;
    if (!ta_kernel_cast_supported(in_type, out_type)) return TA_E_UNSUPPORTED;
    if (in_type == TA_DTYPE_FLOAT32) {
        memmove(output, input, n * sizeof(float));
        return TA_OK;
    }
    for (size_t i = 0; i < n; i++) {
        bool neg;
        const uint64_t v = load(in_type, input, i, &neg);
        switch (out_type) {
        case TA_DTYPE_INT8: ((int8_t *)output)[i] = (int8_t)sign_narrow(v, 8); break;
        case TA_DTYPE_INT16: ((int16_t *)output)[i] = (int16_t)sign_narrow(v, 16); break;
        case TA_DTYPE_INT32: ((int32_t *)output)[i] = (int32_t)sign_narrow(v, 32); break;
        case TA_DTYPE_INT64: {
            const int64_t s = sign_narrow(v, 64);
            memcpy((uint8_t *)output + 8 * i, &s, 8);
            break;
        }
        case TA_DTYPE_UINT8: ((uint8_t *)output)[i] = (uint8_t)v; break;
        case TA_DTYPE_UINT16: ((uint16_t *)output)[i] = (uint16_t)v; break;
        case TA_DTYPE_UINT32: ((uint32_t *)output)[i] = (uint32_t)v; break;
        case TA_DTYPE_UINT64: memcpy((uint8_t *)output + 8 * i, &v, 8); break;
        case TA_DTYPE_BOOL: ((uint8_t *)output)[i] = v != 0; break;
        default: /* float32 */
            ((float *)output)[i] = neg ? (float)(int64_t)v : (float)v;
            break;
        }
    }
    return TA_OK;
}
