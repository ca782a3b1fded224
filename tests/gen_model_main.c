/* gen_model KIND N OUT.tflite: writes a synthetic model (see gen_models.h). */
#include <stdio.h>
#include <stdlib.h>

#include "gen_models.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: gen_model KIND N OUT.tflite\nkinds:");
        for (int i = 0; gen_model_kinds[i]; i++) fprintf(stderr, " %s", gen_model_kinds[i]);
        fputc('\n', stderr);
        return 2;
    }
    char *end;
    unsigned long n = strtoul(argv[2], &end, 10);
    size_t len;
    unsigned char *b = *end || !n || n > 0x1000000ul ? NULL : gen_model(argv[1], (uint32_t)n, &len);
    if (!b) {
        fprintf(stderr, "gen_model: bad kind '%s' or count '%s'\n", argv[1], argv[2]);
        return 2;
    }
    FILE *f = fopen(argv[3], "wb");
    int rc = f && fwrite(b, 1, len, f) == len ? 0 : 1;
    if (f && fclose(f)) rc = 1;
    if (rc) fprintf(stderr, "gen_model: cannot write %s\n", argv[3]);
    free(b);
    return rc;
}
