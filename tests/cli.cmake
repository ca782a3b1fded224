# CLI contract tests (shell scripts run against the built binary).
add_test(NAME cli_plan COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_plan.sh)
set_tests_properties(cli_plan PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>"
  TIMEOUT 600)
add_test(NAME cli_run COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.sh)
set_tests_properties(cli_run PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>"
  TIMEOUT 600)
