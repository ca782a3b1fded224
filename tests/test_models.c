#define _POSIX_C_SOURCE 200809L
/* Real models from ../shared: every model parses and plans; our buffer list
 * equals TFLM's own (sizes, first and last steps, order); greedy gives
 * TFLM's arena byte for byte; best is never above greedy. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/tflite.h"

typedef struct {
    unsigned char *bytes;
    size_t len;
    ta_tflite_model m;
    ta_graph g;
    void *gmem, *ltmem;
    ta_lifetimes lt;
    int32_t *offline;
    ta_request *reqs;
    size_t n;
} model;

static bool load(const char *path, model *md) {
    memset(md, 0, sizeof *md);
    size_t len;
    unsigned char *raw = ta_test_read_file(path, &len);
    if (!raw) return false;
    /* the reader wants 8-byte aligned bytes; malloc gives 16 */
    md->bytes = raw;
    md->len = len;
    ta_diag d;
    if (ta_tflite_open(&md->m, md->bytes, len, &d)) {
        fprintf(stderr, "%s: %s\n", path, d.msg);
        return false;
    }
    ta_graph_limits lim;
    CHECK(ta_tflite_graph_limits(&md->m, &lim) == TA_OK);
    size_t need = ta_graph_bytes(&lim);
    md->gmem = malloc(need);
    CHECK(ta_graph_init(&md->g, &lim, md->gmem, need) == TA_OK);
    if (ta_tflite_import(&md->m, &md->g, &d)) {
        fprintf(stderr, "%s: import: %s\n", path, d.msg);
        return false;
    }
    ta_tflite_info info;
    ta_tflite_get_info(&md->m, &info);
    if (info.has_offline_offsets) {
        md->offline = calloc(md->g.n_tensors, sizeof *md->offline);
        for (uint32_t sg = 0; sg < md->g.n_subgraphs; sg++) {
            const int32_t *o;
            uint32_t c;
            CHECK(ta_tflite_offline_offsets(&md->m, sg, &o, &c) == TA_OK);
            memcpy(md->offline + md->g.subgraphs[sg].tensor_base, o, c * sizeof *o);
        }
    }
    need = ta_lifetime_bytes(&md->g, 0);
    md->ltmem = malloc(need);
    if (ta_lifetime_analyze(&md->g, NULL, 0, md->ltmem, need, &md->lt, &d)) {
        fprintf(stderr, "%s: lifetimes: %s\n", path, d.msg);
        return false;
    }
    ta_lifetime_options lo = {.align = 16, .offline_offsets = md->offline, .n_offline = md->offline ? md->g.n_tensors : 0};
    size_t n = 0;
    CHECK(ta_lifetime_requests(&md->g, &md->lt, &lo, NULL, NULL, 0, &n, &d) == TA_OK);
    md->reqs = calloc(n ? n : 1, sizeof *md->reqs);
    CHECK(ta_lifetime_requests(&md->g, &md->lt, &lo, md->reqs, NULL, n, &md->n, &d) == TA_OK);
    return true;
}

static void unload(model *md) {
    free(md->bytes);
    free(md->gmem);
    free(md->ltmem);
    free(md->offline);
    free(md->reqs);
}

static size_t plan(const char *strategy, const model *md, bool *ok) {
    const ta_strategy *s = ta_strategy_find(strategy);
    ta_plan_options opt = {0};
    opt.flags = TA_PLAN_ALLOW_FIXED_CONFLICT;
    size_t need;
    ta_plan_scratch_bytes(s, md->reqs, md->n, &opt, &need);
    void *sc = malloc(need);
    size_t *off = malloc((md->n ? md->n : 1) * sizeof *off);
    ta_plan_result r;
    ta_diag d;
    ta_status st = ta_plan_run(s, md->reqs, md->n, &opt, sc, need, off, &r, &d);
    if (st) fprintf(stderr, "%s: %s\n", strategy, d.msg);
    *ok = st == TA_OK;
    free(sc);
    free(off);
    return r.arena_bytes;
}

