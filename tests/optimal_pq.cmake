# test_optimal_pq builds its perfect packings with tests/gen_packing.c.
target_link_libraries(test_optimal_pq PRIVATE ta_gen_models)
