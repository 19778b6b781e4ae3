// Reads a Hugging Face Llama checkpoint: its config, then every tensor by name into the core's layout.
#include "model_io/hf_llama.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/hf_config.hpp"

namespace attn::model_io {
namespace {

// (in, heads * d_k) with each head's columns in the halves layout -> the core's pairs, in place: new column
// 2p is old p, new 2p + 1 is old p + d_k / 2.
void pairs_from_halves(Mat& w, int heads, int dk) {
  Mat head(w.rows(), dk);  // (in, d_k) one head's columns as stored
  for (int h = 0; h < heads; ++h) {
    head = w.middleCols(h * dk, dk);
    for (int p = 0; p < dk / 2; ++p) {
      w.col(h * dk + 2 * p) = head.col(p);
      w.col(h * dk + 2 * p + 1) = head.col(dk / 2 + p);
    }
  }
}

}  // namespace

lm::LmModel read_hf_llama(const std::string& config_json, const SafeTensors& st) {
  const nlohmann::json c = parse_hf_config(config_json);
  const std::string type = hf_config_string(c, "model_type", "");
  if (type != "llama") {
    throw_input_error({"config.json's model_type is '", one_line(type, 40), "'; this reader takes 'llama'"});
  }
  if (c.contains("rope_scaling") && !c["rope_scaling"].is_null()) {
    throw InputError("config.json asks for RoPE scaling, which this reader does not apply");
  }
  const int d = hf_config_int(c, "hidden_size", 1, 16384),
            f = hf_config_int(c, "intermediate_size", 1, 65536);
  const int layers = hf_config_int(c, "num_hidden_layers", 1, 256),
            heads = hf_config_int(c, "num_attention_heads", 1, d);
  const int kv_heads =
      c.contains("num_key_value_heads") ? hf_config_int(c, "num_key_value_heads", 1, heads) : heads;
  const int vocab = hf_config_int(c, "vocab_size", 1, 1 << 20);
  const int max_len = hf_config_int(c, "max_position_embeddings", 1, 1 << 24);
  if (d % heads != 0 || heads % kv_heads != 0 || (d / heads) % 2 != 0) {
    throw_input_error({"config.json's ", d, " wide model with ", heads, " heads and ", kv_heads,
                       " key/value heads does not split into even heads and whole groups"});
  }
  const int dk = d / heads, kv = dk * kv_heads;
  if (c.contains("head_dim") && !c["head_dim"].is_null() && hf_config_int(c, "head_dim", 1, d) != dk) {
    throw InputError(
        "config.json's head_dim is not hidden_size / num_attention_heads; this reader needs it to be");
  }
  lm::LmModel m;
  m.format = "llama";
  m.max_len = max_len;
  TransformerConfig& t = m.config;
  t.d_model = d, t.heads = heads, t.kv_heads = kv_heads, t.layers = layers, t.d_ff = f, t.vocab = vocab;
  t.norm = Norm::PreRMSNorm, t.activation = Activation::SwiGLU, t.positions = Scheme::Rope, t.causal = true;
  t.base = c.contains("rope_theta") && c["rope_theta"].is_number() ? c["rope_theta"].get<double>() : 10000.0;
  t.norm_eps =
      c.contains("rms_norm_eps") && c["rms_norm_eps"].is_number() ? c["rms_norm_eps"].get<double>() : 1e-6;
  if (!(t.base > 1 && t.base < 1e12) || !(t.norm_eps > 0 && t.norm_eps < 1)) {
    throw InputError("config.json's rope_theta or rms_norm_eps is out of range");
  }
  m.embedding = st.matrix("model.embed_tokens.weight", vocab, d);
  for (int l = 0; l < layers; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    LayerWeightsT<float> w;
    // (out, in) as stored -> the core's (in, out), one tensor at a time beside the model
    w.w_qkv.resize(d, d + 2 * kv);                                // (D, D + 2 G d_k)
    Mat qk = st.transposed(p + "self_attn.q_proj.weight", d, d);  // (D, D), then (D, G d_k)
    pairs_from_halves(qk, heads, dk);
    w.w_qkv.leftCols(d) = qk;
    qk = st.transposed(p + "self_attn.k_proj.weight", kv, d);
    pairs_from_halves(qk, kv_heads, dk);
    w.w_qkv.middleCols(d, kv) = qk;
    w.w_qkv.rightCols(kv) = st.transposed(p + "self_attn.v_proj.weight", kv, d);
    w.w_o = st.transposed(p + "self_attn.o_proj.weight", d, d);
    w.ln1_gain = st.matrix(p + "input_layernorm.weight", 1, d);
    w.ln2_gain = st.matrix(p + "post_attention_layernorm.weight", 1, d);
    w.w1 = st.transposed(p + "mlp.gate_proj.weight", f, d);
    w.w3 = st.transposed(p + "mlp.up_proj.weight", f, d);
    w.w2 = st.transposed(p + "mlp.down_proj.weight", d, f);
    m.layers.push_back(std::move(w));
  }
  m.final_gain = st.matrix("model.norm.weight", 1, d);
  m.tied = hf_config_bool(c, "tie_word_embeddings", false) || !st.has("lm_head.weight");
  if (!m.tied) m.classifier = st.transposed("lm_head.weight", vocab, d);
  return m;
}

}  // namespace attn::model_io
