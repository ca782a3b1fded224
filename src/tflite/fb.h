/*
 * fb.h -- a small bounds-checked FlatBuffers reader (internal).
 *
 * Reads the FlatBuffers binary format in place: little-endian scalars, a
 * root uoffset at byte 0, an optional 4-byte file identifier at bytes 4..7,
 * tables that find their vtable through a signed soffset, u16 vtable
 * entries, and vectors/strings stored as a u32 count followed by the
 * elements (strings also end with a NUL byte).  It knows no schema: callers
 * name field slots and element sizes.
 *
 * Every call checks before it reads:
 *   - bounds: nothing is read outside [0, len); all position arithmetic is
 *     done in 64 bits so it cannot wrap;
 *   - alignment, only where a typed pointer is handed out: a non-empty
 *     vector's count at a multiple of 4 (counted from the buffer start; the
 *     caller makes the start 8-aligned in memory, see ta_tflite_open), so its
 *     4-byte elements are aligned.  Nothing else: scalars, tables and vtables
 *     are read byte by byte at any position, empty vectors may sit anywhere,
 *     and 8-byte elements may sit at 4 mod 8 (ta_fb_vec.aligned says so; the
 *     caller copies those).  TFLM checks no alignment at all, and real
 *     converter output has misaligned int64 zero-point vectors;
 *   - offsets: a uoffset must be non-zero (may not point to itself) and
 *     below 2^31, a vtable must be inside the buffer, at least 4 bytes, even
 *     in size, and every present field must lie inside its table's inline
 *     size;
 *   - counts: a vector's count x element size must fit in the bytes that
 *     follow it, so a count of 0xFFFFFFFF in a small file fails at once;
 *   - work: ta_fb_charge() debits a budget set at init; the schema walker
 *     charges per table opened and per vector element it visits, so a file
 *     whose offsets alias (many entries pointing at one big table) fails
 *     instead of taking quadratic time.
 * Nothing here recurses; the nesting depth is the caller's schema depth.
 *
 * What is kept, and why (TFLM's loader verifies nothing, so everything here
 * is stricter than TFLM; these are the checks memory safety needs):
 *   bounds of every position and count (no read outside the file), uoffsets
 *   non-zero and below 2^31 (no self loop, no wrap), vtable and table sizes
 *   (no field read past its table), string NUL terminators (names are used
 *   as C strings), the work budget (no quadratic time), and 4-alignment of
 *   non-empty vectors of offsets/4-byte scalars (typed pointers, above).
 *
 * Calls return true on success.  On failure they return false and record a
 * short static reason and the offending byte offset in the ta_fb (why, at),
 * which the caller turns into a diagnostic with its own context.  Once a
 * call failed the values it wrote are unspecified.
 */
#ifndef TA_TFLITE_FB_H
#define TA_TFLITE_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ta_fb {
    const uint8_t *p;    /* the buffer (not owned) */
    size_t len;          /* its length in bytes */
    uint64_t work;       /* units charged so far */
    uint64_t work_limit; /* ta_fb_charge fails beyond this */
    const char *why;     /* last failure: static text, e.g. "vector out of bounds" */
    uint64_t at;         /* last failure: offending byte offset */
} ta_fb;

/* A verified table: its position, its vtable and sizes. */
typedef struct ta_fb_table {
    size_t pos;        /* byte offset of the table (its soffset) */
    size_t vt;         /* byte offset of its vtable */
    uint16_t vt_size;  /* vtable bytes (>= 4) */
    uint16_t size;     /* table inline bytes (>= 4) */
} ta_fb_table;

/* A verified vector (or string): `n` elements of `elem` bytes at `pos`. */
typedef struct ta_fb_vec {
    size_t pos;     /* byte offset of element 0 (just after the count) */
    uint32_t n;     /* element count (string: bytes, without the NUL) */
    uint32_t elem;  /* element size in bytes */
    bool present;   /* false when the field was absent (n == 0 then) */
    bool aligned;   /* elements at a multiple of elem from the buffer start */
} ta_fb_vec;

/* The `why` text of a work-limit failure (compare with strcmp). */
#define TA_FB_WORK_EXCEEDED "work limit exceeded"

/* Starts reading p[0..len) with a work budget of `work_limit` units. */
void ta_fb_init(ta_fb *fb, const void *p, size_t len, uint64_t work_limit);

/* Debits `units` from the work budget; false ("work limit exceeded") when
 * the total would pass work_limit. */
bool ta_fb_charge(ta_fb *fb, uint64_t units);

/* Checks the header (length >= 8, identifier `ident` of 4 chars at bytes
 * 4..7 when ident is non-NULL) and verifies the root table. */
bool ta_fb_root(ta_fb *fb, const char *ident, ta_fb_table *root);

/* Verifies the table whose soffset is at byte `pos`. */
bool ta_fb_table_at(ta_fb *fb, uint64_t pos, ta_fb_table *t);

/* Scalar fields: `slot` is the field's slot id; an absent field yields `def`.
 * The field must lie inside the table and be aligned to its size. */
bool ta_fb_u8(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint8_t def, uint8_t *out);
bool ta_fb_i8(ta_fb *fb, const ta_fb_table *t, unsigned slot, int8_t def, int8_t *out);
bool ta_fb_bool(ta_fb *fb, const ta_fb_table *t, unsigned slot, bool def, bool *out);
bool ta_fb_u32(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint32_t def, uint32_t *out);
bool ta_fb_i32(ta_fb *fb, const ta_fb_table *t, unsigned slot, int32_t def, int32_t *out);
bool ta_fb_u64(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint64_t def, uint64_t *out);
bool ta_fb_f32(ta_fb *fb, const ta_fb_table *t, unsigned slot, float def, float *out);

/* A sub-table field; *present says whether it was there. */
bool ta_fb_table_field(ta_fb *fb, const ta_fb_table *t, unsigned slot, ta_fb_table *out,
                       bool *present);

/* A vector field of scalars of `elem` bytes (1, 2, 4 or 8) or of offsets
 * (elem 4).  Absent: out->present = false, n = 0. */
bool ta_fb_vector(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint32_t elem, ta_fb_vec *out);

/* A string field: also checks the NUL after the last byte.  Absent: *s = NULL. */
bool ta_fb_string(ta_fb *fb, const ta_fb_table *t, unsigned slot, const char **s, uint32_t *n);

/* Element i (< v->n, the caller's promise) of a vector of tables, verified. */
bool ta_fb_vec_table(ta_fb *fb, const ta_fb_vec *v, uint32_t i, ta_fb_table *out);

/* Element i (< v->n) of a verified scalar vector.  No checks beyond the
 * vector's own: the vector call already proved every element in bounds. */
int32_t ta_fb_vec_i32(const ta_fb *fb, const ta_fb_vec *v, uint32_t i);
uint32_t ta_fb_vec_u32(const ta_fb *fb, const ta_fb_vec *v, uint32_t i);

/* Pointer to a verified vector's first element (inside the buffer). */
const void *ta_fb_vec_data(const ta_fb *fb, const ta_fb_vec *v);

/* Little-endian loads at any byte position (no alignment needed).  The
 * caller guarantees pos + size <= len. */
uint16_t ta_fb_ld16(const uint8_t *p);
uint32_t ta_fb_ld32(const uint8_t *p);
uint64_t ta_fb_ld64(const uint8_t *p);

#endif
