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
