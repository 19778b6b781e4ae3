// libFuzzer target: the CLI's attend/block input. parse_json_object(text), then run_attend_document and
// run_block_document, and the output serialised as the CLI prints it. attn::InputError and
// nlohmann::json::exception are the expected answers to bad input; a result must hold only finite numbers
// (an overflow is an error, never a silent NaN printed as null). Anything else (a crash, a sanitizer
// report, another exception, a huge allocation under -malloc_limit_mb, a timeout) is a finding.
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/commands.hpp"
#include "cli/json_io.hpp"
#include "core/error.hpp"

namespace {

// While fuzzing, inputs that only repeat the same code on more numbers are skipped, so that the target
// stays fast: texts over 64 bytes, x with over 64 rows (or batch items) or rows over 64 wide, d_model over
// 256 or d_ff over 1024 (a block at d_model 1024 takes 4 s under ASan). A replay of saved files (a
// regression or a reproducer) runs every input in full. Documents over 64 KB are always skipped.
constexpr size_t kMaxInput = 64 * 1024;
constexpr size_t kMaxText = 64;
constexpr size_t kMaxRows = 64;
bool g_cap_work = true;

bool number_above(const attn::cli::json& doc, const char* name, double limit) {
  const auto v = doc.find(name);
  return v != doc.end() && v->is_number() && v->get<double>() > limit;
}

bool too_much_work(const attn::cli::json& doc) {
  if (number_above(doc, "d_model", 256) || number_above(doc, "d_ff", 1024)) return true;
  const auto text = doc.find("text");
  if (text != doc.end() && text->is_string() && text->get_ref<const std::string&>().size() > kMaxText)
    return true;
  const auto x = doc.find("x");
  if (x == doc.end() || !x->is_array()) return false;
  return x->size() > kMaxRows || (!x->empty() && (*x)[0].is_array() && (*x)[0].size() > kMaxRows);
}

// Does every number in the (shallow) result document hold a finite value?
bool all_finite(const attn::cli::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_array() || j.is_object()) {
    for (const auto& item : j) {
      if (!all_finite(item)) return false;
    }
  }
  return true;
}

}  // namespace

// Given files (not folders) on the command line, libFuzzer only replays them: no cap then.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  for (int i = 1; i < *argc; ++i) {
    struct stat st {};
    if ((*argv)[i][0] != '-' && stat((*argv)[i], &st) == 0 && S_ISREG(st.st_mode)) g_cap_work = false;
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  if (size > kMaxInput) return -1;  // -1: not added to the corpus
  attn::cli::json doc;
  try {
    doc = attn::cli::parse_json_object(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const attn::InputError&) {
    return 0;
  } catch (const nlohmann::json::exception&) {
    return 0;
  }
  if (g_cap_work && too_much_work(doc)) return -1;
  for (int command = 0; command < 2; ++command) {
    try {
      const attn::cli::json out =
          command == 0 ? attn::cli::run_attend_document(doc) : attn::cli::run_block_document(doc);
      if (!all_finite(out)) {
        std::fprintf(stderr, "finding: fuzz_attend_block: %s printed a non-finite number: %.300s\n",
                     command == 0 ? "attend" : "block", out.dump().c_str());
        std::abort();
      }
      if (out.dump().empty()) std::abort();  // what the CLI prints; never empty
    } catch (const attn::InputError&) {
    } catch (const nlohmann::json::exception&) {
    }
  }
  return 0;
}
