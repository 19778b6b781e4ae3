// Both looks (dark, light): every text ink reads at least 4.5:1 against what it is drawn on, and every line
// or shape at least 3:1 (WCAG 2.2 AA, 1.4.3 and 1.4.11), measured with WCAG's contrast formula.
#include <gtest/gtest.h>

#include "app/widgets/theme.hpp"

namespace {

TEST(ThemeContrast, TheFormulaMatchesWcagsEnds) {
  EXPECT_NEAR(app::contrast_ratio(ImVec4(0, 0, 0, 1), ImVec4(1, 1, 1, 1)), 21.0, 1e-9);
  EXPECT_NEAR(app::contrast_ratio(ImVec4(0.5f, 0.5f, 0.5f, 1), ImVec4(0.5f, 0.5f, 0.5f, 1)), 1.0, 1e-9);
  // #767676 on white is the well-known 4.54:1
  const float g = 118.0f / 255.0f;
  EXPECT_NEAR(app::contrast_ratio(ImVec4(g, g, g, 1), ImVec4(1, 1, 1, 1)), 4.54, 0.01);
}

TEST(ThemeContrast, EveryInkOfBothLooksIsReadable) {
  for (const bool dark : {true, false}) {
    const auto pairs = app::theme_pairs(dark);
    ASSERT_GE(pairs.size(), 15u);
    double worst = 100.0;
    const char* worst_name = "";
    for (const app::InkOnBackground& p : pairs) {
      const double r = app::contrast_ratio(p.text, p.background);
      EXPECT_GE(r, p.least) << (dark ? "dark: " : "light: ") << p.name << " is " << r << ":1";
      if (r / p.least < worst) worst = r / p.least, worst_name = p.name;
    }
    std::printf("%s look: the tightest pair is %s at %.2fx its least ratio\n", dark ? "dark" : "light",
                worst_name, worst);
  }
}

}  // namespace
