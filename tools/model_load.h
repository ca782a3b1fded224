#ifndef TA_MODEL_LOAD_H
#define TA_MODEL_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/tflite.h"

typedef struct {
    unsigned char *bytes;
    size_t len;
    ta_tflite_model m;
    ta_graph g;
    void *graph_mem;
    int32_t *offline; /* per global tensor, or NULL */
    size_t n_offline;
} loaded_model;

/* Reads, verifies and imports a .tflite file; offline offsets (if any) per
 * global tensor.  Prints one line and returns CLI_FAIL on error; call
 * model_unload either way. */
int model_load(const char *path, loaded_model *lm);
void model_unload(loaded_model *lm);
#endif
