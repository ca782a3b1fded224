/* gen_models.h -- synthetic .tflite files for the scaling tests and benches.
 *
 * A tiny FlatBuffer writer of its own (front to back: every offset points
 * forward and is patched once its target is written) builds valid TFLite
 * models of any size without files from outside the repository:
 *
 *   chain N     one float32 [1,16] input, N LOGISTIC ops in a chain (t0 -> t1 ->
 *               ... -> tN), tN the output: about 140 B per op
 *   outputs N   one input read by N LOGISTIC ops whose N outputs are all graph
 *               outputs
 *   calls N     N + 1 subgraphs: subgraph k (k < N) is one CALL of subgraph
 *               k + 1, subgraph N one LOGISTIC (control flow nested N deep)
 *   alias N     one LOGISTIC whose subgraph lists N + 1 tensors, every entry an
 *               offset to the same Tensor table (N x 4 bytes of offsets)
 *   dynamic N   chain N with every shape [-1, 16] (an unknown batch)
 *   shared N    N constant tensors that all use buffer 1 (one 64 B table
 *               entry), each added to the running sum of a chain of N ADDs
 *
 * Host-side helper (malloc); returns NULL on an unknown kind or n == 0.
 */
#ifndef TA_GEN_MODELS_H
#define TA_GEN_MODELS_H

#include <stddef.h>
#include <stdint.h>

/* The model bytes (malloc'd, the caller frees) and their length. */
unsigned char *gen_model(const char *kind, uint32_t n, size_t *len);

/* The kinds gen_model knows, NULL-terminated. */
extern const char *const gen_model_kinds[];
#endif
