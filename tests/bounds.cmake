# Synthetic models for the scaling tests and benches (tests/gen_models.c).
add_library(ta_gen_models STATIC ${CMAKE_CURRENT_SOURCE_DIR}/gen_models.c)
target_include_directories(ta_gen_models PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
add_executable(gen_model ${CMAKE_CURRENT_SOURCE_DIR}/gen_model_main.c)
target_link_libraries(gen_model PRIVATE ta_gen_models)

# Bounded time on absurd but valid models and lists (tests/bounds.sh).
add_test(NAME bounds COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bounds.sh)
set_tests_properties(bounds PROPERTIES
  ENVIRONMENT "TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_GEN=$<TARGET_FILE:gen_model>;TA_SANITIZE=${TA_SANITIZE}"
  TIMEOUT 900)
