# test_optimal_beam builds its perfect packings with tests/gen_packing.c.
target_link_libraries(test_optimal_beam PRIVATE ta_gen_models)
# Under the sanitizers test_optimal_beam gives its beam a quarter of its
# random non-tilings, each a full budget spent for nothing (test_random).
if(TA_SANITIZE AND TARGET test_optimal_beam)
  target_compile_definitions(test_optimal_beam PRIVATE TA_TEST_SANITIZED=1)
endif()
