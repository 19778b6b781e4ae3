// Reads a Hugging Face Llama checkpoint: its config, then every tensor by name into the core's layout.
#include "model_io/hf_llama.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/hf_config.hpp"

namespace attn::model_io {
namespace {

// (out, in) as stored -> (in, out) with each head's columns reordered from halves to pairs: new column
// 2p is old p, new 2p + 1 is old p + d_k / 2.
Mat pairs_from_halves(const Mat& w, int heads, int dk) {
  const Mat t = w.transpose();  // (in, heads * dk)
  Mat out(t.rows(), t.cols());
  for (int h = 0; h < heads; ++h) {
    for (int p = 0; p < dk / 2; ++p) {
      out.col(h * dk + 2 * p) = t.col(h * dk + p);
      out.col(h * dk + 2 * p + 1) = t.col(h * dk + dk / 2 + p);
    }
  }
  return out;
}

}  // namespace

lm::LmModel read_hf_llama(const std::string& config_json, const SafeTensors& st) {
  const nlohmann::json c = parse_hf_config(config_json);
  const std::string type = c.value("model_type", std::string());
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
    // each read first: a comma initializer must not be left half done by an error
    const Mat q = pairs_from_halves(st.matrix(p + "self_attn.q_proj.weight", d, d), heads, dk);
    const Mat k = pairs_from_halves(st.matrix(p + "self_attn.k_proj.weight", kv, d), kv_heads, dk);
    const Mat v = st.matrix(p + "self_attn.v_proj.weight", kv, d).transpose();
    w.w_qkv.resize(d, d + 2 * kv);  // (D, D + 2 G d_k)
    w.w_qkv << q, k, v;
    w.w_o = st.matrix(p + "self_attn.o_proj.weight", d, d).transpose();
    w.ln1_gain = st.matrix(p + "input_layernorm.weight", 1, d);
    w.ln2_gain = st.matrix(p + "post_attention_layernorm.weight", 1, d);
    w.w1 = st.matrix(p + "mlp.gate_proj.weight", f, d).transpose();
    w.w3 = st.matrix(p + "mlp.up_proj.weight", f, d).transpose();
    w.w2 = st.matrix(p + "mlp.down_proj.weight", d, f).transpose();
    m.layers.push_back(std::move(w));
  }
  m.final_gain = st.matrix("model.norm.weight", 1, d);
  m.tied = c.value("tie_word_embeddings", false) || !st.has("lm_head.weight");
  if (!m.tied) m.classifier = st.matrix("lm_head.weight", vocab, d).transpose();
  return m;
}

}  // namespace attn::model_io
