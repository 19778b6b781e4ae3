// Colormap checks against matplotlib's published values and the maps' design rules (no GL needed).
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "gfx/colormap.hpp"

namespace {

using gfx::Colormap;
using Rgb = std::array<float, 3>;

// Relative luminance (Rec. 709) of an sRGB colour, i.e. how light it looks.
float luminance(const Rgb& c) {
  float lin[3];
  for (int i = 0; i < 3; ++i) {
    lin[i] = c[i] <= 0.04045f ? c[i] / 12.92f : std::pow((c[i] + 0.055f) / 1.055f, 2.4f);
  }
  return 0.2126f * lin[0] + 0.7152f * lin[1] + 0.0722f * lin[2];
}

void expect_near_rgb(const Rgb& got, const Rgb& want, float tol, const char* what) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(got[i], want[i], tol)
        << what << " channel " << i << ": got (" << got[0] << ", " << got[1] << ", " << got[2] << ")";
  }
}

// Reference values: matplotlib's _viridis_data / _cividis_data entries 0, 128 and 255.
TEST(Colormap, ViridisMatchesMatplotlib) {
  expect_near_rgb(gfx::colormap_rgb(Colormap::Viridis, 0.0f), {0.267f, 0.005f, 0.329f}, 0.02f, "viridis(0)");
  expect_near_rgb(gfx::colormap_rgb(Colormap::Viridis, 128.0f / 255.0f), {0.128f, 0.567f, 0.551f}, 0.02f,
                  "viridis(128/255)");
  expect_near_rgb(gfx::colormap_rgb(Colormap::Viridis, 1.0f), {0.993f, 0.906f, 0.144f}, 0.02f, "viridis(1)");
}

TEST(Colormap, CividisMatchesMatplotlib) {
  expect_near_rgb(gfx::colormap_rgb(Colormap::Cividis, 0.0f), {0.0f, 0.135f, 0.304f}, 0.03f, "cividis(0)");
  expect_near_rgb(gfx::colormap_rgb(Colormap::Cividis, 128.0f / 255.0f), {0.482f, 0.480f, 0.470f}, 0.03f,
                  "cividis(128/255)");
  expect_near_rgb(gfx::colormap_rgb(Colormap::Cividis, 1.0f), {0.995f, 0.909f, 0.217f}, 0.03f, "cividis(1)");
}

TEST(Colormap, SequentialMapsGetLighterMonotonically) {
  for (Colormap c : {Colormap::Viridis, Colormap::Cividis}) {
    float prev = -1.0f;
    for (int i = 0; i <= 512; ++i) {
      const float lum = luminance(gfx::colormap_rgb(c, static_cast<float>(i) / 512.0f));
      EXPECT_GT(lum, prev) << gfx::colormap_name(c) << " at t = " << i << "/512";
      prev = lum;
    }
  }
}

TEST(Colormap, IsContinuousAndClamped) {
  for (Colormap c : {Colormap::Viridis, Colormap::Cividis, Colormap::Diverging}) {
    const char* name = gfx::colormap_name(c);
    for (int i = 0; i < 1024; ++i) {
      const Rgb a = gfx::colormap_rgb(c, static_cast<float>(i) / 1024.0f);
      const Rgb b = gfx::colormap_rgb(c, static_cast<float>(i + 1) / 1024.0f);
      for (int ch = 0; ch < 3; ++ch) {
        EXPECT_LT(std::fabs(a[ch] - b[ch]), 0.02f) << name << " jumps at t = " << i << "/1024";
        EXPECT_GE(a[ch], 0.0f);
        EXPECT_LE(a[ch], 1.0f);
      }
    }
    EXPECT_EQ(gfx::colormap_rgb(c, -3.0f), gfx::colormap_rgb(c, 0.0f)) << name;
    EXPECT_EQ(gfx::colormap_rgb(c, 7.0f), gfx::colormap_rgb(c, 1.0f)) << name;
    EXPECT_EQ(gfx::colormap_rgb(c, NAN), gfx::colormap_rgb(c, 0.0f)) << name;
  }
}

