// The pretrained language model's holder: open, answer, close.
#include "app/logic/lm_host.hpp"

#include <new>

#include "app/logic/clock.hpp"
#include "core/error.hpp"
#include "core/lm/lm_roles.hpp"
#include "core/lm/next_token.hpp"
#include "core/schemes/rope.hpp"
#include "core/train/head_roles.hpp"

namespace app {
namespace {

double seconds_since(Clock::time_point t0) {
  return ms_between(t0, Clock::now()) / 1000.0;
}

long long count_parameters(const attn::lm::LmModel& m) {
  long long n = m.embedding.size() + m.position_table.size() + m.final_gain.size() + m.final_bias.size() +
                m.classifier.size();
  for (const auto& L : m.layers) {
    for (const auto* w : {&L.w_qkv, &L.b_qkv, &L.w_o, &L.b_o, &L.ln1_gain, &L.ln1_bias, &L.w1, &L.b1, &L.w3,
                          &L.w2, &L.b2, &L.ln2_gain, &L.ln2_bias})
      n += w->size();
  }
  return n;
}

std::string names_of(const std::vector<attn::model_io::NamedFile>& files) {
  std::string s;
  for (const auto& f : files) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

// What the host says of an open checkpoint.
LmInfo describe_checkpoint(const attn::model_io::Checkpoint& c, long long model) {
  const attn::lm::LmModel& m = c.model;
  LmInfo i;
  i.model = model;
  i.format = m.format;
  i.d_model = m.config.d_model;
  i.heads = m.config.heads;
  i.kv_heads = m.config.kv_groups();
  i.layers = m.config.layers;
  i.vocab = m.vocab();
  i.max_len = m.max_len;
  i.d_ff = m.config.d_ff;
  i.tied = m.tied;
  i.has_tokenizer = c.has_tokenizer();
  i.learned_positions = m.position_table.size() > 0;
  if (m.position_table.size() > 0) i.position_table = std::make_shared<const attn::Mat>(m.position_table);
  i.parameters = count_parameters(m);
  return i;
}

// The RoPE scores by gap of head `grid` (layer * heads + head) into a: the last token's query and the key
// its weights favour, each turned back from its position (qkv holds them turned), then scored at every gap
// as RoPE would turn them (rope_score).
void rope_gaps(const attn::lm::LmModel& m, const attn::lm::LmForward& f, int grid, LmAnswer& a) {
  const attn::TransformerConfig& c = m.config;
  const int l = grid / c.heads, h = grid % c.heads, dk = c.d_model / c.heads;
  const attn::Mat& qkv = f.layers[static_cast<size_t>(l)].qkv;  // (T, D + 2 G d_k)
  const int i = static_cast<int>(qkv.rows()) - 1;
  a.grids[static_cast<size_t>(grid)].row(i).maxCoeff(&a.gap_key);
  // its q and its group's k: (1, d_k) each, at positions i and gap_key
  const auto unturned = [&](int row, int col) {
    attn::Mat v = qkv.block(row, col, 1, dk);
    attn::ops::rope_rotate(v, 0, dk, attn::ops::RopeTable::for_positions(dk, {row}, c.base), true);
    return attn::RowVec(v);
  };
  const attn::RowVec q = unturned(i, h * dk), k = unturned(a.gap_key, c.key_column(c.d_model, h));
  for (int g = -kLmGaps; g <= kLmGaps; ++g)
    a.gap_scores.push_back(attn::rope_score(q, k, std::max(g, 0), std::max(-g, 0), c.base));
}

}  // namespace

std::optional<LmInfo> LmHost::add_file(long long open, int index, int count, attn::model_io::NamedFile file) {
  if (open != open_ || index == 0) files_.clear(), open_ = open;
  files_.push_back(std::move(file));
  if (index + 1 < count) return std::nullopt;
  std::vector<attn::model_io::NamedFile> files;
  files.swap(files_);
  return this->open(open, std::move(files));
}

LmInfo LmHost::open(long long open, std::vector<attn::model_io::NamedFile> files) {
  const std::string source = names_of(files);
  const Clock::time_point t0 = Clock::now();
  checkpoint_.reset();  // the model it replaces goes first: two never share the memory
  kept_.reset();
  model_ = 0;
  LmInfo info;
  try {
    checkpoint_ = attn::model_io::open_checkpoint(std::move(files));
    model_ = open;
    info = describe_checkpoint(*checkpoint_, open);
  } catch (const attn::InputError& e) {
    info.model = open;
    info.error = e.what();
  } catch (const std::bad_alloc&) {
    info.model = open;
    info.error = "the model is too large to open here (memory ran out)";
  }
  info.source = source;
  info.seconds = seconds_since(t0);
#ifdef __wasm__
  info.memory = static_cast<long long>(__builtin_wasm_memory_size(0)) * 65536;
#endif
  return info;
}

bool LmHost::continues_kept(const LmRequest& q) const {
  if (!kept_ || q.generate < kept_->q.generate) return false;
  LmRequest same = q;  // q with the kept question's count of ids to generate, roles and enlarged head
  same.generate = kept_->q.generate, same.roles = kept_->q.roles, same.grid = kept_->q.grid;
  return same.same_question(kept_->q);
}

LmAnswer LmHost::answer(const LmRequest& q) {
  const Clock::time_point t0 = Clock::now();
  LmAnswer a;
  a.serial = q.serial;
  a.model = q.model;
  if (q.close) {
    if (q.model == model_) checkpoint_.reset(), kept_.reset(), model_ = 0;
    return a;
  }
  try {
    if (!checkpoint_ || q.model != model_) throw attn::InputError("no model is open");
    const attn::model_io::Checkpoint& c = *checkpoint_;
    const attn::TransformerConfig& cfg = c.model.config;
    const attn::HeadSwitch off = attn::train::parse_heads_off(q.off, cfg.layers, cfg.heads);
    if (!continues_kept(q)) {
      kept_.reset();  // its memory goes before the new forward's comes
      Kept k{q, q.use_text ? c.encode(q.text) : q.ids, {}, attn::Rng(q.seed)};
      k.q.generate = 0;
      k.f = attn::lm::lm_forward(c.model, k.ids, &off, true);
      kept_ = std::move(k);
    }
    Kept& k = *kept_;
    a.prompt = static_cast<int>(k.ids.size()) - k.q.generate;
    attn::lm::generate_more(c.model, k.ids, q.generate - k.q.generate, q.temperature, k.rng, &off, k.f);
    k.q = q;
    for (auto& layer : k.f.layers) layer.scores.clear();  // not asked for: their memory is returned
    a.ids = k.ids;
    const attn::lm::LmForward& f = k.f;
    for (size_t i = 0; i < a.ids.size(); ++i) a.pieces.push_back(c.piece(i ? a.ids[i - 1] : -1, a.ids[i]));
    a.text = c.text(a.ids);
    for (const attn::lm::Candidate& n :
         attn::lm::top_next(f.logits, static_cast<int>(f.logits.rows()) - 1, 10))
      a.next.push_back({n.id, n.p, c.piece(a.ids.back(), n.id)});
    for (const auto& layer : f.layers) {
      for (const attn::Mat& w : layer.weights) a.grids.push_back(w);
    }
    if (q.grid >= 0 && q.grid < cfg.layers * cfg.heads && cfg.positions == attn::Scheme::Rope)
      rope_gaps(c.model, f, q.grid, a);
    if (q.roles) {
      a.segment = attn::lm::lm_role_segment(c.model);
      if (a.segment >= 2) {
        const attn::lm::LmRoles roles = attn::lm::lm_head_roles(c.model, a.segment, q.seed);
        for (const attn::train::HeadRole& h : roles.heads) {  // scores: previous token, induction, first
          const auto score = [&h](size_t i) { return static_cast<float>(h.scores[i].value); };
          a.roles.push_back({h.layer, h.head, score(0), score(1), score(2), h.role});
        }
      }
    }
  } catch (const attn::InputError& e) {
    kept_.reset();
    a = LmAnswer::failure(q, e.what());
  } catch (const std::bad_alloc&) {
    kept_.reset();
    a = LmAnswer::failure(q, "the text is too long for this model here (memory ran out)");
  }
  a.seconds = seconds_since(t0);
  return a;
}

}  // namespace app
