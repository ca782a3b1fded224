/*
 * tinyarena/types.h -- the few format-free types that the graph (graph.h)
 * and the kernels (kernels.h) share: element types, padding and fused
 * activations.  Kernels need nothing else of the graph.
 */
#ifndef TINYARENA_TYPES_H
#define TINYARENA_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element types.  The numeric values are the IR's own; readers map to them. */
typedef enum ta_dtype {
    TA_DTYPE_UNKNOWN = 0,
    TA_DTYPE_FLOAT32,
    TA_DTYPE_FLOAT16,
    TA_DTYPE_FLOAT64,
    TA_DTYPE_BFLOAT16,
    TA_DTYPE_INT4, /* packed two per byte */
    TA_DTYPE_INT8,
    TA_DTYPE_UINT8,
    TA_DTYPE_INT16,
    TA_DTYPE_UINT16,
    TA_DTYPE_INT32,
    TA_DTYPE_UINT32,
    TA_DTYPE_INT64,
    TA_DTYPE_UINT64,
    TA_DTYPE_BOOL,
    TA_DTYPE_COMPLEX64,
    TA_DTYPE_COMPLEX128,
    TA_DTYPE_STRING,   /* variable length: byte size comes from the data */
    TA_DTYPE_RESOURCE, /* opaque handles (variables) */
    TA_DTYPE_VARIANT,
    TA_DTYPE_COUNT
} ta_dtype;

/* Bytes per element (INT4: 1, meaning "round up n/2"; see ta_dtype_bytes_for);
 * 0 for STRING/RESOURCE/VARIANT/UNKNOWN. */
size_t ta_dtype_size(ta_dtype t);
/* Short lower-case name: "int8", "float32", ... ("unknown" for bad values). */
const char *ta_dtype_str(ta_dtype t);
/* Bytes for `elements` elements of type t (INT4 packs two per byte).
 * Returns TA_E_OVERFLOW on overflow, TA_E_UNSUPPORTED for types without a fixed size. */
ta_status ta_dtype_bytes_for(ta_dtype t, uint64_t elements, size_t *bytes);

/* SAME and VALID are TFLite's; EXPLICIT takes the amounts from
 * ta_op_options.pad_top/left/bottom/right (what a conv gets when a rewrite
 * folds the PAD op before it into it, see rewrite.h). */
typedef enum ta_padding { TA_PAD_SAME = 0, TA_PAD_VALID = 1, TA_PAD_EXPLICIT = 2 } ta_padding;

typedef enum ta_activation {
    TA_ACT_NONE = 0,
    TA_ACT_RELU,
    TA_ACT_RELU_N1_TO_1,
    TA_ACT_RELU6,
    TA_ACT_TANH,
    TA_ACT_SIGN_BIT,
    TA_ACT_SIGMOID
} ta_activation;

#ifdef __cplusplus
}
#endif
#endif
