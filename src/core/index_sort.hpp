// The indices 0 .. n-1 sorted by a comparison of two indices, through one std::sort for the whole program
// (each std::sort with a comparator of its own type is a kilobyte or more of the page's code).
#pragma once

#include <string>
#include <vector>

namespace attn {

struct IndexLess {
  bool (*less)(const void* context, int a, int b);
  const void* context;
};

// order = 0 .. n-1 in the order `less` gives (ties in any order: a total order makes it unique).
void sort_indices(int n, IndexLess less, std::vector<int>& order);

// The same with any callable less(int a, int b).
template <class Less>
void sort_indices(int n, const Less& less, std::vector<int>& order) {
  sort_indices(
      n, IndexLess{[](const void* c, int a, int b) { return (*static_cast<const Less*>(c))(a, b); }, &less},
      order);
}

// v in ascending (byte) order, through sort_indices.
void sort_strings(std::vector<std::string>& v);

}  // namespace attn
