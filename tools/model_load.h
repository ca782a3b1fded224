#ifndef TA_MODEL_LOAD_H
#define TA_MODEL_LOAD_H

#include <stdbool.h>
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

/* The model files DATA_DIR/models/MANIFEST.tsv lists: its first column (such
 * as "tflm/person_detect.tflite", relative to DATA_DIR/models), header row
 * skipped, in the manifest's order. */
typedef struct {
    char *text;   /* the manifest, cut into the names */
    char **files; /* n names */
    size_t n;
} model_manifest;

/* False when the manifest cannot be read; call model_manifest_free either way. */
bool model_manifest_read(const char *data, model_manifest *mf);
void model_manifest_free(model_manifest *mf);
#endif
