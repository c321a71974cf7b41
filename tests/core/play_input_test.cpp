#include "battlecore/core/play_input.hpp"

#include <string>

#include <gtest/gtest.h>

namespace battlecore {
namespace {

TEST(PlayInput, TrimsBlanksAroundACommand) {
  EXPECT_EQ(trim_input(" \t 3 \r\n"), "3");
  EXPECT_EQ(trim_input("log 5"), "log 5");
  EXPECT_EQ(trim_input(" \r\n"), "");
}

TEST(PlayInput, ReadsANumberOnlyWhenTheWholeLineIsOne) {
  EXPECT_EQ(read_input_number("12").kind, InputNumber::Kind::Number);
  EXPECT_EQ(read_input_number("12").value, 12u);
  EXPECT_EQ(read_input_number("0").value, 0u);
  for (const char* text : {"", "-1", "3x", "x3", "1.5", " 4", "+2"})
    EXPECT_EQ(read_input_number(text).kind, InputNumber::Kind::NotANumber) << text;
  // Digits past what a count holds are a number still, too large for any option.
  const InputNumber big = read_input_number("18446744073709551616");
  EXPECT_EQ(big.kind, InputNumber::Kind::TooLarge);
  EXPECT_EQ(read_input_number("18446744073709551615").kind, InputNumber::Kind::Number);
  EXPECT_EQ(read_input_number(std::string(5000, '9')).kind, InputNumber::Kind::TooLarge);
}

TEST(PlayInput, AnEchoShowsControlCharactersAndStopsAfterFortyBytes) {
  EXPECT_EQ(echo_input("hello"), "hello");
  EXPECT_EQ(echo_input("\x1b[31mred"), "\\x1B[31mred");
  EXPECT_EQ(echo_input(std::string("a\0b\x7f", 4)), "a\\x00b\\x7F");
  EXPECT_EQ(echo_input(std::string(40, 'x')), std::string(40, 'x'));
  EXPECT_EQ(echo_input(std::string(5'000'000, '9')), std::string(40, '9') + "...");
  // A cut never splits a character: "é" is two bytes, the 40th and the 41st.
  EXPECT_EQ(echo_input(std::string(39, 'x') + "\xC3\xA9" + "y"), std::string(39, 'x') + "...");
  EXPECT_EQ(echo_input(std::string(38, 'x') + "\xC3\xA9" + "y"), std::string(38, 'x') + "\xC3\xA9...");
}

}  // namespace
}  // namespace battlecore
