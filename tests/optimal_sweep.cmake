# test_optimal_sweep builds its perfect packings with tests/gen_packing.c.
target_link_libraries(test_optimal_sweep PRIVATE ta_gen_models)
