# test_optimal_beam builds its perfect packings with tests/gen_packing.c.
target_link_libraries(test_optimal_beam PRIVATE ta_gen_models)
