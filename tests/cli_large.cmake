# `plan --strategy optimal --time-limit 1` on 10,000-buffer lists keeps its
# limit (tests/cli_large.sh; plan_optimal_large.c).
add_test(NAME cli_large COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_large.sh)
set_tests_properties(cli_large PROPERTIES
  ENVIRONMENT "TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TA_SANITIZE=${TA_SANITIZE}"
  TIMEOUT 300)