TEST(Colormap, DivergingIsWhiteInTheMiddleBlueBelowRedAbove) {
  const Rgb mid = gfx::colormap_rgb(Colormap::Diverging, 0.5f);
  for (float ch : mid) EXPECT_GT(ch, 0.93f) << "centre is not white-ish";
  EXPECT_LT(std::fmax(mid[0], std::fmax(mid[1], mid[2])) - std::fmin(mid[0], std::fmin(mid[1], mid[2])),
            0.03f);
  const Rgb lo = gfx::colormap_rgb(Colormap::Diverging, 0.0f),
            hi = gfx::colormap_rgb(Colormap::Diverging, 1.0f);
  EXPECT_GT(lo[2], lo[0] + 0.2f) << "negative end is not blue";
  EXPECT_GT(hi[0], hi[2] + 0.2f) << "positive end is not red";
}

// Equal |v| must look equally strong: lightness mirrored around the centre, darker towards both ends.
TEST(Colormap, DivergingIsSymmetric) {
  float prev = 2.0f;
  for (int i = 0; i <= 256; ++i) {
    const float d = static_cast<float>(i) / 512.0f;  // distance from the centre, 0 .. 0.5
    const Rgb below = gfx::colormap_rgb(Colormap::Diverging, 0.5f - d);
    const Rgb above = gfx::colormap_rgb(Colormap::Diverging, 0.5f + d);
    const float lb = luminance(below), la = luminance(above);
    EXPECT_NEAR(lb, la, 0.02f) << "lightness differs at +-" << d;
    EXPECT_LT(la, prev + 1e-6f) << "not darker towards the end at " << d;
    prev = la;
    if (i > 0) {
      EXPECT_GT(below[2], below[0]) << "blue side at -" << d;
      EXPECT_GT(above[0], above[2]) << "red side at +" << d;
    }
  }
}

TEST(Colormap, ValueToT) {
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Viridis, 2.0f, 1.0f, 3.0f), 0.5f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Viridis, 1.0f, 1.0f, 3.0f), 0.0f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Cividis, 3.0f, 1.0f, 3.0f), 1.0f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Viridis, 5.0f, 2.0f, 2.0f), 0.5f);  // empty range: no division
  // Diverging: 0 is always the centre, the larger |end| decides the scale.
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Diverging, 0.0f, -1.0f, 4.0f), 0.5f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Diverging, 4.0f, -1.0f, 4.0f), 1.0f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Diverging, -4.0f, -1.0f, 4.0f), 0.0f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Diverging, -1.0f, -1.0f, 4.0f), 0.375f);
  EXPECT_FLOAT_EQ(gfx::colormap_t(Colormap::Diverging, 3.0f, 0.0f, 0.0f), 0.5f);
}

TEST(Colormap, NonFiniteValuesAreGrey) {
  for (Colormap c : {Colormap::Viridis, Colormap::Cividis, Colormap::Diverging}) {
    for (float v : {-INFINITY, INFINITY, NAN}) {
      const Rgb got = gfx::value_rgb(c, v, -1.0f, 1.0f);
      expect_near_rgb(got, {0.5f, 0.5f, 0.5f}, 1e-6f, gfx::colormap_name(c));
    }
    EXPECT_EQ(gfx::value_rgb(c, 0.25f, -1.0f, 1.0f),
              gfx::colormap_rgb(c, gfx::colormap_t(c, 0.25f, -1.0f, 1.0f)));
  }
}

TEST(Colormap, KeysAreInterpolatedExactly) {
  for (Colormap c : {Colormap::Viridis, Colormap::Cividis, Colormap::Diverging}) {
    const gfx::ColormapKeys k = gfx::colormap_keys(c);
    ASSERT_GE(k.count, 2);
    ASSERT_LE(k.count, gfx::kMaxColormapKeys);  // the shader's u_keys[] size
    for (int i = 0; i < k.count; ++i) {
      const float t = static_cast<float>(i) / static_cast<float>(k.count - 1);
      expect_near_rgb(gfx::colormap_rgb(c, t), {k.rgb[i][0], k.rgb[i][1], k.rgb[i][2]}, 1e-6f,
                      gfx::colormap_name(c));
    }
  }
}

TEST(Colormap, NamesRoundTrip) {
  for (Colormap c : {Colormap::Viridis, Colormap::Cividis, Colormap::Diverging}) {
    Colormap parsed = Colormap::Viridis;
    ASSERT_TRUE(gfx::parse_colormap(gfx::colormap_name(c), parsed));
    EXPECT_EQ(parsed, c);
  }
  Colormap untouched = Colormap::Cividis;
  EXPECT_FALSE(gfx::parse_colormap("jet", untouched));
  EXPECT_EQ(untouched, Colormap::Cividis);
}

}  // namespace
