/* Buffer lists as CSV, in either of two layouts told apart by the header:
 *  - MiniMalloc: id,lower,upper,size[,alignment][,offset]; [lower, upper) is
 *    half-open, and this is the one place it becomes the core's inclusive
 *    [first, last] (last = upper - 1);
 *  - TFLM's planner lists: id,size,first,last[,offline_offset]; [first, last]
 *    inclusive, as in the core.
 * Columns may come in any order; `align` is accepted for `alignment`, and an
 * offset (or offline_offset) of -1 or empty means the buffer is not fixed.
 * Optional overlap relations (either layout): `overlap_with` names the id of
 * the buffer this row's buffer may be written over (empty: none),
 * `overlap_d` its d in bytes (signed), `overlap_kind` `above` (default) or
 * `below`; the row's buffer is the relation's y (see ta_overlap).
 * Optional `region` (plan --region): the name of the region the buffer is
 * pinned to (empty: the planner chooses). */
#ifndef TA_BUFFERS_CSV_H
#define TA_BUFFERS_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "tinyarena/plan.h"

typedef struct {
    size_t n;
    ta_request *reqs;
    char **ids;        /* per buffer */
    char **lines;      /* raw row text per buffer, for --offsets */
    size_t *lineno;    /* 1-based line of each buffer */
    char *header;      /* raw header row */
    int ncols, col_offset; /* col_offset -1 when absent */
    bool has_align;
    ta_overlap *overlaps; /* n_overlaps relations, in row order (NULL: none) */
    size_t n_overlaps;
    char **regions;    /* per buffer: the region it is pinned to, or NULL */
    bool has_regions;  /* some row names a region */
} buffer_list;

/* Reads path.  min_align (>= 1) raises every buffer's alignment.  On error
 * prints "tinyarena: FILE:LINE: problem" and returns false. */
bool buffers_csv_read(const char *path, size_t min_align, buffer_list *out);
/* Writes the input columns plus `offset`. */
bool buffers_csv_write_offsets(const char *path, const buffer_list *bl, const size_t *offsets);
/* Writes a list in the same format (export from models). ids may be NULL (row index). */
bool buffers_csv_write(const char *path, const ta_request *reqs, size_t n, const char *const *ids,
                       const size_t *offsets);
void buffers_csv_free(buffer_list *bl);
#endif
