/*
 * Internal: a bounds-checked reader for FlexBuffers, the schema-less format
 * TFLite uses for custom op options (op->custom_data).
 *
 * The format, as far as this reader goes (all integers little-endian):
 *  - the buffer ends with the root: its value (`w` bytes), its packed type
 *    (one byte) and w itself (one byte: 1, 2, 4 or 8);
 *  - a packed type is `type << 2 | log2(bit width / 8)`;
 *  - NULL, INT, UINT, FLOAT and BOOL are stored inline, in the parent's
 *    width; every other type is an unsigned offset (parent's width) counted
 *    back from where the offset is stored, and the packed type's width is
 *    the width of what it points to;
 *  - a vector is `size` then `size` elements, each in the vector's width;
 *    an untyped vector (VECTOR, MAP) follows them with one packed type byte
 *    per element; typed vectors (VECTOR_INT, ...) have no type bytes;
 *    VECTOR_INT2..VECTOR_FLOAT4 have no size either (2, 3 or 4 elements);
 *  - a MAP is an untyped vector of values preceded by two more words (in
 *    its width): the offset of its keys vector (a VECTOR_KEY of the same
 *    size, in the width given by the second word) and that width;
 *  - a KEY is a NUL-terminated string; a STRING and a BLOB are `size` then
 *    the bytes (a STRING also ends with a NUL).
 *
 * ta_flex_root() verifies everything reachable from the root once: every
 * offset, count and width, every key terminated, every packed type known,
 * with a depth limit and a work limit linear in the buffer size (offsets may
 * make a DAG).  Nothing is trusted before that: a malformed buffer gives
 * TA_E_MALFORMED with a one-line diag, never a read outside [buf, buf+len).
 * The lookups below re-check their own bounds as well, so a ref made by hand
 * cannot read out of bounds either.
 */
#ifndef TA_TFLITE_FLEXBUF_H
#define TA_TFLITE_FLEXBUF_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"

enum {
    TA_FLEX_NULL = 0,
    TA_FLEX_INT = 1,
    TA_FLEX_UINT = 2,
    TA_FLEX_FLOAT = 3,
    TA_FLEX_KEY = 4,
    TA_FLEX_STRING = 5,
    TA_FLEX_INDIRECT_INT = 6,
    TA_FLEX_INDIRECT_UINT = 7,
    TA_FLEX_INDIRECT_FLOAT = 8,
    TA_FLEX_MAP = 9,
    TA_FLEX_VECTOR = 10,
    TA_FLEX_VECTOR_INT = 11,
    TA_FLEX_VECTOR_UINT = 12,
    TA_FLEX_VECTOR_FLOAT = 13,
    TA_FLEX_VECTOR_KEY = 14,
    TA_FLEX_VECTOR_STRING = 15, /* deprecated in the format, still readable */
    TA_FLEX_VECTOR_INT2 = 16,   /* ... through VECTOR_FLOAT4 = 24 */
    TA_FLEX_VECTOR_FLOAT4 = 24,
    TA_FLEX_BLOB = 25,
    TA_FLEX_BOOL = 26,
    TA_FLEX_VECTOR_BOOL = 36
};

/* A value inside a buffer. */
typedef struct ta_flex_ref {
    const uint8_t *buf; /* the whole buffer */
    size_t len;
    size_t at;     /* inline scalars: where the value is stored; other types:
                      where the offset points (a vector's first element) */
    uint8_t type;  /* TA_FLEX_* */
    uint8_t width; /* inline scalars: the stored bytes (the parent's width);
                      other types: the width of the target's size and elements */
} ta_flex_ref;

/* Verifies `len` bytes as a FlexBuffer (see above) and gives its root.
 * TA_E_INVALID_ARG for NULL arguments; TA_E_MALFORMED, naming the problem
 * and its byte offset, for anything else wrong. */
ta_status ta_flex_root(const void *buf, size_t len, ta_flex_ref *root, ta_diag *d);

/* Elements of a vector or map, bytes of a string or blob; 0 for scalars. */
size_t ta_flex_size(const ta_flex_ref *r);

/* Element i of a vector (any kind) or value i of a map.  TA_E_NOT_FOUND when
 * i is out of range, TA_E_MALFORMED when r is not a vector or map or the
 * element is out of bounds. */
ta_status ta_flex_index(const ta_flex_ref *r, size_t i, ta_flex_ref *out);

/* Key i of a map (NUL-terminated, inside the buffer). */
ta_status ta_flex_key_at(const ta_flex_ref *map, size_t i, const char **key);

/* The value of `key` in a map.  TA_E_NOT_FOUND when it has no such key,
 * TA_E_MALFORMED when map is not a map. */
ta_status ta_flex_map_find(const ta_flex_ref *map, const char *key, ta_flex_ref *out);

/* An integer: INT and INDIRECT_INT sign-extended, UINT, INDIRECT_UINT and
 * BOOL zero-extended.  TA_E_MALFORMED for other types and for an unsigned
 * value above INT64_MAX. */
ta_status ta_flex_int(const ta_flex_ref *r, int64_t *v);

#endif
