/* Loading a .tflite file for the CLI, benches and tests: read, verify,
 * import, and gather the offline offsets; and the list of shared models. */
#include "model_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void model_unload(loaded_model *lm) {
    free(lm->graph_mem);
    free(lm->offline);
    free(lm->bytes);
    memset(lm, 0, sizeof *lm);
}

/* Reads, verifies and imports a .tflite file.  One line on error. */
int model_load(const char *path, loaded_model *lm) {
    memset(lm, 0, sizeof *lm);
    const char *why;
    lm->bytes = cli_read_file_max(path, CLI_MAX_FILE_BYTES, &lm->len, &why);
    if (!lm->bytes) return cli_error("%s: cannot read: %s", path, why);
    ta_diag d;
    ta_status st = ta_tflite_open(&lm->m, lm->bytes, lm->len, &d);
    if (st) return cli_error("%s: %s: %s", path, ta_status_str(st), d.msg);
    ta_graph_limits lim;
    st = ta_tflite_graph_limits(&lm->m, &lim);
    if (st) return cli_error("%s: %s", path, ta_status_str(st));
    size_t need = ta_graph_bytes(&lim);
    if (!need) return cli_error("%s: model too large to import", path);
    lm->graph_mem = cli_xmalloc(need);
    st = ta_graph_init(&lm->g, &lim, lm->graph_mem, need);
    if (!st) st = ta_tflite_import(&lm->m, &lm->g, &d);
    if (st) return cli_error("%s: %s: %s", path, ta_status_str(st), d.msg);
    ta_tflite_info info;
    if (ta_tflite_get_info(&lm->m, &info) == TA_OK && info.has_offline_offsets) {
        /* One offset per tensor of every subgraph, in global tensor order. */
        lm->n_offline = lm->g.n_tensors;
        lm->offline = cli_xcalloc(lm->n_offline, sizeof *lm->offline);
        for (uint32_t sg = 0; sg < lm->g.n_subgraphs; sg++) {
            const int32_t *offs = NULL;
            uint32_t cnt = 0;
            const ta_subgraph *s = &lm->g.subgraphs[sg];
            if (ta_tflite_offline_offsets(&lm->m, sg, &offs, &cnt) != TA_OK || cnt != s->n_tensors)
                return cli_error("%s: offline offsets do not cover subgraph %u", path, sg);
            for (uint32_t k = 0; k < cnt; k++) lm->offline[s->tensor_base + k] = offs[k];
        }
    }
    return CLI_OK;
}


bool model_manifest_read(const char *data, model_manifest *mf) {
    memset(mf, 0, sizeof *mf);
    char path[4096];
    snprintf(path, sizeof path, "%s/models/MANIFEST.tsv", data);
    size_t len;
    mf->text = (char *)cli_read_file(path, &len);
    if (!mf->text) return false;
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += mf->text[i] == '\n';
    mf->files = cli_xcalloc(lines, sizeof *mf->files);
    bool header = true;
    for (char *line = mf->text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        if (header) {
            header = false;
            continue;
        }
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = '\0';
        if (strlen(line) > 1024) continue;
        mf->files[mf->n++] = line;
    }
    return true;
}

void model_manifest_free(model_manifest *mf) {
    free(mf->files);
    free(mf->text);
    memset(mf, 0, sizeof *mf);
}
