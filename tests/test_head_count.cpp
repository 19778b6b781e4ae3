// Heads must divide d_model, and splitting across heads costs the same parameters as one big head.
#include <gtest/gtest.h>

#include <string>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "reference.hpp"

TEST(HeadCount, HeadDimIsDModelOverHeads) {
  EXPECT_EQ(attn::head_dim(512, 8), 64);
  EXPECT_EQ(attn::head_dim(768, 12), 64);
  EXPECT_EQ(attn::head_dim(64, 8), 8);
  EXPECT_EQ(attn::head_dim(7, 1), 7);
}

TEST(HeadCount, SixHeadsDoNotSplit512AndTheMessageSaysSo) {
  for (auto call : {+[] { attn::head_dim(512, 6); },
                    +[] {
                      attn::MhaWeights w;
                      w.heads = 6;
                      w.w_qkv = attn::Mat::Zero(512, 1536);
                      w.w_o = attn::Mat::Zero(512, 512);
                      attn::multi_head(ref::to_float(ref::random_matrix(2, 512, 1)), w,
                                       attn::AttentionOptions{});
                    }}) {
    try {
      call();
      FAIL() << "no InputError for 512 split into 6 heads";
    } catch (const attn::InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("512"), std::string::npos) << msg;
      EXPECT_NE(msg.find('6'), std::string::npos) << msg;
    }
  }
  EXPECT_THROW(attn::head_dim(64, 0), attn::InputError);
}

TEST(HeadCount, EightHeadsCostTheSameAsOneBigHead) {
  const long long d = 512;
  const attn::ParameterCount c = attn::count_parameters(512, 8);
  EXPECT_EQ(c.d_k, 64);
  EXPECT_EQ(c.fused, 4 * d * d);
  EXPECT_EQ(c.single_head, 4 * d * d);
  EXPECT_EQ(c.fused, 1048576);
  // The lesson's split: 8 x 3 x 512 x 64 for Q, K, V plus 512 x 512 for W_O.
  EXPECT_EQ(c.fused, 8LL * 3 * 512 * 64 + 512LL * 512);
}

TEST(HeadCount, TheLessonsSmallModelHas16384) {
  const attn::ParameterCount c = attn::count_parameters(64, 8);
  EXPECT_EQ(c.fused, 4LL * 64 * 64);
  EXPECT_EQ(c.fused, 16384);
  EXPECT_EQ(c.single_head, 16384);
  EXPECT_EQ(attn::count_parameters(768, 12).d_k, 64);
}
