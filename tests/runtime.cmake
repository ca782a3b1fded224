# test_runtime counts allocations by wrapping malloc/calloc/realloc at link
# time, to prove the runtime calls none from init to the end of invoke.
if(TARGET test_runtime)
  target_link_options(test_runtime PRIVATE "LINKER:--wrap=malloc,--wrap=calloc,--wrap=realloc")
endif()
# The same end-to-end checks on the rewritten graphs (rewrite.h): every
# model, case, strategy, scratch mode, poison, table, budget and const blob,
# byte-identical to TFLM with every rewrite on.
if(TARGET test_runtime)
  add_test(NAME test_runtime_rewrite COMMAND test_runtime --rewrite all)
  set_tests_properties(test_runtime_rewrite PROPERTIES
    ENVIRONMENT "TINYARENA_DATA=${TA_DATA}"
    TIMEOUT 900)
endif()
# And under the other alignment rules (issue 17; test_runtime itself runs
# the default, arch 4): element-size alignment only (dtype), and TFLM's 16,
# every mode (poison included), byte-identical to TFLM.
if(TARGET test_runtime)
  foreach(rule dtype tflm)
    add_test(NAME test_runtime_align_${rule} COMMAND test_runtime --align-rule ${rule})
    set_tests_properties(test_runtime_align_${rule} PROPERTIES
      ENVIRONMENT "TINYARENA_DATA=${TA_DATA}"
      TIMEOUT 900)
  endforeach()
endif()
# Patch-based execution (patch.h): every model, case, strategy, scratch
# mode, poison and const blob with every rewrite and patch stages of at most
# 10% extra MACs, byte-identical to TFLM.
if(TARGET test_runtime)
  add_test(NAME test_runtime_patch COMMAND test_runtime --patch 10)
  set_tests_properties(test_runtime_patch PROPERTIES
    ENVIRONMENT "TINYARENA_DATA=${TA_DATA}"
    TIMEOUT 900)
endif()
# The fast kernels' SSE2 build (the x86-64 baseline; the default run above
# takes the widest build the CPU has): every model and case, byte-identical
# to TFLM.  The plan does not change what a kernel computes, so one strategy
# (greedy) with the table, blob, budget and poison modes (TA_RUNTIME_QUICK).
if(TARGET test_runtime)
  add_test(NAME test_runtime_sse2 COMMAND test_runtime --x86 sse2)
  set_tests_properties(test_runtime_sse2 PROPERTIES
    ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TA_RUNTIME_QUICK=1"
    TIMEOUT 900)
endif()
