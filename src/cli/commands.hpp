// The subcommands of attention_cli: each turns parsed options into one JSON document.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/schemes/scheme.hpp"
#include "json_io.hpp"

namespace attn::cli {

struct PeOptions {
  std::string scheme = attn::scheme_name(attn::kLessonScheme);
  int d_model = 0;
  std::vector<int> positions;
  int count = -1;
  double base = 10000.0;
  int max_len = 128;
  int length = 0;             // the fraction scheme's text length, when length_given
  bool length_given = false;  // else the last position + 1
  std::uint64_t seed = 7;
};

struct RouterOptions {
  std::string text;
  std::string positions = "none";
  std::uint64_t seed = 7;
  int d_model = 16;
  int heads = 4;
  int max_len = 128;
};

json run_pe(const PeOptions& o);
json run_attend(const std::string& input_path);
// The same from a parsed document (the input file's JSON object): what run_attend runs after reading.
json run_attend_document(const json& j);
json run_params(int d_model, int heads);
json run_router(const RouterOptions& o);
json run_block(const std::string& input_path);
json run_block_document(const json& j);

}  // namespace attn::cli
