/* The file side of the programs the header tests compile against an
 * emitted budget header (header_run.c, regions_header.c): the model's bytes
 * into a static buffer of exactly the header's size, the inputs from
 * argv[3..], each output's raw bytes to OUTDIR/outputK.bin.  Header-only;
 * each returns 0, or prints why and returns 1. */
#ifndef TA_TEST_HEADER_IO_H
#define TA_TEST_HEADER_IO_H

#include <stdio.h>

#include "tinyarena/runtime.h"

/* Exactly cap bytes from path into buf (the header's <P>_MODEL_BYTES). */
static int header_io_model(const char *path, unsigned char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    const size_t len = f ? fread(buf, 1, cap, f) : 0;
    if (f) fclose(f);
    if (len != cap) return fprintf(stderr, "model size\n"), 1;
    return 0;
}

/* Input k from argv[3 + k], exactly its bytes. */
static int header_io_inputs(ta_runtime *rt, int argc, char **argv) {
    for (int k = 3; k < argc; k++) {
        const ta_io *in = ta_runtime_input(rt, (uint32_t)(k - 3));
        FILE *fi = in ? fopen(argv[k], "rb") : NULL;
        if (!fi || fread(in->data, 1, in->bytes, fi) != in->bytes) return fprintf(stderr, "input %s\n", argv[k]), 1;
        fclose(fi);
    }
    return 0;
}

/* Every output's bytes to dir/outputK.bin. */
static int header_io_outputs(ta_runtime *rt, const char *dir) {
    for (uint32_t k = 0; k < ta_runtime_output_count(rt); k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/output%u.bin", dir, k);
        FILE *fo = fopen(path, "wb");
        const ta_io *o = ta_runtime_output(rt, k);
        if (!fo || fwrite(o->data, 1, o->bytes, fo) != o->bytes) {
            if (fo) fclose(fo);
            return 1;
        }
        fclose(fo);
    }
    return 0;
}
#endif
