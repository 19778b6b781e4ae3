// Chunks of an email set and the tally of their measures.
#include "core/train/set_chunks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace attn::train {
namespace {

int rounded(float fraction, int n) {
  return static_cast<int>(std::lround(fraction * static_cast<float>(n)));
}

float ratio(int a, int b) {
  return b > 0 ? static_cast<float>(a) / static_cast<float>(b) : 0.0f;
}

}  // namespace

std::vector<std::vector<Example>> twin_chunks(const std::vector<Example>& emails, size_t per_chunk) {
  std::map<std::pair<int, int>, std::vector<size_t>> twins;
  std::vector<std::pair<int, int>> order;
  for (size_t i = 0; i < emails.size(); ++i) {
    auto& list = twins[{emails[i].pair, emails[i].template_id}];
    if (list.empty()) order.emplace_back(emails[i].pair, emails[i].template_id);
    list.push_back(i);
  }
  std::vector<std::vector<Example>> chunks(1);
  for (const auto& k : order) {
    if (chunks.back().size() >= per_chunk) chunks.emplace_back();
    for (size_t i : twins[k]) chunks.back().push_back(emails[i]);
  }
  return chunks;
}

std::vector<std::vector<Example>> plain_chunks(const std::vector<Example>& emails, size_t per_chunk) {
  std::vector<std::vector<Example>> chunks;
  for (size_t i = 0; i < emails.size(); i += per_chunk)
    chunks.emplace_back(emails.begin() + static_cast<long>(i),
                        emails.begin() + static_cast<long>(std::min(emails.size(), i + per_chunk)));
  return chunks;
}

void SetTally::add(const SetMetrics& chunk) {
  examples += chunk.examples;
  right += rounded(chunk.accuracy, chunk.examples);
  loss += static_cast<double>(chunk.loss) * chunk.examples;
  twins += chunk.twins;
  both += rounded(chunk.pair_accuracy, chunk.twins);
  max_pair_difference = std::max(max_pair_difference, chunk.max_pair_difference);
}

SetMetrics SetTally::total() const {
  SetMetrics m;
  m.examples = examples;
  m.accuracy = ratio(right, examples);
  m.twins = twins;
  m.pair_accuracy = ratio(both, twins);
  m.max_pair_difference = max_pair_difference;
  m.loss = examples ? static_cast<float>(loss / examples) : 0.0f;
  return m;
}

}  // namespace attn::train
