// The generated refund emails and the vocab: twins share their words, held-out pairs keep both orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"
#include "core/train/data.hpp"
#include "core/train/vocab.hpp"

namespace {

namespace tr = attn::train;

std::vector<std::string> sorted_tokens(const std::string& text) {
  std::vector<std::string> t = tr::Vocab::tokens(text);
  std::sort(t.begin(), t.end());
  return t;
}

TEST(TrainData, SizesAndClasses) {
  const tr::Dataset d = tr::make_refund_dataset();
  const int items = static_cast<int>(d.items.size());
  const int templates = static_cast<int>(tr::refund_templates().size());
  const int pairs = items * (items - 1) / 2;
  EXPECT_EQ(d.classes(), items);
  EXPECT_EQ(d.label_names(), tr::refund_items());
  EXPECT_NE(std::find(d.items.begin(), d.items.end(), "delivery fee"), d.items.end());
  EXPECT_EQ(static_cast<int>(d.train.size() + d.test.size()), pairs * templates * 2);
  // about a quarter of the pairs held out
  const int held_out_pairs = static_cast<int>(d.test.size()) / (2 * templates);
  EXPECT_EQ(held_out_pairs, (pairs + 2) / 4);
  std::printf("[ data ] %d items, %d templates, %d train and %d test emails\n", items, templates,
              static_cast<int>(d.train.size()), static_cast<int>(d.test.size()));
}

TEST(TrainData, EveryEmailHasItsFlippedTwinWithTheSameWordsAndTheOtherLabel) {
  const tr::Dataset d = tr::make_refund_dataset();
  for (const auto* set : {&d.train, &d.test}) {
    std::map<std::pair<int, int>, std::vector<const tr::Example*>> twins;
    for (const auto& e : *set) twins[{e.pair, e.template_id}].push_back(&e);
    for (const auto& [key, v] : twins) {
      ASSERT_EQ(v.size(), 2u);
      EXPECT_NE(v[0]->order, v[1]->order);
      EXPECT_NE(v[0]->text, v[1]->text);
      EXPECT_EQ(sorted_tokens(v[0]->text), sorted_tokens(v[1]->text)) << v[0]->text << " | " << v[1]->text;
      EXPECT_EQ(v[0]->label, v[1]->keep);
      EXPECT_EQ(v[1]->label, v[0]->keep);
    }
  }
}

TEST(TrainData, TheLabelIsTheItemToRefund) {
  const tr::Dataset d = tr::make_refund_dataset();
  const tr::Example& e = d.train.front();
  EXPECT_EQ(tr::refund_templates()[0], "Refund the X, not the Y.");
  EXPECT_EQ(e.template_id, 0);
  EXPECT_EQ(e.text, "Refund the " + d.items[e.label] + ", not the " + d.items[e.keep] + ".");
  for (const auto& x : d.train) {
    EXPECT_NE(x.text.find(d.items[x.label]), std::string::npos);
    EXPECT_NE(x.text.find(d.items[x.keep]), std::string::npos);
  }
}

TEST(TrainData, HeldOutPairsAreWhollyHeldOutAndEveryItemIsTrained) {
  const tr::Dataset d = tr::make_refund_dataset();
  std::set<int> train_pairs, test_pairs, train_items;
  for (const auto& e : d.train) {
    train_pairs.insert(e.pair);
    train_items.insert(e.label);
  }
  for (const auto& e : d.test) test_pairs.insert(e.pair);
  for (int p : test_pairs) EXPECT_EQ(train_pairs.count(p), 0u) << "pair " << p;
  EXPECT_EQ(static_cast<int>(train_items.size()), d.classes());
  // deterministic
  const tr::Dataset again = tr::make_refund_dataset();
  ASSERT_EQ(again.test.size(), d.test.size());
  for (size_t i = 0; i < d.test.size(); ++i) EXPECT_EQ(again.test[i].text, d.test[i].text);
}

TEST(TrainData, LengthenAddsExactlyTheFillerTokens) {
  const tr::Dataset d = tr::make_refund_dataset();
  const std::vector<tr::Example> longer = tr::lengthen(d.test, 400);
  ASSERT_EQ(longer.size(), d.test.size());
  for (size_t i = 0; i < d.test.size(); i += 17) {
    EXPECT_EQ(tr::Vocab::tokens(longer[i].text).size(), tr::Vocab::tokens(d.test[i].text).size() + 400);
    EXPECT_EQ(longer[i].label, d.test[i].label);
  }
  EXPECT_EQ(tr::lengthen(d.test, 0)[0].text, d.test[0].text);
  EXPECT_THROW(tr::lengthen(d.test, -1), attn::InputError);
}

TEST(TrainVocab, BuildsSortedLowerCaseWordsWithUnknownAsZero) {
  const tr::Dataset d = tr::make_refund_dataset();
  const tr::Vocab v = tr::Vocab::build(d);
  ASSERT_GT(v.size(), 10);
  EXPECT_EQ(v.words[0], "<unk>");
  EXPECT_TRUE(std::is_sorted(v.words.begin() + 1, v.words.end()));
  EXPECT_EQ(v.id("Refund"), v.id("refund"));
  EXPECT_GT(v.id("refund"), 0);
  EXPECT_EQ(v.id("zeppelin"), 0);
  const std::vector<int> ids = v.encode("Refund the CAKE, not the zeppelin.");
  ASSERT_EQ(ids.size(), 8u);
  EXPECT_EQ(ids[2], v.id("cake"));
  EXPECT_EQ(ids[6], 0);
  // every filler word is known, so lengthened emails have no unknown tokens
  for (const auto& w : tr::filler_tokens()) EXPECT_GT(v.id(w), 0) << w;
  EXPECT_THROW(v.encode("bad \xff byte"), attn::InputError);
}

}  // namespace
