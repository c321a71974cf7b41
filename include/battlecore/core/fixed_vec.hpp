#pragma once
/// A vector with a fixed capacity held inline: battle state stays one trivially copyable value.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "battlecore/core/invariant.hpp"

namespace battlecore {

/// Up to N values of a trivially copyable T, stored inline. Overflow is an engine invariant.
template <class T, std::size_t N>
class FixedVec {
 public:
  using value_type = T;
  using size_type = std::conditional_t<(N < 256), std::uint8_t, std::uint16_t>;
  static_assert(N < 65536, "FixedVec capacity must fit its 16-bit size");

  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }

  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T& back() { return items_[size_ - 1u]; }
  const T& back() const { return items_[size_ - 1u]; }
  /// The storage, for filling in place: write the elements through data(), then set_size.
  T* data() { return items_.data(); }
  const T* data() const { return items_.data(); }
  std::span<T> span() { return {items_.data(), size_}; }
  std::span<const T> span() const { return {items_.data(), size_}; }

  void push_back(const T& v) {
    BATTLECORE_ENSURE(size_ < N, "capacity {} exceeded", N);
    items_[size_++] = v;
  }
  T pop_back() {
    BATTLECORE_ENSURE(size_ > 0, "pop_back on an empty FixedVec");
    return items_[--size_];
  }
  void clear() { size_ = 0; }
  /// The first n elements, as written through data() (n at most the capacity).
  void set_size(std::size_t n) {
    BATTLECORE_ENSURE(n <= N, "set_size {} past capacity {}", n, N);
    size_ = static_cast<size_type>(n);
  }
  /// Keeps the first n elements (n at most size()).
  void truncate(std::size_t n) {
    BATTLECORE_ENSURE(n <= size_, "truncate to {} with size {}", n, size());
    size_ = static_cast<size_type>(n);
  }
  /// Removes element i, keeping the order of the rest.
  void erase_at(std::size_t i) {
    BATTLECORE_ENSURE(i < size_, "erase_at index {} with size {}", i, size());
    for (std::size_t k = i + 1; k < size_; ++k) items_[k - 1] = items_[k];
    --size_;
  }
  /// Inserts at position i, shifting the rest up.
  void insert_at(std::size_t i, const T& v) {
    BATTLECORE_ENSURE(size_ < N, "capacity {} exceeded", N);
    BATTLECORE_ENSURE(i <= size_, "insert_at index {} with size {}", i, size());
    for (std::size_t k = size_; k > i; --k) items_[k] = items_[k - 1];
    items_[i] = v;
    ++size_;
  }

  friend bool operator==(const FixedVec& a, const FixedVec& b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i)
      if (!(a.items_[i] == b.items_[i])) return false;
    return true;
  }

 private:
  std::array<T, N> items_{};
  size_type size_ = 0;
};

}  // namespace battlecore
