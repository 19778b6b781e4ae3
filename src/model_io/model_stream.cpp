// Model files read as a stream of JSON events (nlohmann's SAX parser), so no text or tree of numbers is
// built: each tensor's "data" goes straight into float32 bytes, checked as it comes, and everything is
// bounded before it is kept (bytes, nesting, values, numbers per tensor).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_checks.hpp"
#include "model_io/model_json.hpp"

namespace attn::model_io {

using nlohmann::json;

namespace {

[[noreturn]] void too_large() {
  bad({"it is larger than ", kMaxInputBytes >> 20, " MiB; allowed: up to ", kMaxInputBytes >> 20, " MiB"});
}

// The most values (strings, numbers, objects, ...) kept outside the tensors' data: a model's config, vocab
// (up to 1,000,000 words), labels and training information fit; a tree of junk does not.
constexpr long long kMaxTreeValues = 2'000'000;

// [SECTION] bytes: a ByteSource read a chunk at a time, never past a limit

class Chunks {
 public:
  // limit: the most bytes read before too_large() throws
  Chunks(ByteSource& source, long long limit) : source_(source), limit_(limit) {}
  // Whether a byte is there to read (reads the next chunk when this one is used up).
  bool more() {
    if (pos_ < len_) return true;
    pos_ = 0;
    len_ = source_.read(buf_, sizeof buf_);
    total_ += static_cast<long long>(len_);
    if (total_ > limit_) too_large();
    return len_ > 0;
  }
  char get() const { return buf_[pos_]; }
  void next() { ++pos_; }

 private:
  ByteSource& source_;
  char buf_[1 << 16];
  std::size_t pos_ = 0, len_ = 0;
  long long total_ = 0, limit_;
};

// An input iterator over Chunks, the form nlohmann's parser reads (a default-made one is the end).
class ChunkIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;
  explicit ChunkIterator(Chunks* chunks = nullptr) : chunks_(chunks) {}
  char operator*() const { return chunks_->get(); }
  ChunkIterator& operator++() {
    chunks_->next();
    return *this;
  }
  bool operator==(const ChunkIterator& o) const { return at_end() == o.at_end(); }
  bool operator!=(const ChunkIterator& o) const { return !(*this == o); }

 private:
  bool at_end() const { return !chunks_ || !chunks_->more(); }
  Chunks* chunks_;
};

// [SECTION] events -> a small document, with the tensors' numbers as float32 bytes

// model_file: a model file's rules (an object at the top, the tensors' numbers streamed, errors thrown); else
// any JSON document, read into `doc` (bad JSON: parse_error says false, and sax_parse does too).
class Reader {
 public:
  explicit Reader(bool model_file) : model_file_(model_file) {}
  json doc;

  bool null() { return scalar(json(), "null (NaN or infinite when saved)"); }
  bool boolean(bool b) { return scalar(json(b), "a boolean"); }
  bool number_integer(json::number_integer_t n) {
    return data_ ? number(static_cast<double>(n), "") : scalar(json(n), "");
  }
  bool number_unsigned(json::number_unsigned_t n) {
    return data_ ? number(static_cast<double>(n), "") : scalar(json(n), "");
  }
  bool number_float(json::number_float_t d, const std::string& token) {
    return data_ ? number(d, token) : scalar(json(d), "");
  }
  bool string(std::string& s) { return scalar(json(std::move(s)), "a string"); }
  bool binary(json::binary_t&) { return scalar(json(), "binary"); }  // never in JSON text
  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool start_array(std::size_t) { return open(json::value_t::array); }
  bool key(std::string& k) {
    stack_.back().key = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    if (!model_file_) return false;
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> the part after "] "
    std::string_view what = e.what();
    const auto cut = what.find("] ");
    if (cut != std::string_view::npos) what.remove_prefix(cut + 2);
    bad({"not valid JSON (", what, ")"});
  }

 private:
  struct Frame {
    json* value;      // the object or array being filled
    std::string key;  // an object's last key
  };

  // The tensor whose "data" is being read: its name, its bytes so far and the most numbers it may have.
  struct Data {
    std::string name;
    json::binary_t bytes;
    long long limit;
    std::pair<int, int> shape;  // (0, 0) while the config is not known
  };

  // Where a new value goes: the document, the end of an array, or an object's last key.
  json& slot() {
    if (stack_.empty()) return doc;
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      auto& items = f.value->get_ref<json::array_t&>();
      items.emplace_back();
      return items.back();
    }
    return (*f.value)[f.key];
  }

  // Counts one more kept value: false (a plain document: discarded) or an InputError past the limit.
  bool count_value() {
    if (++values_ > kMaxTreeValues) {
      if (!model_file_) return false;
      bad({"it has more than ", kMaxTreeValues,
           " values outside the tensors' numbers; a model's config, vocab, labels and training information "
           "are much smaller"});
    }
    return true;
  }

  bool scalar(json v, const char* what_in_data) {
    if (data_) not_a_number(what_in_data);
    if (model_file_ && stack_.empty()) top_not_object(v.type_name());
    if (!count_value()) return false;
    slot() = std::move(v);
    return true;
  }

