// The Real model scene's messages as bytes, field by field in a fixed order.
#include "app/logic/lm_messages.hpp"

namespace app {
namespace {

void put_ints(Writer& w, const std::vector<int>& v) {
  w.bytes(v.data(), v.size() * sizeof(int));
}

std::vector<int> get_ints(Reader& r) {
  const auto n = r.get<std::uint32_t>();
  if (n % sizeof(int) != 0 || n > r.left()) r.fail();
  std::vector<int> v(n / sizeof(int));
  r.read(v.data(), n);
  return v;
}

void expect(Reader& r, std::uint32_t tag) {
  if (r.get<std::uint32_t>() != tag) r.fail();
}

}  // namespace

bool LmRequest::same_question(const LmRequest& o) const {
  return model == o.model && use_text == o.use_text && (use_text ? text == o.text : ids == o.ids) &&
         off == o.off && generate == o.generate && temperature == o.temperature && seed == o.seed &&
         roles == o.roles && grid == o.grid && close == o.close;
}

Bytes encode(const LmInfo& i) {
  Writer w;
  w.put(kLmInfoTag);
  w.put(i.model);
  w.text(i.error);
  w.text(i.source);
  w.text(i.format);
  for (int v : {i.d_model, i.heads, i.kv_heads, i.layers, i.vocab, i.max_len, i.d_ff}) w.put(v);
  for (bool b : {i.tied, i.has_tokenizer, i.learned_positions}) w.put<std::uint8_t>(b ? 1 : 0);
  w.put(i.parameters);
  w.put(i.seconds);
  w.put(i.memory);
  w.mat(i.position_table ? *i.position_table : attn::Mat());
  return std::move(w.out);
}

LmInfo decode_lm_info(const Bytes& bytes) {
  Reader r(bytes, "model information");
  expect(r, kLmInfoTag);
  LmInfo i;
  i.model = r.get<long long>();
  i.error = r.text();
  i.source = r.text();
  i.format = r.text();
  for (int* v : {&i.d_model, &i.heads, &i.kv_heads, &i.layers, &i.vocab, &i.max_len, &i.d_ff})
    *v = r.get<int>();
  for (bool* b : {&i.tied, &i.has_tokenizer, &i.learned_positions}) *b = r.get<std::uint8_t>() != 0;
  i.parameters = r.get<long long>();
  i.seconds = r.get<double>();
  i.memory = r.get<long long>();
  attn::Mat table = r.mat();
  if (table.size() > 0) i.position_table = std::make_shared<const attn::Mat>(std::move(table));
  r.end();
  return i;
}

Bytes encode(const LmRequest& q) {
  Writer w;
  w.put(kLmRequestTag);
  w.put(q.serial);
  w.put(q.model);
  w.put<std::uint8_t>(q.use_text ? 1 : 0);
  w.text(q.text);
  put_ints(w, q.ids);
  w.text(q.off);
  w.put(q.generate);
  w.put(q.temperature);
  w.put(q.seed);
  w.put<std::uint8_t>(q.roles ? 1 : 0);
  w.put(q.grid);
  w.put<std::uint8_t>(q.close ? 1 : 0);
  return std::move(w.out);
}

LmRequest decode_lm_request(const Bytes& bytes) {
  Reader r(bytes, "model question");
  expect(r, kLmRequestTag);
  LmRequest q;
  q.serial = r.get<long long>();
  q.model = r.get<long long>();
  q.use_text = r.get<std::uint8_t>() != 0;
  q.text = r.text();
  q.ids = get_ints(r);
  q.off = r.text();
  q.generate = r.get<int>();
  q.temperature = r.get<double>();
  q.seed = r.get<std::uint64_t>();
  q.roles = r.get<std::uint8_t>() != 0;
  q.grid = r.get<int>();
  q.close = r.get<std::uint8_t>() != 0;
  r.end();
  return q;
}

Bytes encode(const LmAnswer& a) {
  Writer w;
  w.put(kLmAnswerTag);
  w.put(a.serial);
  w.put(a.model);
  w.text(a.error);
  put_ints(w, a.ids);
  w.put(a.prompt);
  w.put(static_cast<std::uint32_t>(a.pieces.size()));
  for (const std::string& p : a.pieces) w.text(p);
  w.text(a.text);
  w.put(static_cast<std::uint32_t>(a.next.size()));
  for (const LmNext& n : a.next) {
    w.put(n.id);
    w.put(n.p);
    w.text(n.piece);
  }
  w.put(static_cast<std::uint32_t>(a.grids.size()));
  for (const attn::Mat& g : a.grids) w.mat(g);
  w.put(static_cast<std::uint32_t>(a.roles.size()));
  for (const LmHeadScores& h : a.roles) {
    for (int v : {h.layer, h.head}) w.put(v);
    for (float v : {h.previous_token, h.induction, h.first_token}) w.put(v);
    w.text(h.role);
  }
  w.put(a.segment);
  w.put(static_cast<std::uint32_t>(a.gap_scores.size()));
  for (float v : a.gap_scores) w.put(v);
  w.put(a.gap_key);
  w.put(a.seconds);
  return std::move(w.out);
}

LmAnswer decode_lm_answer(const Bytes& bytes) {
  Reader r(bytes, "model answer");
  expect(r, kLmAnswerTag);
  LmAnswer a;
  a.serial = r.get<long long>();
  a.model = r.get<long long>();
  a.error = r.text();
  a.ids = get_ints(r);
  a.prompt = r.get<int>();
  const auto pieces = r.get<std::uint32_t>();
  if (pieces > r.left() / 4) r.fail();
  for (std::uint32_t i = 0; i < pieces; ++i) a.pieces.push_back(r.text());
  a.text = r.text();
  const auto next = r.get<std::uint32_t>();
  if (next > r.left() / 16) r.fail();
  a.next.resize(next);
  for (LmNext& n : a.next) {
    n.id = r.get<int>();
    n.p = r.get<double>();
    n.piece = r.text();
  }
  const auto grids = r.get<std::uint32_t>();
  if (grids > r.left() / 8) r.fail();
  for (std::uint32_t i = 0; i < grids; ++i) a.grids.push_back(r.mat());
  const auto roles = r.get<std::uint32_t>();
  if (roles > r.left() / 24) r.fail();
  a.roles.resize(roles);
  for (LmHeadScores& h : a.roles) {
    h.layer = r.get<int>();
    h.head = r.get<int>();
    h.previous_token = r.get<float>();
    h.induction = r.get<float>();
    h.first_token = r.get<float>();
    h.role = r.text();
  }
  a.segment = r.get<int>();
  const auto gaps = r.get<std::uint32_t>();
  if (gaps > r.left() / 4) r.fail();
  for (std::uint32_t i = 0; i < gaps; ++i) a.gap_scores.push_back(r.get<float>());
  a.gap_key = r.get<int>();
  a.seconds = r.get<double>();
  r.end();
  return a;
}

}  // namespace app
