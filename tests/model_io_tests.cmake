# model_io_tests: trained-router JSON files (src/model_io/) round trip bit-identically; broken files fail in words;
# safetensors shards read a tensor at a time.
# Included by tests/CMakeLists.txt (GTest already found there).
attn_gtest(model_io_tests LIBS attention_model_io SOURCES fixtures.cpp test_model_io.cpp test_model_stream.cpp
                                            test_safetensors.cpp)