/* TFLM's list: id,size,first,last[,offline_offset] */
static size_t read_tflm_list(const char *path, ta_request *out, size_t cap) {
    size_t len;
    char *t = (char *)ta_test_read_file(path, &len);
    if (!t) return 0;
    size_t n = 0;
    char *save, *line = strtok_r(t, "\n", &save);
    for (line = strtok_r(NULL, "\n", &save); line && n < cap; line = strtok_r(NULL, "\n", &save)) {
        long id, size, first, last, off = -1;
        int k = sscanf(line, "%ld,%ld,%ld,%ld,%ld", &id, &size, &first, &last, &off);
        if (k < 4) continue;
        out[n] = ta_request_make((size_t)size, (int32_t)first, (int32_t)last);
        if (k == 5 && off >= 0) out[n].fixed = (size_t)off;
        n++;
    }
    free(t);
    return n;
}

int main(void) {
    const char *data = ta_test_data_dir("real models");
    if (!data) return ta_test_finish("test_models");
    char path[2048];
    /* 1. every model in the MANIFEST parses and plans */
    snprintf(path, sizeof path, "%s/models/MANIFEST.tsv", data);
    size_t len;
    char *manifest = (char *)ta_test_read_file(path, &len);
    CHECK(manifest != NULL);
    int n_models = 0;
    char *save, *line = manifest ? strtok_r(manifest, "\n", &save) : NULL;
    for (line = line ? strtok_r(NULL, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = '\0';
        snprintf(path, sizeof path, "%s/models/%s", data, line);
        model md;
        bool ok = load(path, &md);
        CHECK(ok);
        if (ok) {
            bool g_ok, b_ok;
            size_t g = plan("greedy", &md, &g_ok), b = plan("best", &md, &b_ok);
            CHECK(g_ok && b_ok);
            CHECK(b <= g);
            n_models++;
        }
        unload(&md);
    }
    free(manifest);
    CHECK_EQ_U(n_models, 30);
    /* 2. against TFLM's own lists and figures */
    snprintf(path, sizeof path, "%s/models/reference/tflm_reference.tsv", data);
    char *ref = (char *)ta_test_read_file(path, &len);
    CHECK(ref != NULL);
    int compared = 0, greedy_exact = 0;
    line = ref ? strtok_r(ref, "\n", &save) : NULL;
    for (line = line ? strtok_r(NULL, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char name[512], status[512];
        long buffers, scratch, planned;
        if (sscanf(line, "%511[^\t]\t%511[^\t]\t%ld\t%ld\t%ld", name, status, &buffers, &scratch, &planned) != 5) continue;
        snprintf(path, sizeof path, "%s/models/%s", data, name);
        model md;
        if (!load(path, &md)) {
            CHECK(false);
            unload(&md);
            continue;
        }
        char list[1024];
        snprintf(list, sizeof list, "%s", name);
        for (char *p = list; *p; p++)
            if (*p == '/') *p = '_', memmove(p + 1, p, strlen(p) + 1), p++;
        char *dot = strstr(list, ".tflite");
        if (dot) *dot = '\0';
        snprintf(path, sizeof path, "%s/models/reference/tflm_buffers/%s.csv", data, list);
        ta_request want[1024];
        size_t nw = read_tflm_list(path, want, 1024);
        CHECK_EQ_U(nw, (size_t)buffers);
        size_t ntensors = nw - (size_t)scratch;
        bool same = md.n == ntensors;
        for (size_t i = 0; same && i < ntensors; i++) {
            same = md.reqs[i].size == want[i].size && md.reqs[i].first == want[i].first &&
                   md.reqs[i].last == want[i].last && md.reqs[i].fixed == want[i].fixed;
            if (!same)
                fprintf(stderr, "%s: buffer %zu: ours %zu [%d,%d] tflm %zu [%d,%d]\n", name, i, md.reqs[i].size,
                        md.reqs[i].first, md.reqs[i].last, want[i].size, want[i].first, want[i].last);
        }
        if (md.n != ntensors) fprintf(stderr, "%s: %zu buffers, TFLM %zu tensors\n", name, md.n, ntensors);
        CHECK(same);
        compared++;
        if (scratch == 0) {
            bool ok;
            size_t g = plan("greedy", &md, &ok);
            CHECK_EQ_U(g, (size_t)planned);
            greedy_exact += g == (size_t)planned;
        }
        unload(&md);
    }
    free(ref);
    printf("%d models parse and plan; %d buffer lists identical to TFLM's; greedy = TFLM on %d lists without scratch\n",
           n_models, compared, greedy_exact);
    CHECK_EQ_U(compared, 26);
    return ta_test_finish("test_models");
}
