// The scheme table: every scheme's entry is whole and where it says it is, names round-trip, and what each
// entry says it does holds for every scheme that says it (offsets only, rows by position).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "core/pipeline.hpp"
#include "core/positions.hpp"
#include "core/train/model.hpp"
#include "reference.hpp"

namespace {

using attn::Scheme;
using attn::SchemeDef;

}  // namespace

TEST(SchemeTable, EveryEntryIsWholeAndInItsPlace) {
  std::set<std::string> names;
  const auto& table = attn::scheme_table();
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table[0]->id, Scheme{});  // the first entry is the default, no positions
  for (size_t i = 0; i < table.size(); ++i) {
    const SchemeDef& d = *table[i];
    EXPECT_EQ(static_cast<size_t>(d.id), i) << d.name;
    EXPECT_EQ(&attn::scheme_def(d.id), &d);
    EXPECT_TRUE(names.insert(d.name).second) << "two schemes are called " << d.name;
    EXPECT_GT(std::string(d.help).size(), 10u) << d.name;
    EXPECT_NE(d.uses, 0u) << d.name << " can be chosen nowhere";
    EXPECT_EQ(attn::parse_scheme(d.name, attn::schemes_for(0)), d.id);
    EXPECT_FALSE(d.trained_table && !d.added) << d.name << ": a trained table needs its seeded draw";
    EXPECT_FALSE(d.appended && !d.added) << d.name;
  }
  EXPECT_EQ(attn::schemes_for(0).size(), table.size());
}

TEST(SchemeTable, ListsComeFromTheTable) {
  EXPECT_EQ(attn::pipeline_schemes(), attn::schemes_for(attn::kUseAttention));
  EXPECT_EQ(attn::train::trainable_schemes(), attn::schemes_for(attn::kUseRouter));
  for (Scheme s : attn::schemes_for(attn::kUseTable)) {
    EXPECT_NE(attn::scheme_def(s).added, nullptr) << attn::scheme_name(s) << " has no table to print";
  }
  try {
    attn::parse_scheme("spiral", attn::schemes_for(attn::kUseRouter));
    FAIL() << "no error";
  } catch (const attn::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown position scheme 'spiral'; allowed: " +
                                         attn::scheme_list(attn::schemes_for(attn::kUseRouter)));
  }
}

TEST(SchemeTable, AddedTablesAreRowsByPosition) {
  attn::SchemeArgs args;
  args.d_model = 6;
  args.length = 50;
  for (const SchemeDef* d : attn::scheme_table()) {
    if (!d->added) continue;
    SCOPED_TRACE(d->name);
    const attn::Mat all = d->added({0, 1, 2, 3, 4, 5, 6}, args);
    const attn::Mat some = d->added({5, 2}, args);
    ASSERT_EQ(all.rows(), 7);
    ASSERT_EQ(all.cols(), 6);
    EXPECT_TRUE(some.row(0) == all.row(5));
    EXPECT_TRUE(some.row(1) == all.row(2));
  }
}

TEST(SchemeTable, WhatActsInsideAttentionSeesOnlyOffsets) {
  // a rotation or a score bias: moving every token by the same amount keeps every score (float64
  // reference attention on the same q and k, positions 0.. and 40..)
  const ref::MatD q = ref::random_matrix(5, 8, 1), k = ref::random_matrix(5, 8, 2),
                  v = ref::random_matrix(5, 8, 3);
  for (const SchemeDef* d : attn::scheme_table()) {
    if (!d->rotation && !d->score_bias) continue;
    SCOPED_TRACE(d->name);
    attn::AttentionOptions at0, at40;
    at0.positions = at40.positions = d->id;
    at0.position_ids = {0, 1, 2, 3, 4};
    at40.position_ids = {40, 41, 42, 43, 44};
    const attn::HeadResult a = attn::attend(ref::to_float(q), ref::to_float(k), ref::to_float(v), at0, 1, 4);
    const attn::HeadResult b = attn::attend(ref::to_float(q), ref::to_float(k), ref::to_float(v), at40, 1, 4);
    EXPECT_ALLCLOSE(a.scores, ref::to_double(b.scores));
    EXPECT_ALLCLOSE(a.scores, ref::attend(q, k, v, at0, 1, 4).scores);
  }
}
