#include "battlecore/content/diagnostics.hpp"

#include <gtest/gtest.h>

namespace battlecore::content {
namespace {

TEST(ContentDiagnostic, FormatsFileLineColumnPointerAndMessage) {
  const Diagnostic d{"cards.json", 12, 7, "/cards/3/cost", "expected an integer in [0, 9], got 12"};
  EXPECT_EQ(format_diagnostic(d), "cards.json:12:7: /cards/3/cost: expected an integer in [0, 9], got 12");
}

TEST(ContentDiagnostic, LeavesOutPositionWhenLineIsUnknown) {
  const Diagnostic d{"cards.json", 0, 0, "/cards/0", "missing required key 'id' (a string)"};
  EXPECT_EQ(format_diagnostic(d), "cards.json: /cards/0: missing required key 'id' (a string)");
}

TEST(ContentDiagnostic, LeavesOutEmptyPointerOfWholeFile) {
  const Diagnostic d{"cards.json", 3, 1, "", "syntax error"};
  EXPECT_EQ(format_diagnostic(d), "cards.json:3:1: syntax error");
}

TEST(ContentDiagnostic, WholeFileWithoutPositionIsFileAndMessage) {
  const Diagnostic d{"packs/missing", 0, 0, "", "no such file or directory"};
  EXPECT_EQ(format_diagnostic(d), "packs/missing: no such file or directory");
}

TEST(ContentDiagnostic, LineWithoutColumnPrintsLineOnly) {
  const Diagnostic d{"cards.json", 4, 0, "/a", "bad"};
  EXPECT_EQ(format_diagnostic(d), "cards.json:4: /a: bad");
}

TEST(ContentDiagnostics, StartsEmpty) {
  const Diagnostics diags;
  EXPECT_TRUE(diags.empty());
  EXPECT_EQ(diags.size(), 0u);
  EXPECT_EQ(diags.to_string(), "");
}

TEST(ContentDiagnostics, KeepsOrderFoundAndPrintsOnePerLine) {
  Diagnostics diags;
  diags.add({"b.json", 2, 5, "/x", "second file first"});
  diags.add({"a.json", 0, 0, "", "then this"});
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_FALSE(diags.empty());
  EXPECT_EQ(diags.items()[0].file, "b.json");
  EXPECT_EQ(diags.items()[1].message, "then this");
  EXPECT_EQ(diags.to_string(), "b.json:2:5: /x: second file first\na.json: then this\n");
}

}  // namespace
}  // namespace battlecore::content
