// Colormap key tables and their linear interpolation; shaders/heatmap.frag mirrors colormap_t/colormap_rgb.
#include "gfx/colormap.hpp"

namespace gfx {
namespace {

// viridis: matplotlib's table, every 5th of 256 entries (t = 0, 5/255, ..., 1): 52 keys.
constexpr float kViridis[][3] = {
    {0.267004f, 0.004874f, 0.329415f}, {0.273809f, 0.031497f, 0.358853f}, {0.278791f, 0.062145f, 0.386592f},
    {0.281924f, 0.089666f, 0.412415f}, {0.283197f, 0.115680f, 0.436115f}, {0.282623f, 0.140926f, 0.457517f},
    {0.280255f, 0.165693f, 0.476498f}, {0.276194f, 0.190074f, 0.493001f}, {0.270595f, 0.214069f, 0.507052f},
    {0.263663f, 0.237631f, 0.518762f}, {0.255645f, 0.260703f, 0.528312f}, {0.246811f, 0.283237f, 0.535941f},
    {0.237441f, 0.305202f, 0.541921f}, {0.227802f, 0.326594f, 0.546532f}, {0.218130f, 0.347432f, 0.550038f},
    {0.208623f, 0.367752f, 0.552675f}, {0.199430f, 0.387607f, 0.554642f}, {0.190631f, 0.407061f, 0.556089f},
    {0.182256f, 0.426184f, 0.557120f}, {0.174274f, 0.445044f, 0.557792f}, {0.166617f, 0.463708f, 0.558119f},
    {0.159194f, 0.482237f, 0.558073f}, {0.151918f, 0.500685f, 0.557587f}, {0.144759f, 0.519093f, 0.556572f},
    {0.137770f, 0.537492f, 0.554906f}, {0.131172f, 0.555899f, 0.552459f}, {0.125394f, 0.574318f, 0.549086f},
    {0.121148f, 0.592739f, 0.544641f}, {0.119423f, 0.611141f, 0.538982f}, {0.121380f, 0.629492f, 0.531973f},
    {0.128087f, 0.647749f, 0.523491f}, {0.140210f, 0.665859f, 0.513427f}, {0.157851f, 0.683765f, 0.501686f},
    {0.180653f, 0.701402f, 0.488189f}, {0.208030f, 0.718701f, 0.472873f}, {0.239374f, 0.735588f, 0.455688f},
    {0.274149f, 0.751988f, 0.436601f}, {0.311925f, 0.767822f, 0.415586f}, {0.352360f, 0.783011f, 0.392636f},
    {0.395174f, 0.797475f, 0.367757f}, {0.440137f, 0.811138f, 0.340967f}, {0.487026f, 0.823929f, 0.312321f},
    {0.535621f, 0.835785f, 0.281908f}, {0.585678f, 0.846661f, 0.249897f}, {0.636902f, 0.856542f, 0.216620f},
    {0.688944f, 0.865448f, 0.182725f}, {0.741388f, 0.873449f, 0.149561f}, {0.793760f, 0.880678f, 0.120005f},
    {0.845561f, 0.887322f, 0.099702f}, {0.896320f, 0.893616f, 0.096335f}, {0.945636f, 0.899815f, 0.112838f},
    {0.993248f, 0.906157f, 0.143936f},
};
// cividis: matplotlib's table, every 5th of 256 entries (t = 0, 5/255, ..., 1): 52 keys.
constexpr float kCividis[][3] = {
    {0.000000f, 0.135112f, 0.304751f}, {0.000000f, 0.149791f, 0.337065f}, {0.000000f, 0.163058f, 0.371608f},
    {0.000000f, 0.176082f, 0.407577f}, {0.000000f, 0.188769f, 0.439563f}, {0.032110f, 0.201199f, 0.440785f},
    {0.087465f, 0.214879f, 0.437342f}, {0.124291f, 0.228697f, 0.433547f}, {0.154261f, 0.242475f, 0.430120f},
    {0.180503f, 0.256180f, 0.427299f}, {0.204385f, 0.269823f, 0.425126f}, {0.226598f, 0.283419f, 0.423678f},
    {0.247605f, 0.296986f, 0.422917f}, {0.267693f, 0.310542f, 0.422821f}, {0.287065f, 0.324103f, 0.423373f},
    {0.305886f, 0.337681f, 0.424512f}, {0.324250f, 0.351289f, 0.426250f}, {0.342246f, 0.364939f, 0.428559f},
    {0.359916f, 0.378641f, 0.431501f}, {0.377371f, 0.392404f, 0.434890f}, {0.394568f, 0.406236f, 0.438986f},
    {0.411607f, 0.420145f, 0.443577f}, {0.428462f, 0.434140f, 0.448864f}, {0.445148f, 0.448226f, 0.454885f},
    {0.461616f, 0.462405f, 0.461969f}, {0.478186f, 0.476699f, 0.468845f}, {0.495913f, 0.491076f, 0.471751f},
    {0.514226f, 0.505546f, 0.472640f}, {0.532829f, 0.520135f, 0.472401f}, {0.551612f, 0.534849f, 0.471439f},
    {0.570607f, 0.549695f, 0.469593f}, {0.589753f, 0.564682f, 0.467090f}, {0.609105f, 0.579816f, 0.463638f},
    {0.628576f, 0.595104f, 0.459641f}, {0.648222f, 0.610553f, 0.454801f}, {0.668008f, 0.626171f, 0.449270f},
    {0.687957f, 0.641966f, 0.442886f}, {0.708067f, 0.657942f, 0.435647f}, {0.728334f, 0.674107f, 0.427554f},
    {0.748772f, 0.690470f, 0.418448f}, {0.769353f, 0.707035f, 0.408516f}, {0.790116f, 0.723810f, 0.397423f},
    {0.811054f, 0.740801f, 0.385198f}, {0.832192f, 0.758014f, 0.371529f}, {0.853515f, 0.775454f, 0.356500f},
    {0.875057f, 0.793125f, 0.339685f}, {0.896818f, 0.811030f, 0.320982f}, {0.918828f, 0.829168f, 0.299960f},
    {0.941147f, 0.847530f, 0.275815f}, {0.963872f, 0.866089f, 0.247445f}, {0.987293f, 0.884718f, 0.213336f},
    {0.995737f, 0.909344f, 0.217772f},
};
// diverging: blue - white - red, keys of equal CIELAB lightness at equal distance from the centre.
constexpr float kDiverging[][3] = {
    {0.050427f, 0.290810f, 0.450273f}, {0.074943f, 0.371225f, 0.567770f}, {0.100425f, 0.454809f, 0.689897f},
    {0.126774f, 0.541235f, 0.816178f}, {0.333548f, 0.624274f, 0.879589f}, {0.525283f, 0.706331f, 0.902645f},
    {0.682547f, 0.790788f, 0.924760f}, {0.827194f, 0.877408f, 0.945893f}, {0.966005f, 0.966005f, 0.966005f},
    {0.964130f, 0.846265f, 0.834692f}, {0.950857f, 0.726959f, 0.707023f}, {0.927452f, 0.607208f, 0.583333f},
    {0.894868f, 0.485174f, 0.464038f}, {0.853849f, 0.356323f, 0.349674f}, {0.805016f, 0.204303f, 0.240981f},
    {0.705079f, 0.072266f, 0.166846f}, {0.561676f, 0.048255f, 0.124991f},
};

template <int N>
constexpr ColormapKeys keys_of(const float (&table)[N][3]) {
  static_assert(N >= 2 && N <= kMaxColormapKeys, "the shader's u_keys[] holds at most kMaxColormapKeys");
  return ColormapKeys{table, N};
}

}  // namespace

bool parse_colormap(const std::string& name, Colormap& out) {
  if (name == "viridis") {
    out = Colormap::Viridis;
  } else if (name == "cividis") {
    out = Colormap::Cividis;
  } else if (name == "diverging") {
    out = Colormap::Diverging;
  } else {
    return false;
  }
  return true;
}

const char* colormap_name(Colormap c) {
  switch (c) {
    case Colormap::Viridis:
      return "viridis";
    case Colormap::Cividis:
      return "cividis";
    case Colormap::Diverging:
      return "diverging";
  }
  return "viridis";
}

ColormapKeys colormap_keys(Colormap c) {
  switch (c) {
    case Colormap::Viridis:
      return keys_of(kViridis);
    case Colormap::Cividis:
      return keys_of(kCividis);
    case Colormap::Diverging:
      return keys_of(kDiverging);
  }
  return keys_of(kViridis);
}

// Mirrors colormap_t() in shaders/heatmap.frag: same operations, same order.
float colormap_t(Colormap c, float v, float lo, float hi) {
  if (c == Colormap::Diverging) {
    const float m = std::fmax(std::fabs(lo), std::fabs(hi));
    return m > 0.0f ? 0.5f + 0.5f * v / m : 0.5f;
  }
  const float d = hi - lo;
  return d > 0.0f ? (v - lo) / d : 0.5f;
}

// Mirrors colormap_rgb() in shaders/heatmap.frag: x = t * (count - 1), keys i and i + 1, mix by x - i.
std::array<float, 3> colormap_rgb(Colormap c, float t) {
  const ColormapKeys k = colormap_keys(c);
  if (!(t >= 0.0f)) t = 0.0f;  // also NaN (GLSL's clamp leaves NaN undefined; the shader never sees one)
  if (t > 1.0f) t = 1.0f;
  const float x = t * static_cast<float>(k.count - 1);
  int i = static_cast<int>(std::floor(x));
  if (i > k.count - 2) i = k.count - 2;
  const float f = x - static_cast<float>(i);
  std::array<float, 3> rgb{};
  for (int ch = 0; ch < 3; ++ch) {
    rgb[ch] = k.rgb[i][ch] * (1.0f - f) + k.rgb[i + 1][ch] * f;  // GLSL mix(a, b, f) = a * (1 - f) + b * f
  }
  return rgb;
}

std::array<float, 3> value_rgb(Colormap c, float v, float lo, float hi) {
  if (!is_shown_value(v)) return kNonFiniteRgb;
  return colormap_rgb(c, colormap_t(c, v, lo, hi));
}

}  // namespace gfx
