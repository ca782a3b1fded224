/*
 * tinyarena/budget.h -- the compile-time budget table.
 *
 * `tinyarena plan MODEL.tflite --header model_arena.h` writes a C header with
 * the arena size and alignment and one ta_budget_entry per planned buffer
 * (where it lives in the arena and for which steps).  Firmware includes it,
 * declares `static uint8_t arena[MODEL_ARENA_BYTES]` and needs no planner
 * code at all: the runtime takes the table as the plan.
 *
 * The header also carries the op constants blob (`<P>_consts`, <P>_CONST_BYTES
 * of flash): every op's precomputed kernel params and per-channel
 * requantisation tables, which the runtime then reads in place instead of
 * building them in the arena (<P>_PERSISTENT_BYTES and <P>_ARENA_BYTES
 * count on it).
 *
 * And it carries the init table (`<P>_init`, <P>_INIT_BYTES of flash): the
 * plan and every decision init would otherwise take by importing the model
 * (each tensor's place, rewrites' shared buffers and elided tensors, each
 * op's record checksum and scratch, the inputs and outputs, and the patch
 * stages of a plan that runs them: <P>_PATCH_STAGES, patch.h).  With both,
 * init builds nothing: <P>_ARENA_BYTES is planned + persistent + alignment
 * slack (15 bytes under TFLM's rule, 7 under the default `arch` rule), the
 * least arena at any address, given for the pointer size of the compiler
 * that includes the header (64-bit hosts, 32-bit MCUs).
 *
 * This header only defines the types the generated header uses, and the
 * model hash that ties a table to the exact model bytes it was made for.
 */
#ifndef TINYARENA_BUDGET_H
#define TINYARENA_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* kind values (match ta_buffer_kind in lifetime.h) */
#define TA_BUDGET_TENSOR 0u
#define TA_BUDGET_SCRATCH 1u

typedef struct ta_budget_entry {
    uint16_t kind;     /* TA_BUDGET_TENSOR or TA_BUDGET_SCRATCH */
    uint16_t subgraph; /* subgraph of the tensor (or of the op owning the scratch) */
    uint32_t index;    /* tensor index inside its subgraph, or scratch request index */
    uint32_t offset;   /* byte offset from the arena start (aligned) */
    uint32_t size;     /* bytes reserved (rounded up to the alignment) */
    int32_t first;     /* first step live (inclusive) */
    int32_t last;      /* last step live (inclusive) */
} ta_budget_entry;

typedef struct ta_budget {
    const char *model_name;         /* file name the table was made from */
    uint64_t model_hash;            /* ta_budget_hash() of the model bytes */
    const char *strategy;           /* planner strategy that made it */
    uint32_t arena_bytes;           /* planned part of the arena */
    uint32_t align;                 /* alignment of the arena start: a multiple of
                                       every entry's (an entry's offset is a multiple of
                                       its own: 16 for all under TFLM's rule) */
    uint32_t count;                 /* entries */
    const ta_budget_entry *entries; /* count entries, in the planner's order */
    /* Appended: headers made before them leave them zero (no blob). */
    const void *consts;             /* op constants blob (ta_runtime_export_consts),
                                       8-byte aligned, in flash; NULL: none */
    uint32_t consts_bytes;          /* its size */
    /* Appended: headers made before it leave it zero (TFLM's graph). */
    uint32_t rewrites;              /* TA_REWRITE_* the table was planned with
                                       (rewrite.h); the runtime applies the same */
    /* Appended: headers made before it leave it zero (init then imports the
     * model and prepares every op in a work block inside the arena's head,
     * which the older, larger <P>_ARENA_BYTES covers). */
    const void *init;               /* the init table (ta_runtime_export_init),
                                       4-byte aligned, in flash: every tensor's
                                       place, every op's scratch and record
                                       checksum, the inputs and outputs -- with
                                       `consts`, init builds nothing on the device
                                       and needs no work block; NULL: none */
    uint32_t init_bytes;            /* its size */
    /* Appended: headers made before it leave it zero (TFLM's rule, which
     * they were planned under). */
    uint32_t align_rule;            /* the alignment rule the table was planned
                                       under (ta_align_rule_code, lifetime.h:
                                       <P>_ALIGN_RULE); the runtime applies the
                                       same and init refuses options naming
                                       another */
} ta_budget;

/* 64-bit FNV-1a of the bytes: cheap, dependency-free, and enough to catch a
 * table used with the wrong model. */
uint64_t ta_budget_hash(const void *bytes, size_t len);

#ifdef __cplusplus
}
#endif
#endif
