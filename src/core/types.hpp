// Matrix types shared by the whole core: row-major, float32 (Mat) or any scalar (MatT<S>), the layout of a
// GPU texture row.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace attn {

// A (rows, cols) matrix of scalar S stored row by row; rows are tokens or positions. The core computes in
// float32 (Mat); the gradient checks run the same code in float64 (MatT<double>).
template <class S>
using MatT = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Mat = MatT<float>;
// A read-only view of a MatT<S> or of a block of one (a head's columns of the fused (T, 3D) matrix): rows
// `outerStride()` apart, entries of a row adjacent. Binds to either without a copy.
template <class S>
struct ConstBlockOf {
  using type = Eigen::Ref<const MatT<S>, 0, Eigen::OuterStride<>>;
};
template <class S>
using ConstBlock = typename ConstBlockOf<S>::type;  // (S is never deduced from it: pass a MatT<S> beside it)
// A row vector (1, cols): biases, pooled sentence vectors, LayerNorm gains.
using RowVec = Eigen::Matrix<float, 1, Eigen::Dynamic>;
// A batch of B matrices, each (T, D): the (B, T, D) tensor of the lesson.
using Batch = std::vector<Mat>;

// The longest text the core accepts, in tokens; longer input is an error (the UI cuts it first).
inline constexpr int kMaxTokens = 1024;
// The widest model the core accepts (d_model).
inline constexpr int kMaxDModel = 4096;
// The largest seed (0 to 2^53 - 1): every seed is a whole number a JSON file (a model's config, set(),
// attend's input) stores exactly, so -1 or 2^64 - 1 never wraps around.
inline constexpr long long kMaxSeed = (1LL << 53) - 1;
// The most weights any model, layer or table may have (64 MiB of float32): no setting, input or model
// file can make the core allocate more for weights.
inline constexpr long long kMaxWeights = 16777216;

}  // namespace attn
