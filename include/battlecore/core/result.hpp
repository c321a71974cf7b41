#pragma once
/// A small Result<T, E>: a value or an error, for calls that can fail for a reason the caller
/// must see (a missing encounter, a refused action). No exceptions on these paths.

#include <string>
#include <utility>
#include <variant>

namespace battlecore {

/// A plain error message.
struct Error {
  std::string message;
};

/// Either a value of T or an error of E.
template <class T, class E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(E error) : data_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  const E& error() const { return std::get<1>(data_); }

 private:
  std::variant<T, E> data_;
};

/// Success with no value, or an error of E.
template <class E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  Result(E error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit by design
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const E& error() const { return error_; }

 private:
  E error_{};
  bool ok_ = true;
};

}  // namespace battlecore
