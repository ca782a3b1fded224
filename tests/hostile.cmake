# Hostile models (tests/test_hostile.c builds them) through every CLI command.
if(TARGET test_hostile)
  add_test(NAME hostile_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/hostile_cli.sh)
  set_tests_properties(hostile_cli PROPERTIES
    ENVIRONMENT "TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_HOSTILE=$<TARGET_FILE:test_hostile>"
    TIMEOUT 600)
endif()
