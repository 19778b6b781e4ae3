// The program's one index sort: std::sort over 0 .. n-1 with a comparison passed as a function pointer,
// and the string sort built on it.
#include "core/index_sort.hpp"

#include <algorithm>
#include <numeric>

namespace attn {

void sort_indices(int n, IndexLess less, std::vector<int>& order) {
  order.resize(static_cast<std::size_t>(n > 0 ? n : 0));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [less](int a, int b) { return less.less(less.context, a, b); });
}

void sort_strings(std::vector<std::string>& v) {
  std::vector<int> order;
  sort_indices(
      static_cast<int>(v.size()), [&](int a, int b) { return v[a] < v[b]; }, order);
  std::vector<std::string> sorted;
  sorted.reserve(v.size());
  for (int i : order) sorted.push_back(std::move(v[static_cast<std::size_t>(i)]));
  v.swap(sorted);
}

}  // namespace attn
