# CLI end-to-end tests: attention_cli against the numpy reference (Debian's python3-numpy).
add_test(NAME cli_end_to_end
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.py
         WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(cli_end_to_end PROPERTIES ENVIRONMENT "ATTENTION_CLI=$<TARGET_FILE:attention_cli>")
