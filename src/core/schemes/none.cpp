// No positions: the layer sees a bag of words.
#include "core/schemes/scheme.hpp"

namespace attn {

extern const SchemeDef kNoneScheme;
const SchemeDef kNoneScheme = {Scheme::None, "none", "no position signal: a bag of words",
                               kUseAttention | kUseRouter};

}  // namespace attn
