// Reads a Hugging Face GPT-2 checkpoint: its Conv1D weights are already (in, out), the core's layout.
#include "model_io/hf_gpt2.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/hf_config.hpp"

namespace attn::model_io {

lm::LmModel read_hf_gpt2(const std::string& config_json, const SafeTensors& st) {
  const nlohmann::json c = parse_hf_config(config_json);
  const int d = hf_config_int(c, "n_embd", 1, 16384), layers = hf_config_int(c, "n_layer", 1, 256);
  const int heads = hf_config_int(c, "n_head", 1, d), vocab = hf_config_int(c, "vocab_size", 1, 1 << 20);
  const int slots = hf_config_int(c, "n_positions", 1, 1 << 20);
  const int f =
      c.contains("n_inner") && !c["n_inner"].is_null() ? hf_config_int(c, "n_inner", 1, 65536) : 4 * d;
  if (d % heads != 0)
    throw_input_error({"config.json's n_embd ", d, " is not divisible by its ", heads, " heads"});
  const std::string act = hf_config_string(c, "activation_function", "gelu_new");
  if (act != "gelu_new" && act != "gelu_pytorch_tanh") {
    throw_input_error({"config.json's activation_function is '", one_line(act, 40),
                       "'; this reader computes GELU's tanh form (gelu_new)"});
  }
  lm::LmModel m;
  m.format = "gpt2";
  m.max_len = slots;
  TransformerConfig& t = m.config;
  t.d_model = d, t.heads = heads, t.layers = layers, t.d_ff = f, t.vocab = vocab;
  t.norm = Norm::PreLayerNorm, t.activation = Activation::Gelu, t.positions = Scheme::None, t.causal = true;
  t.norm_eps = c.contains("layer_norm_epsilon") && c["layer_norm_epsilon"].is_number()
                   ? c["layer_norm_epsilon"].get<double>()
                   : 1e-5;
  if (!(t.norm_eps > 0 && t.norm_eps < 1))
    throw InputError("config.json's layer_norm_epsilon is out of range");
  const std::string pre = st.has("transformer.wte.weight") ? "transformer." : "";
  m.embedding = st.matrix(pre + "wte.weight", vocab, d);
  m.position_table = st.matrix(pre + "wpe.weight", slots, d);
  for (int l = 0; l < layers; ++l) {
    const std::string p = pre + "h." + std::to_string(l) + ".";
    LayerWeightsT<float> w;
    w.ln1_gain = st.matrix(p + "ln_1.weight", 1, d), w.ln1_bias = st.matrix(p + "ln_1.bias", 1, d);
    w.w_qkv = st.matrix(p + "attn.c_attn.weight", d, 3 * d),
    w.b_qkv = st.matrix(p + "attn.c_attn.bias", 1, 3 * d);
    w.w_o = st.matrix(p + "attn.c_proj.weight", d, d), w.b_o = st.matrix(p + "attn.c_proj.bias", 1, d);
    w.ln2_gain = st.matrix(p + "ln_2.weight", 1, d), w.ln2_bias = st.matrix(p + "ln_2.bias", 1, d);
    w.w1 = st.matrix(p + "mlp.c_fc.weight", d, f), w.b1 = st.matrix(p + "mlp.c_fc.bias", 1, f);
    w.w2 = st.matrix(p + "mlp.c_proj.weight", f, d), w.b2 = st.matrix(p + "mlp.c_proj.bias", 1, d);
    m.layers.push_back(std::move(w));
  }
  m.final_gain = st.matrix(pre + "ln_f.weight", 1, d), m.final_bias = st.matrix(pre + "ln_f.bias", 1, d);
  m.tied = !st.has("lm_head.weight");
  if (!m.tied) m.classifier = st.transposed("lm_head.weight", vocab, d);
  return m;
}

}  // namespace attn::model_io
