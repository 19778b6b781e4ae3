// Scheme names: parsing, printing, the allowed list in error messages, and range_positions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/positions.hpp"

using attn::Scheme;

TEST(Schemes, NamesRoundTripThroughParse) {
  const std::vector<Scheme> all = {Scheme::None,  Scheme::Sinusoidal, Scheme::Learned, Scheme::Rope,
                                   Scheme::Alibi, Scheme::Raw,        Scheme::Fraction};
  const std::vector<std::string> names = {"none",  "sinusoidal", "learned", "rope",
                                          "alibi", "raw",        "fraction"};
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(attn::scheme_name(all[i]), names[i]);
    EXPECT_EQ(attn::parse_scheme(names[i], all), all[i]);
  }
}

TEST(Schemes, ListJoinsWithBars) {
  EXPECT_EQ(attn::scheme_list({Scheme::None, Scheme::Sinusoidal, Scheme::Rope}), "none|sinusoidal|rope");
}

TEST(Schemes, UnknownOrDisallowedNameListsTheAllowedOnes) {
  const std::vector<Scheme> allowed = {Scheme::None, Scheme::Learned};
  EXPECT_THROW(attn::parse_scheme("alibi", allowed), attn::InputError);
  try {
    attn::parse_scheme("clock", allowed);
    FAIL() << "no InputError for an unknown scheme";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("none|learned"), std::string::npos) << e.what();
  }
}

TEST(Schemes, RangePositionsCountsFromZero) {
  EXPECT_EQ(attn::range_positions(4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(attn::range_positions(0).empty());
}
