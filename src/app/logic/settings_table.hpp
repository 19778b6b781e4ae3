// The URL parameter table behind settings.cpp: how each setting is read from and written to its URL text
// (internal to src/app/logic).
#pragma once

#include <string>
#include <vector>

#include "app/logic/settings.hpp"

namespace app::detail {

// How one parameter is read and written: plain functions, given the Param for the member and limits
// they use (the helpers below), so the table holds no closures.
struct Param {
  ParamInfo info;
  bool (*read)(const Param&, Settings&, const std::string&);
  std::string (*write)(const Param&, const Settings&);
  int Settings::*int_member = nullptr;
  long long lo = 0, hi = 0;
  bool Settings::*bool_member = nullptr;
};

// Every URL parameter, in the README's order.
const std::vector<Param>& params();
const Param* find_param(const std::string& name);
// Whether the parameter is used by `scene` (its scenes list names it, or is "*").
bool used_by(const ParamInfo& info, const std::string& scene);
// "start|clock|..." : every scene id.
std::string scene_list();
// "%.10g", as an ostream with precision 10 prints.
std::string format_number(double x);

}  // namespace app::detail
