// Feeds untrusted texts to the page's parsers, built natively and for node (wasm, linked with the page's
// binaryen flags), so tests/wasm/compare_parsers.py can check that the wasm build answers every input with
// the native build's verdict and never traps: the model-file reader (attn::model_io::model_from_json) and the
// settings parser behind the URL and set() (app::parse_query, app::apply_param).
//
// Usage:
//   parsers_node CASES [FIRST]   answer the cases of file CASES, from case number FIRST (default 0)
//   parsers_node --params        print the settings' table: {"name": ..., "allowed": ...} per line
// CASES holds records "KIND NAME BYTES\n" + BYTES bytes of input + "\n", KIND one of
//   model   a model file's text
//   query   the fuzz_settings format: a URL query, then one "name=value" line per apply_param call
//   set     a JSON object, each field handed to apply_param as App::set_json hands it (a number as dumped)
// Prints one JSON line per case, flushed at once (a trap loses no earlier answer):
//   {"case": i, "kind": KIND, "name": NAME, "verdict": "ok"|"error"|"notes"|"exception",
//    "message": the InputError's or exception's text, or the settings' notes joined by " | ",
//    "query": the URL of the resulting settings (query and set only)}
// Under node the program reads the real file system (-sNODERAWFS). A CASES file it cannot read -> exit 2.
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_json.hpp"

namespace {

using nlohmann::json;

struct Case {
  std::string kind, name, input;
};

// The records of CASES; throws InputError when the file is missing or a record is cut short.
std::vector<Case> read_cases(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw attn::InputError("cannot read " + path);
  std::string all;
  char buffer[65536];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) all.append(buffer, n);
  std::fclose(f);
  std::vector<Case> cases;
  for (size_t at = 0; at < all.size();) {
    const size_t eol = all.find('\n', at);
    if (eol == std::string::npos) throw attn::InputError("a record header without its line end");
    const std::string header = all.substr(at, eol - at);
    const size_t s1 = header.find(' '), s2 = header.rfind(' ');
    if (s1 == std::string::npos || s2 == s1) throw attn::InputError("a bad record header: " + header);
    const size_t bytes = std::stoul(header.substr(s2 + 1));
    if (eol + 1 + bytes + 1 > all.size()) throw attn::InputError("a record cut short: " + header);
    cases.push_back({header.substr(0, s1), header.substr(s1 + 1, s2 - s1 - 1), all.substr(eol + 1, bytes)});
    at = eol + 1 + bytes + 1;
  }
  return cases;
}

// Collects the settings parser's notes: any note makes the verdict "notes", the notes joined its message.
struct Notes {
  std::string joined;
  void add(const std::string& n) {
    if (!n.empty()) joined += (joined.empty() ? "" : " | ") + n;
  }
};

// The query format: parse_query on the first line, then apply_param on each further "name=value" line.
app::Settings run_query(const std::string& input, Notes& notes) {
  const size_t nl = input.find('\n');
  std::vector<std::string> parsed;
  app::Settings s = app::parse_query(input.substr(0, nl), parsed);
  for (const std::string& n : parsed) notes.add(n);
  for (size_t start = nl; start != std::string::npos && start < input.size();) {
    const size_t end = input.find('\n', start + 1);
    const std::string line = input.substr(start + 1, end == std::string::npos ? end : end - start - 1);
    start = end;
    const size_t eq = line.find('=');
    std::string note;
    app::apply_param(s, line.substr(0, eq), eq == std::string::npos ? "" : line.substr(eq + 1), note);
    notes.add(note);
  }
  return s;
}

// The set format: a JSON object's fields in order, each value as the text App::set_json makes of it.
app::Settings run_set(const std::string& input, Notes& notes) {
  attn::require_json_depth(input, "set()'s argument");
  const json j = json::parse(input, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw attn::InputError("not a JSON object");
  app::Settings s;
  for (const auto& [name, value] : j.items()) {
    const std::string text = value.is_string() ? value.get<std::string>()
                             : value.is_boolean()
                                 ? (value.get<bool>() ? "1" : "0")
                                 : value.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string note;
    app::apply_param(s, name, text, note);
    notes.add(note);
  }
  return s;
}

json answer(const Case& c) {
  json out = {{"kind", c.kind}, {"name", c.name}, {"verdict", "ok"}, {"message", ""}};
  try {
    if (c.kind == "model") {
      attn::model_io::model_from_json(c.input);
    } else if (c.kind == "query" || c.kind == "set") {
      Notes notes;
      const app::Settings s = c.kind == "query" ? run_query(c.input, notes) : run_set(c.input, notes);
      out["query"] = app::to_query(s);
      if (!notes.joined.empty()) out["verdict"] = "notes", out["message"] = notes.joined;
    } else {
      out["verdict"] = "exception", out["message"] = "unknown kind " + c.kind;
    }
  } catch (const attn::InputError& e) {
    out["verdict"] = "error", out["message"] = e.what();
  } catch (const std::exception& e) {
    out["verdict"] = "exception", out["message"] = e.what();
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--params") {
    for (const app::ParamInfo& p : app::param_table()) {
      std::printf("%s\n", json({{"name", p.name}, {"allowed", p.allowed}}).dump().c_str());
    }
    return 0;
  }
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "error: usage: parsers_node CASES [FIRST] | --params\n");
    return 2;
  }
  std::vector<Case> cases;
  try {
    cases = read_cases(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  const size_t first = argc == 3 ? std::stoul(argv[2]) : 0;
  for (size_t i = first; i < cases.size(); ++i) {
    json out = answer(cases[i]);
    out["case"] = i;
    std::printf("%s\n", out.dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    std::fflush(stdout);
  }
  return 0;
}
