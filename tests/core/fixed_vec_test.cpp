#include "battlecore/core/fixed_vec.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

namespace battlecore {
namespace {

template <class T, std::size_t N>
std::vector<T> items(const FixedVec<T, N>& v) {
  return {v.begin(), v.end()};
}

struct CardRef {
  std::uint16_t id;
  std::int8_t cost;
  friend bool operator==(const CardRef&, const CardRef&) = default;
};

TEST(FixedVec, PushAndPopInOrder) {
  FixedVec<int, 4> v;
  EXPECT_TRUE(v.empty());
  v.push_back(1);
  v.push_back(2);
  v.push_back(3);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_EQ(v.back(), 3);
  EXPECT_EQ(v.pop_back(), 3);
  EXPECT_EQ(v.pop_back(), 2);
  EXPECT_EQ(items(v), (std::vector<int>{1}));
}

TEST(FixedVec, EraseAtKeepsTheOrderOfTheRest) {
  FixedVec<int, 8> v;
  for (int i : {10, 11, 12, 13, 14}) v.push_back(i);
  v.erase_at(1);
  EXPECT_EQ(items(v), (std::vector<int>{10, 12, 13, 14}));
  v.erase_at(3);
  EXPECT_EQ(items(v), (std::vector<int>{10, 12, 13}));
  v.erase_at(0);
  EXPECT_EQ(items(v), (std::vector<int>{12, 13}));
}

TEST(FixedVec, InsertAtShiftsTheRestUp) {
  FixedVec<int, 8> v;
  v.insert_at(0, 2);
  v.insert_at(0, 1);
  v.insert_at(2, 4);
  v.insert_at(2, 3);
  EXPECT_EQ(items(v), (std::vector<int>{1, 2, 3, 4}));
  std::vector<int> seen;
  for (int x : v.span()) seen.push_back(x);
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 4}));
}

TEST(FixedVec, EqualityComparesLiveElementsOnly) {
  FixedVec<int, 4> a;
  FixedVec<int, 4> b;
  EXPECT_EQ(a, b);
  a.push_back(1);
  EXPECT_NE(a, b);
  b.push_back(2);
  EXPECT_NE(a, b);  // same size, different content
  b.pop_back();
  b.push_back(1);
  EXPECT_EQ(a, b);
  a.push_back(9);
  a.pop_back();  // a keeps a stale 9 in its storage
  EXPECT_EQ(a, b);
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_NE(a, b);
}

TEST(FixedVec, OverflowThrowsNamingTheCapacity) {
  FixedVec<int, 3> v;
  for (int i = 0; i < 3; ++i) v.push_back(i);
  EXPECT_TRUE(v.full());
  try {
    v.push_back(3);
    FAIL() << "a fourth element fits in a FixedVec of 3";
  } catch (const InvariantError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("capacity 3 exceeded"), std::string::npos) << what;
    EXPECT_NE(what.find("fixed_vec.hpp:"), std::string::npos) << what;  // file and line
    EXPECT_NE(what.find("invariant broken: size_ < N"), std::string::npos) << what;
    // The file is named from the project's root, whatever directory it was built in: the message
    // goes into reports and replays (engine_error), which must not depend on the checkout.
    EXPECT_TRUE(what.starts_with("include/battlecore/core/fixed_vec.hpp:")) << what;
  }
  EXPECT_THROW(v.insert_at(0, 3), InvariantError);
  EXPECT_EQ(items(v), (std::vector<int>{0, 1, 2}));  // unchanged by the refused pushes
}

TEST(FixedVec, OutOfRangeRemovalsAndInsertsThrow) {
  FixedVec<int, 4> v;
  EXPECT_THROW(v.pop_back(), InvariantError);
  EXPECT_THROW(v.erase_at(0), InvariantError);
  v.push_back(1);
  EXPECT_THROW(v.erase_at(1), InvariantError);
  EXPECT_THROW(v.insert_at(2, 5), InvariantError);
  EXPECT_EQ(items(v), (std::vector<int>{1}));
}

TEST(FixedVec, SetSizeKeepsWhatWasWrittenThroughData) {
  FixedVec<int, 4> v;
  v.push_back(1);
  int* p = v.data();
  p[1] = 5;
  p[2] = 6;
  v.set_size(3);  // grows over the values written in place
  EXPECT_EQ(items(v), (std::vector<int>{1, 5, 6}));
  v.set_size(1);  // and shrinks like truncate
  EXPECT_EQ(items(v), (std::vector<int>{1}));
  v.set_size(4);
  EXPECT_EQ(v.size(), 4u);
  EXPECT_THROW(v.set_size(5), InvariantError);
  EXPECT_EQ(v.size(), 4u);
}

TEST(FixedVec, IsTriviallyCopyableForTriviallyCopyableElements) {
  static_assert(std::is_trivially_copyable_v<FixedVec<int, 8>>);
  static_assert(std::is_trivially_copyable_v<FixedVec<CardRef, 300>>);
  EXPECT_TRUE((std::is_trivially_copyable_v<FixedVec<CardRef, 10>>));
  // Only trivially copyable elements are held (FixedVec's static_assert), so the whole vector is.
  static_assert(std::is_trivially_destructible_v<FixedVec<CardRef, 10>>);

  FixedVec<CardRef, 10> hand;
  hand.push_back({7, 1});
  hand.push_back({9, 2});
  FixedVec<CardRef, 10> copy = hand;  // a battle copy is a plain value copy
  copy.erase_at(0);
  EXPECT_EQ(hand.size(), 2u);
  EXPECT_EQ(copy[0], (CardRef{9, 2}));
}

TEST(FixedVec, SizeTypeGrowsWithCapacity) {
  static_assert(std::is_same_v<FixedVec<int, 255>::size_type, std::uint8_t>);
  static_assert(std::is_same_v<FixedVec<int, 256>::size_type, std::uint16_t>);
  FixedVec<std::uint8_t, 300> v;
  for (int i = 0; i < 300; ++i) v.push_back(static_cast<std::uint8_t>(i));
  EXPECT_EQ(v.size(), 300u);
  EXPECT_EQ(v.back(), static_cast<std::uint8_t>(299));
  EXPECT_THROW(v.push_back(0), InvariantError);
}

}  // namespace
}  // namespace battlecore
