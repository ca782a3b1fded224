# Synthetic models and perfect packings for tests and benches
# (tests/gen_models.c, tests/gen_packing.c).
add_library(ta_gen_models STATIC ${CMAKE_CURRENT_SOURCE_DIR}/gen_models.c ${CMAKE_CURRENT_SOURCE_DIR}/gen_packing.c)
target_include_directories(ta_gen_models PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/include)
add_executable(gen_model ${CMAKE_CURRENT_SOURCE_DIR}/gen_model_main.c)
target_link_libraries(gen_model PRIVATE ta_gen_models)

# Bounded time on absurd but valid models and lists (tests/bounds.sh).
add_test(NAME bounds COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bounds.sh)
set_tests_properties(bounds PROPERTIES
  ENVIRONMENT "TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_GEN=$<TARGET_FILE:gen_model>;TA_SANITIZE=${TA_SANITIZE}"
  TIMEOUT 900)

# test_optimal checks the exact planner on perfect packings.
target_link_libraries(test_optimal PRIVATE ta_gen_models)
