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
  static_assert(std::is_trivially_copyable_v<T>, "FixedVec holds trivially copyable values");

  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }

  T* begin() { return store_.items; }
  T* end() { return store_.items + size_; }
  const T* begin() const { return store_.items; }
  const T* end() const { return store_.items + size_; }
  T& operator[](std::size_t i) { return store_.items[i]; }
  const T& operator[](std::size_t i) const { return store_.items[i]; }
  T& back() { return store_.items[size_ - 1u]; }
  const T& back() const { return store_.items[size_ - 1u]; }
  /// The storage, for filling in place: write the elements through data(), then set_size.
  T* data() { return store_.items; }
  const T* data() const { return store_.items; }
  std::span<T> span() { return {store_.items, size_}; }
  std::span<const T> span() const { return {store_.items, size_}; }

  void push_back(const T& v) {
    BATTLECORE_ENSURE(size_ < N, "capacity {} exceeded", N);
    store_.items[size_++] = v;
  }
  T pop_back() {
    BATTLECORE_ENSURE(size_ > 0, "pop_back on an empty FixedVec");
    return store_.items[--size_];
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
    for (std::size_t k = i + 1; k < size_; ++k) store_.items[k - 1] = store_.items[k];
    --size_;
  }
  /// Inserts at position i, shifting the rest up.
  void insert_at(std::size_t i, const T& v) {
    BATTLECORE_ENSURE(size_ < N, "capacity {} exceeded", N);
    BATTLECORE_ENSURE(i <= size_, "insert_at index {} with size {}", i, size());
    for (std::size_t k = size_; k > i; --k) store_.items[k] = store_.items[k - 1];
    store_.items[i] = v;
    ++size_;
  }

  friend bool operator==(const FixedVec& a, const FixedVec& b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i)
      if (!(a.store_.items[i] == b.store_.items[i])) return false;
    return true;
  }

 private:
  // The elements past size() are never read, so they are never written either: making a
  // FixedVec (a battle state holds a dozen, some of 64 elements) sets its size and nothing else.
  // Copies copy the whole storage, as for any trivially copyable value.
  union Storage {
    Storage() {}  // leaves the elements unwritten
    T items[N];
  } store_;
  size_type size_ = 0;
};

}  // namespace battlecore