  bool open(json::value_t type) {
    if (data_) not_a_number(type == json::value_t::object ? "a object" : "a array");
    if (model_file_ && stack_.empty() && type != json::value_t::object) top_not_object("array");
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) {
      if (!model_file_) return false;
      bad({"it nests arrays or objects more than ", kMaxJsonDepth, " levels deep; allowed: up to ",
           kMaxJsonDepth});
    }
    // {"tensors": {NAME: {"data": [ <- here, the numbers of tensor NAME
    if (model_file_ && type == json::value_t::array && stack_.size() == 3 && stack_[0].key == "tensors" &&
        stack_[2].key == "data") {
      start_data(stack_[1].key);
      return true;
    }
    if (!count_value()) return false;
    json& v = slot();
    v = json(type);
    stack_.push_back({&v, {}});
    return true;
  }

  bool close() {
    if (data_) {
      json& v = slot();
      v = json::binary(std::move(data_->bytes));
      data_.reset();
      return true;
    }
    stack_.pop_back();
    return true;
  }

  void start_data(const std::string& name) {
    // The first tensor's numbers: a file written by this project has its "config" and "format" already
    // (its keys are sorted), so the format is checked and every tensor is held to the config's shapes.
    if (!header_checked_) {
      header_checked_ = true;
      if (doc.contains("format")) check_format(doc);
      if (doc.contains("config")) config_ = config_from_json(doc["config"]);
    }
    Data d{name, {}, kMaxWeights - streamed_, {0, 0}};
    if (config_) {
      bool known = false;
      for (const auto& [n, shape] : Params::expected_shapes(*config_)) {
        if (n != name) continue;
        known = true;
        d.shape = shape;
        d.limit = static_cast<long long>(shape.first) * shape.second;
      }
      if (!known) unexpected_tensor(name, *config_);
    }
    d.bytes.reserve(static_cast<std::size_t>(config_ ? d.limit : 0) * sizeof(float));
    data_ = std::move(d);
  }

  // One number of the tensor's data (`token`: its text as written; every whole number fits a float32).
  bool number(double d, std::string_view token) {
    const long long i = static_cast<long long>(data_->bytes.size() / sizeof(float));
    if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(FLT_MAX)) {
      bad({"tensor '", data_->name, "' data[", i, "] = ", token, " is not a finite float32"});
    }
    if (i >= data_->limit) too_many_numbers();
    const float f = static_cast<float>(d);
    unsigned char b[sizeof f];
    std::memcpy(b, &f, sizeof f);
    data_->bytes.insert(data_->bytes.end(), b, b + sizeof f);
    ++streamed_;
    return true;
  }

  [[noreturn]] void too_many_numbers() const {
    const Data& d = *data_;
    if (config_) {
      bad({"tensor '", d.name, "' has more than ", d.limit, " numbers in \"data\"; its shape [",
           d.shape.first, ", ", d.shape.second, "] needs ", d.limit});
    }
    bad({"the tensors hold more than ", kMaxWeights, " numbers; a model has at most ", kMaxWeights,
         " weights"});
  }

  [[noreturn]] void not_a_number(const char* what) const {
    bad({"tensor '", data_->name, "' data[", data_->bytes.size() / sizeof(float), "] is ", what,
         ", not a number"});
  }

  [[noreturn]] static void top_not_object(const char* type) {
    bad({"expected a JSON object at the top, not ", type});
  }

  bool model_file_;
  std::vector<Frame> stack_;
  std::optional<Data> data_;
  std::optional<ModelConfig> config_;
  bool header_checked_ = false;
  long long values_ = 0;
  long long streamed_ = 0;  // tensor numbers read so far, all tensors
};

// A string as a ByteSource (one parser for every source keeps the page's code small).
class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string_view text) : text_(text) {}
  std::size_t read(char* dst, std::size_t cap) override {
    const std::size_t n = std::min(cap, text_.size());
    std::memcpy(dst, text_.data(), n);
    text_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view text_;
};

}  // namespace

LoadedModel model_from_source(ByteSource& source, long long total_bytes) {
  if (total_bytes > static_cast<long long>(kMaxInputBytes)) too_large();
  Chunks chunks(source, static_cast<long long>(kMaxInputBytes));
  Reader reader(true);
  json::sax_parse(ChunkIterator(&chunks), ChunkIterator(), &reader);  // bad JSON throws from parse_error
  return model_from_streamed(reader.doc);
}

nlohmann::json parse_json(std::string_view text) {
  StringSource source(text);
  Chunks chunks(source, static_cast<long long>(text.size()));
  Reader reader(false);
  if (!json::sax_parse(ChunkIterator(&chunks), ChunkIterator(), &reader))
    return json(json::value_t::discarded);
  return std::move(reader.doc);
}

LoadedModel model_from_json(const std::string& text) {
  StringSource source(text);
  return model_from_source(source, static_cast<long long>(text.size()));
}

}  // namespace attn::model_io
