/* Built-in example networks, built in code (no files): the demo's inputs. */
#ifndef TA_ZOO_H
#define TA_ZOO_H

#include "tinyarena/graph.h"

typedef struct zoo_net {
    ta_graph g;
    void *mem;         /* graph block (malloc'ed) */
    char names[4096][40];
    int n_names;
} zoo_net;

/* MobileNetV2 1.0 at 224x224x3 (Sandler et al. 2018, Table 2), 1000 classes,
 * ops as TFLite lays them out (no explicit PAD: SAME padding).  dtype is
 * TA_DTYPE_FLOAT32 or TA_DTYPE_INT8.  Returns 0 on success. */
int zoo_mobilenet_v2(zoo_net *z, ta_dtype dtype);
/* The design notes' small CNN: 32x32x1 -> conv 3x3 8 -> maxpool 2 -> conv 3x3 16
 * -> maxpool 2 -> flatten -> dense 10 (int8, VALID padding). */
int zoo_small_cnn(zoo_net *z);
void zoo_free(zoo_net *z);
#endif
