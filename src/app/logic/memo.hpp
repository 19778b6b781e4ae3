// A scene cache: the value computed from the last inputs, recomputed only when an input changes.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "core/error.hpp"

namespace app {

// A number no recompute had before (counting from 1): heatmap textures and fitted labels are keyed by it.
std::uint64_t next_version();
// How many versions were handed out so far: the number of recomputes (frameStats().recomputes).
std::uint64_t versions_issued();

// What a too-large input says in place of a value.
inline constexpr const char* kTooLargeMessage =
    "this is too large to compute here; try fewer tokens or a smaller d_model";

// Memo<Value, Inputs...>: get(inputs, make) calls make() only when the inputs differ from the last call's
// (or on the first call). make() returns a Value or throws attn::InputError, whose message becomes error()
// (running out of memory becomes kTooLargeMessage). Every recompute takes a new version().
template <class Value, class... Inputs>
class Memo {
 public:
  using Key = std::tuple<Inputs...>;

  template <class Make>
  const Memo& get(const Key& key, Make&& make) {
    if (version_ != 0 && key == key_) return *this;
    std::shared_ptr<const Value> value;
    std::string error;
    try {
      value = std::make_shared<const Value>(std::forward<Make>(make)());
    } catch (const attn::InputError& e) {
      error = e.what();
    } catch (const std::bad_alloc&) {
      error = kTooLargeMessage;
    }  // anything else leaves the memo as it was and goes on up
    key_ = key;
    version_ = next_version();
    value_ = std::move(value);
    error_ = std::move(error);
    return *this;
  }

  bool ok() const { return value_ != nullptr; }
  // The value; throws std::logic_error when !ok() (a caller that forgot to check gets an error, not a crash).
  const Value& value() const {
    if (!value_) throw std::logic_error("Memo::value() without a value: " + error_);
    return *value_;
  }
  // The value itself, for what must outlive the frame (state() is built after it): nullptr when !ok().
  std::shared_ptr<const Value> shared() const { return value_; }
  const std::string& error() const { return error_; }
  std::uint64_t version() const { return version_; }

 private:
  Key key_{};
  std::uint64_t version_ = 0;  // 0: never computed
  std::shared_ptr<const Value> value_;
  std::string error_;
};

}  // namespace app
