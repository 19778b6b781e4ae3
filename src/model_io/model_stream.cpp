// Model files read as a stream of JSON events (nlohmann's SAX parser), so no text or tree of numbers is
// built: each tensor's "data" goes straight into float32 bytes, checked as it comes, and everything is
// bounded before it is kept (bytes, nesting, values, numbers per tensor).
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

// [SECTION] bytes: a ByteSource read a chunk at a time, never past kMaxInputBytes

class Chunks {
 public:
  explicit Chunks(ByteSource& source) : source_(source) {}
  // Whether a byte is there to read (reads the next chunk when this one is used up).
  bool more() {
    if (pos_ < len_) return true;
    pos_ = 0;
    len_ = source_.read(buf_, sizeof buf_);
    total_ += static_cast<long long>(len_);
    if (total_ > static_cast<long long>(kMaxInputBytes)) too_large();
    return len_ > 0;
  }
  char get() const { return buf_[pos_]; }
  void next() { ++pos_; }

 private:
  ByteSource& source_;
  char buf_[1 << 16];
  std::size_t pos_ = 0, len_ = 0;
  long long total_ = 0;
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

class Reader {
 public:
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

  void count_value() {
    if (++values_ > kMaxTreeValues) {
      bad({"it has more than ", kMaxTreeValues,
           " values outside the tensors' numbers; a model's config, vocab, labels and training information "
           "are much smaller"});
    }
  }

  bool scalar(json v, const char* what_in_data) {
    if (data_) not_a_number(what_in_data);
    if (stack_.empty() && !v.is_object()) top_not_object(v.type_name());
    count_value();
    slot() = std::move(v);
    return true;
  }

  bool open(json::value_t type) {
    if (data_) not_a_number(type == json::value_t::object ? "a object" : "a array");
    if (stack_.empty() && type != json::value_t::object) top_not_object("array");
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) {
      bad({"it nests arrays or objects more than ", kMaxJsonDepth, " levels deep; allowed: up to ",
           kMaxJsonDepth});
    }
    // {"tensors": {NAME: {"data": [ <- here, the numbers of tensor NAME
    if (type == json::value_t::array && stack_.size() == 3 && stack_[0].key == "tensors" &&
        stack_[2].key == "data") {
      start_data(stack_[1].key);
      return true;
    }
    count_value();
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

  std::vector<Frame> stack_;
  std::optional<Data> data_;
  std::optional<ModelConfig> config_;
  bool header_checked_ = false;
  long long values_ = 0;
  long long streamed_ = 0;  // tensor numbers read so far, all tensors
};

template <class Iterator>
LoadedModel read_model(Iterator first, Iterator last) {
  Reader reader;
  json::sax_parse(first, last, &reader);  // a bad document throws from the reader's parse_error
  return model_from_json_value(reader.doc);
}

}  // namespace

LoadedModel model_from_source(ByteSource& source, long long total_bytes) {
  if (total_bytes > static_cast<long long>(kMaxInputBytes)) too_large();
  Chunks chunks(source);
  return read_model(ChunkIterator(&chunks), ChunkIterator());
}

LoadedModel model_from_json(const std::string& text) {
  if (text.size() > kMaxInputBytes) too_large();
  return read_model(text.data(), text.data() + text.size());
}

}  // namespace attn::model_io
