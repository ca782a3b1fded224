# Synthetic models for the scaling tests and benches (tests/gen_models.c).
add_library(ta_gen_models STATIC ${CMAKE_CURRENT_SOURCE_DIR}/gen_models.c)
target_include_directories(ta_gen_models PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
add_executable(gen_model ${CMAKE_CURRENT_SOURCE_DIR}/gen_model_main.c)
target_link_libraries(gen_model PRIVATE ta_gen_models)
