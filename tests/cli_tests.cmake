# CLI end-to-end tests: attention_cli against the numpy reference (Debian's python3-numpy); cli_test.py has
# the subcommands, cli_bad_input_test.py bad and hostile input, cli_train_test.py training and model files,
# cli_heads_test.py the heads' role scores and heads switched off (train --off, --ablate, --dump), against
# heads_reference.py, cli_relative_test.py the relative scheme, cli_lm_test.py llama2.c checkpoints (lm)
# against lm_reference.py.
add_test(NAME cli_end_to_end
         COMMAND /usr/bin/python3 -m unittest cli_test cli_bad_input_test cli_train_test cli_heads_test
                 cli_relative_test cli_lm_test
         WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(cli_end_to_end PROPERTIES ENVIRONMENT "ATTENTION_CLI=$<TARGET_FILE:attention_cli>")

# attention_cli tokenize against GPT-2's own BPE (the npm package gpt-3-encoder, driven by
# gpt2_bpe_reference.mjs in node; tests/browser/prepare.sh installs the packages when missing) and the Unicode
# table against Python's unicodedata (scripts/gen_unicode_classes.py --check).
add_test(NAME tokenizer_reference COMMAND /usr/bin/python3 -m unittest tokenizer_reference_test
         WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(tokenizer_reference PROPERTIES ENVIRONMENT "ATTENTION_CLI=$<TARGET_FILE:attention_cli>")
