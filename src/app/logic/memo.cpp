// The version counter behind Memo: one number per recompute, app-wide.
#include "app/logic/memo.hpp"

namespace app {

namespace {
std::uint64_t g_last = 0;
}  // namespace

std::uint64_t next_version() {
  return ++g_last;
}

std::uint64_t versions_issued() {
  return g_last;
}

}  // namespace app
