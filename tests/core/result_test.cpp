#include "battlecore/core/result.hpp"

#include <memory>
#include <string>

#include <gtest/gtest.h>

namespace battlecore {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return Error{std::string("not a digit: ") + c};
  return c - '0';
}

Result<void> check_positive(int n) {
  if (n <= 0) return Error{"not positive"};
  return {};
}

enum class Reason { Missing, Illegal };
struct Refused {
  Reason reason;
  std::string text;
};

Result<std::string, Refused> find_encounter(bool exists) {
  if (!exists) return Refused{Reason::Missing, "no such encounter"};
  return std::string("jaw_worm");
}

TEST(Result, HoldsAValue) {
  const Result<int> r = parse_digit('7');
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r.value(), 7);
}

TEST(Result, HoldsAnError) {
  const Result<int> r = parse_digit('x');
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error().message, "not a digit: x");
  EXPECT_THROW((void)r.value(), std::bad_variant_access);
}

TEST(Result, ValueOfAnOkResultIsNotAnError) {
  const Result<int> r = parse_digit('3');
  EXPECT_THROW((void)r.error(), std::bad_variant_access);
}

TEST(Result, CustomErrorTypeCarriesItsReason) {
  const auto missing = find_encounter(false);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().reason, Reason::Missing);
  EXPECT_EQ(missing.error().text, "no such encounter");
  const auto found = find_encounter(true);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found.value(), "jaw_worm");
}

TEST(Result, ValueCanBeModifiedAndMovedOut) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(5);
  ASSERT_TRUE(r.ok());
  *r.value() += 1;
  std::unique_ptr<int> taken = std::move(r).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, 6);
}

TEST(ResultVoid, DefaultIsSuccess) {
  const Result<void> r = check_positive(3);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_TRUE(Result<void>{}.ok());
}

TEST(ResultVoid, HoldsAnError) {
  const Result<void> r = check_positive(0);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error().message, "not positive");
}

TEST(ResultVoid, CustomErrorType) {
  const Result<void, Refused> r = Refused{Reason::Illegal, "not your turn"};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Illegal);
  EXPECT_EQ(r.error().text, "not your turn");
}

}  // namespace
}  // namespace battlecore
