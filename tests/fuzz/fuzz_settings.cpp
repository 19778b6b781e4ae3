// libFuzzer target: the settings parser shared by the URL, window.attentionDemo.set() and the course page's
// messages (embed.js posts settings that the page hands to set()), lesson steps JSON included.
// Input: the first line is a URL query for app::parse_query; every further line is one "name=value" pair
// for app::apply_param (what set() does with each field). Checks: a rejected pair changes nothing and says
// why; an accepted value, written back by param_value, reads the same; the URL the app writes for the
// result (to_query) reads back without notes to the same URL; utf8_prefix cuts only between characters.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"

namespace {

void check(bool ok, const char* what, const std::string& detail = "") {
  if (!ok) {
    std::fprintf(stderr, "finding: fuzz_settings: %s %s\n", what, detail.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  std::vector<std::string> notes;
  app::Settings s = app::parse_query(input.substr(0, nl), notes);
  check(app::is_scene(s.scene), "parse_query chose an unknown scene", s.scene);

  for (size_t start = nl; start != std::string::npos && start < input.size();) {
    const size_t end = input.find('\n', start + 1);
    const size_t length = end == std::string::npos ? std::string::npos : end - start - 1;
    const std::string line = input.substr(start + 1, length);
    start = end;
    const size_t eq = line.find('=');
    const std::string name = line.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : line.substr(eq + 1);
    const std::string cut = app::utf8_prefix(value, value.size() / 2);
    check(cut.size() <= value.size() / 2 && value.compare(0, cut.size(), cut) == 0,
          "utf8_prefix is no prefix");
    const bool at_boundary =
        cut.size() == value.size() || (static_cast<unsigned char>(value[cut.size()]) & 0xC0) != 0x80;
    check(cut.empty() || at_boundary, "utf8_prefix cut inside a character");
    const app::Settings before = s;
    std::string note;
    if (!app::apply_param(s, name, value, note)) {
      check(s == before, "a rejected setting changed the settings", name);
      check(!note.empty(), "a rejected setting without a note", name);
    } else {  // the value as the app writes it back is accepted and means the same
      app::Settings copy = s;
      check(app::apply_param(copy, name, app::param_value(s, name), note) && copy == s,
            "an accepted setting does not read back:", name);
    }
  }
  for (const app::ParamInfo& p : app::param_table()) app::param_value(s, p.name);
  app::hidden(s, "controls");

  const std::string url = app::to_query(s);
  std::vector<std::string> notes2;
  const app::Settings again = app::parse_query(url, notes2);
  check(notes2.empty(), "the app's own URL gives notes:", url + " -> " + (notes2.empty() ? "" : notes2[0]));
  check(app::to_query(again) == url, "the app's own URL does not read back to itself:", url);
  return 0;
}
