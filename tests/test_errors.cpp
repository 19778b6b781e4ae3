// require_finite and require_range: bad input becomes an InputError that names what was wrong.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "core/error.hpp"

using attn::InputError;

TEST(Errors, RequireFiniteAcceptsFiniteAndRejectsNanAndInf) {
  attn::Mat m = attn::Mat::Constant(2, 3, 1.5f);
  EXPECT_NO_THROW(attn::require_finite(m, "x"));
  m(1, 2) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(attn::require_finite(m, "x"), InputError);
  m(1, 2) = -std::numeric_limits<float>::infinity();
  try {
    attn::require_finite(m, "the embeddings");
    FAIL() << "no InputError for -inf";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the embeddings"), std::string::npos) << e.what();
  }
}

TEST(Errors, RequireRangeIsInclusiveAndNamesTheRange) {
  EXPECT_NO_THROW(attn::require_range(1, 1, 8, "heads"));
  EXPECT_NO_THROW(attn::require_range(8, 1, 8, "heads"));
  EXPECT_THROW(attn::require_range(0, 1, 8, "heads"), InputError);
  try {
    attn::require_range(937, 1, 64, "d_model");
    FAIL() << "no InputError for 937 outside 1..64";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("d_model"), std::string::npos) << msg;
    EXPECT_NE(msg.find("64"), std::string::npos) << msg;
  }
}

TEST(Errors, InputErrorIsARuntimeError) {
  try {
    throw InputError("bad");
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "bad");
  }
}
