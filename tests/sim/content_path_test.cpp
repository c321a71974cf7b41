#include "battlecore/sim/content_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include <unistd.h>
#include "support/temp_dir.hpp"

namespace battlecore::sim {
namespace {

namespace fs = std::filesystem;

/// A fresh directory under the system temp dir, removed at the end of the test.
using test::TempDir;

/// Sets BATTLECORE_DATA for one scope and unsets it after, whatever happens.
class ScopedDataEnv {
 public:
  explicit ScopedDataEnv(const fs::path& value) { ::setenv("BATTLECORE_DATA", value.c_str(), 1); }
  ~ScopedDataEnv() { ::unsetenv("BATTLECORE_DATA"); }
  ScopedDataEnv(const ScopedDataEnv&) = delete;
  ScopedDataEnv& operator=(const ScopedDataEnv&) = delete;
};

TEST(SimContentPath, FindsTheBundledDeckbuilderPack) {
  ::unsetenv("BATTLECORE_DATA");
  const auto pack = find_bundled_pack("deckbuilder");
  ASSERT_TRUE(pack.has_value());
  EXPECT_TRUE(fs::is_regular_file(*pack / "pack.json")) << pack->string();
  EXPECT_EQ(pack->filename(), "starter");
  EXPECT_EQ(pack->parent_path().filename(), "deckbuilder");
}

TEST(SimContentPath, FindsTheSameDirectoryAsTheSourceTree) {
  ::unsetenv("BATTLECORE_DATA");
  const auto pack = find_bundled_pack("deckbuilder", "starter");
  ASSERT_TRUE(pack.has_value());
  EXPECT_TRUE(fs::equivalent(*pack, fs::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter"))
      << pack->string();
}

TEST(SimContentPath, UnknownRuleSetGivesNothing) {
  ::unsetenv("BATTLECORE_DATA");
  EXPECT_FALSE(find_bundled_pack("no_such_rules").has_value());
  EXPECT_FALSE(find_bundled_pack("deckbuilder", "no_such_pack").has_value());
}

TEST(SimContentPath, SourceTreeDataIsTheLastRoot) {
  ::unsetenv("BATTLECORE_DATA");
  const auto roots = data_roots();
  ASSERT_FALSE(roots.empty());
  EXPECT_EQ(roots.back(), fs::path(BATTLECORE_DATA_DIR));
}

TEST(SimContentPath, EnvironmentVariableTakesPrecedence) {
  TempDir temp;
  fs::create_directories(temp.path() / "deckbuilder" / "starter");
  std::ofstream(temp.path() / "deckbuilder" / "starter" / "pack.json") << "{}\n";
  {
    ScopedDataEnv env(temp.path());
    const auto roots = data_roots();
    ASSERT_FALSE(roots.empty());
    EXPECT_EQ(roots.front(), temp.path());
    const auto pack = find_bundled_pack("deckbuilder");
    ASSERT_TRUE(pack.has_value());
    EXPECT_EQ(*pack, temp.path() / "deckbuilder" / "starter");
  }
  // Unset again, the bundled pack is found where it was before.
  const auto pack = find_bundled_pack("deckbuilder");
  ASSERT_TRUE(pack.has_value());
  EXPECT_NE(*pack, temp.path() / "deckbuilder" / "starter");
}

TEST(SimContentPath, EnvironmentWithoutThePackFallsBackToTheOtherRoots) {
  TempDir temp;  // empty: no deckbuilder/starter inside
  ScopedDataEnv env(temp.path());
  const auto pack = find_bundled_pack("deckbuilder");
  ASSERT_TRUE(pack.has_value());
  EXPECT_TRUE(fs::is_regular_file(*pack / "pack.json")) << pack->string();
}

TEST(SimContentPath, EmptyEnvironmentVariableIsIgnored) {
  ::setenv("BATTLECORE_DATA", "", 1);
  const auto roots = data_roots();
  ::unsetenv("BATTLECORE_DATA");
  EXPECT_TRUE(std::none_of(roots.begin(), roots.end(), [](const fs::path& p) { return p.empty(); }));
}

}  // namespace
}  // namespace battlecore::sim
