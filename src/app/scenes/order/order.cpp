// Order blindness scene: the refund pair through the router, the shuffle test and the common mistake.
#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "app/logic/memo.hpp"
#include "app/logic/text.hpp"
#include "app/logic/trained_model.hpp"
#include "app/scenes/order/panels.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/index_sort.hpp"
#include "core/tokenizer.hpp"
#include "core/train/trainer.hpp"

namespace app {

const std::array<std::string, 2>& refund_emails() {
  static const std::array<std::string, 2> emails = {"Refund the delivery fee, not the cake.",
                                                    "Refund the cake, not the delivery fee."};
  return emails;
}

attn::Scheme router_scheme(attn::Scheme positions) {
  const std::vector<attn::Scheme> router = attn::schemes_for(attn::kUseRouter);
  const bool takes = std::find(router.begin(), router.end(), positions) != router.end();
  return takes && positions != attn::Scheme::None ? positions : attn::Scheme::Sinusoidal;
}

attn::Scheme shuffle_scheme(attn::Scheme positions) {
  if (positions == attn::Scheme::Learned || inside_attention(positions)) return positions;
  return attn::Scheme::Sinusoidal;
}

namespace {

// What the scene says first, above its settings.
constexpr const char* kIntro =
    "Attention on its own reads a sentence as a bag of words: move the words around and each one "
    "still gets the same blend, only in a different row. Positions are what let order through.";

// The confidences a trained router without positions (from the Train scene or a file) gives the two refund
// emails, or {-1, -1} when the current trained model has positions, a causal mask, or is missing. `memo` is
// keyed by the trained model's version.
std::array<float, 2> trained_blind_confidences(Memo<std::array<float, 2>, long long>& memo) {
  const TrainedModel* m = trained_model();
  if (!m) return {-1.0f, -1.0f};
  memo.get({m->version}, [m]() -> std::array<float, 2> {
    const attn::train::ModelConfig& c = m->model.config;
    if (c.positions != attn::Scheme::None || c.causal) return {-1.0f, -1.0f};
    std::array<float, 2> confidence{};
    for (size_t i = 0; i < 2; ++i)
      confidence[i] = attn::train::predict_text(m->model, m->vocab, refund_emails()[i]).prediction.confidence;
    return confidence;
  });
  return memo.ok() ? memo.value() : std::array<float, 2>{-1.0f, -1.0f};
}

// Both emails through one router; the error is kept in the column.
RouterColumn run_column(const Settings& s, attn::Scheme scheme) {
  RouterColumn col;
  col.scheme = scheme;
  attn::SeededRouterConfig c;
  c.d_model = s.d_model;
  c.heads = s.heads;
  c.positions = scheme;
  c.seed = static_cast<std::uint64_t>(s.seed);
  c.learned_slots = s.slots;
  try {
    const attn::SeededRouter router(c);
    for (size_t i = 0; i < 2; ++i) col.emails[i] = router.classify(refund_emails()[i]);
    for (size_t k = 0; k < 2; ++k) {
      const double d = std::fabs(static_cast<double>(col.emails[0].probabilities[k]) -
                                 static_cast<double>(col.emails[1].probabilities[k]));
      col.difference = std::max(col.difference, d);
    }
  } catch (const attn::InputError& e) {
    col.error = e.what();
  }
  return col;
}

RouterData compute_router(const Settings& s) {
  RouterData r;
  r.positions = s.positions;
  r.seed = s.seed;
  const attn::Scheme scheme = router_scheme(s.positions);
  r.plain = run_column(s, attn::Scheme::None);
  r.positioned = run_column(s, scheme);
  std::array<std::vector<std::string>, 2> bags = {attn::tokenize(refund_emails()[0]),
                                                  attn::tokenize(refund_emails()[1])};
  for (auto& b : bags) attn::sort_strings(b);
  r.same_bag = bags[0] == bags[1];
  return r;
}
using RouterMemo = Memo<RouterData, int, int, int, int, attn::Scheme>;

// "2, 0,1" -> {2, 0, 1}; throws InputError naming the entry it could not read.
std::vector<int> parse_perm(const std::string& text) {
  std::vector<int> perm;
  for (std::string item : split_list(text, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    int x = 0;
    const char* end = item.data() + item.size();
    const auto [p, ec] = std::from_chars(item.data(), end, x);
    if (item.empty() || ec != std::errc() || p != end) {
      throw attn::InputError("could not read '" + item +
                             "' in the permutation; write token indices separated "
                             "by commas, e.g. 2,0,1");
    }
    perm.push_back(x);
  }
  return perm;
}

// The largest |value| over every output the shuffle panels draw, so they share one colour scale.
float common_range(const attn::ShuffleStudy& st) {
  float m = 0.0f;
  for (const attn::ShuffleCase* c : {&st.none, &st.slots, &st.words}) {
    m = std::max({m, c->original.cwiseAbs().maxCoeff(), c->shuffled.cwiseAbs().maxCoeff()});
  }
  return m > 0.0f ? m : 1.0f;
}

// The error stays in the data: the panels show it in place.
ShuffleData compute_shuffle(const Settings& s) {
  ShuffleData d;
  try {
    std::vector<std::string> tokens = attn::tokenize(s.text);
    if (tokens.empty()) throw attn::InputError("the text is empty; type at least one word");
    d.t = std::min(static_cast<int>(tokens.size()), attn::kMaxTokens);
    d.from_seed = s.perm.empty();
    const std::vector<int> perm =
        d.from_seed ? attn::random_permutation(d.t, static_cast<std::uint64_t>(s.seed)) : parse_perm(s.perm);
    attn::require_permutation(perm, d.t);
    attn::PipelineConfig c = pipeline_config(s, shuffle_scheme(s.positions));
    c.causal = false;  // a causal mask is itself an order signal; the lesson's test has none
    d.study = attn::shuffle_study(tokens, c, perm);
    d.perm = perm;
    d.labels = token_labels(d.study.tokens);
    d.shuffled_labels.clear();
    for (int p : perm) d.shuffled_labels.push_back(d.labels[static_cast<size_t>(p)]);
    d.dim_labels = index_labels(s.d_model);
    d.range = common_range(d.study);
  } catch (const attn::InputError& e) {
    d.error = e.what();
  } catch (const std::bad_alloc&) {
    d = ShuffleData();
    d.error = kTooLargeMessage;
  }
  return d;
}
using ShuffleMemo = Memo<ShuffleData, std::string, std::string, attn::Scheme, int, int, int, int>;

// Key by key here and below: nlohmann's nested initializer lists cost the page several times the code.
nlohmann::json email_json(const attn::SeededRouterResult& r, const std::string& text, attn::Scheme scheme) {
  nlohmann::json j;
  j["text"] = text;
  j["positions"] = attn::scheme_name(scheme);
  j["tokens"] = r.tokens;
  j["label"] = attn::SeededRouter::labels()[static_cast<size_t>(r.label)];
  j["confidence"] = r.confidence;
  j["probabilities"] = r.probabilities;
  j["pooled"] = std::vector<float>(r.pooled.data(), r.pooled.data() + r.pooled.size());
  return j;
}

std::vector<float> flat(const attn::Mat& m) {
  return std::vector<float>(m.data(), m.data() + m.size());
}

// The check, with both outputs (T x D, row after row) when they are small enough (up to 2048 numbers each).
nlohmann::json check_json(const attn::ShuffleCase& c) {
  nlohmann::json j;
  j["max_diff"] = c.check.max_diff;
  j["allclose"] = c.check.allclose;
  if (c.original.size() <= 2048) j["original"] = flat(c.original), j["shuffled"] = flat(c.shuffled);
  return j;
}

// state().shown: both emails through both routers, and the shuffle test's checks.
void fill(nlohmann::json& j, const Settings& s, const RouterData& r, const ShuffleData& d) {
  j["d_model"] = s.d_model;
  j["heads"] = s.heads;
  j["seed"] = s.seed;
  j["text"] = s.text;
  j["scheme"] = attn::scheme_name(r.positioned.scheme);
  j["same_bag_of_words"] = r.same_bag;
  nlohmann::json emails = nlohmann::json::array();
  for (const RouterColumn* col : {&r.plain, &r.positioned}) {
    if (!col->error.empty()) continue;
    for (size_t i = 0; i < 2; ++i)
      emails.push_back(email_json(col->emails[i], refund_emails()[i], col->scheme));
  }
  j["emails"] = std::move(emails);
  if (r.plain.error.empty()) {
    j["no_positions_difference"] = r.plain.difference;
    j["same_label_without"] = r.plain.emails[0].label == r.plain.emails[1].label;
  } else {
    j["no_positions_error"] = r.plain.error;
  }
  if (r.positioned.error.empty()) {
    j["with_positions_difference"] = r.positioned.difference;
    j["same_label_with"] = r.positioned.emails[0].label == r.positioned.emails[1].label;
  } else {
    j["with_positions_error"] = r.positioned.error;
  }
  j["shuffle_scheme"] = attn::scheme_name(shuffle_scheme(s.positions));
  j["perm_from_seed"] = d.from_seed;
  if (!d.error.empty()) {
    j["shuffle_error"] = d.error;
    return;
  }
  j["perm"] = d.perm;
  j["tokens"] = d.study.tokens;
  j["shuffled_tokens"] = d.study.shuffled;
  j["dropped_tokens"] = d.study.dropped_tokens;
  nlohmann::json& shuffle = j["shuffle"];
  shuffle["none"] = check_json(d.study.none);
  shuffle["slots"] = check_json(d.study.slots);
  shuffle["words"] = check_json(d.study.words);
}

void draw_controls(Settings& s) {
  ControlSet show;
  show.causal = false;
  attention_controls(s, show);
  if (s.positions == attn::Scheme::Learned) {
    ImGui::SetNextItemWidth(180);
    slider_int("slots", &s.slots, 1, 4096, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    help_marker(
        "Slots of the learned position table: a text longer than this has no position vector for its "
        "last tokens.");
  }
}

// What the order scene keeps between frames.
struct OrderState : SceneState {
  RouterMemo router_memo;
  ShuffleMemo shuffle_memo;
  Memo<std::array<float, 2>, long long> blind_memo;  // trained_blind_confidences()
  int randomised = 0;                                // presses of the shuffle test's Randomise
};

}  // namespace

void draw_order_scene(SceneContext& ctx) {
  OrderState& st = ctx.state<OrderState>();
  Settings& s = ctx.settings;
  text_wrapped("%s", kIntro);
  if (ctx.settings_open()) draw_controls(s);
  st.router_memo.get({s.d_model, s.heads, s.seed, s.slots, s.positions}, [&] { return compute_router(s); });
  st.shuffle_memo.get({s.text, s.perm, s.positions, s.d_model, s.heads, s.seed, s.slots},
                      [&] { return compute_shuffle(s); });
  // Errors stay inside the data (shown in place); only running out of memory fails a whole computation.
  if (!ctx.ready(st.router_memo) || !ctx.ready(st.shuffle_memo)) return;
  const RouterData& router = st.router_memo.value();
  const ShuffleData& shuffle = st.shuffle_memo.value();
  const std::uint64_t version = st.shuffle_memo.version();
  if (section("The refund pair", "compare", s.hide))
    draw_router(router, trained_blind_confidences(st.blind_memo));
  if (section("The shuffle test", "shuffle", s.hide)) draw_shuffle(s, shuffle, version, st.randomised);
  if (section("The common mistake: positions attached to words", "mistake", s.hide))
    draw_mistake(shuffle, version);
  const std::string& err = !router.plain.error.empty()        ? router.plain.error
                           : !router.positioned.error.empty() ? router.positioned.error
                                                              : shuffle.error;
  if (!err.empty()) ctx.error = err;
  ctx.report([s = Settings(s), r = st.router_memo.shared(), d = st.shuffle_memo.shared()](nlohmann::json& j) {
    fill(j, s, *r, *d);
  });
}

}  // namespace app
