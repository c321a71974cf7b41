#include "battlecore/sim/content_path.hpp"

#include <cstdlib>
#include <system_error>

namespace battlecore::sim {

std::vector<std::filesystem::path> data_roots() {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("BATTLECORE_DATA"); env != nullptr && *env != '\0')
    roots.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    for (const fs::path& candidate :
         {dir / "data", dir.parent_path() / "data", dir.parent_path().parent_path() / "data",
          dir.parent_path().parent_path().parent_path() / "data",
          dir.parent_path() / "share" / "battlecore" / "data"})
      roots.push_back(candidate);
  }
  roots.emplace_back(BATTLECORE_DATA_DIR);
  return roots;
}

std::optional<std::filesystem::path> find_bundled_pack(std::string_view rules, std::string_view pack) {
  for (const auto& root : data_roots()) {
    std::error_code ec;
    const auto dir = root / rules / pack;
    if (std::filesystem::is_directory(dir, ec)) return dir;
  }
  return std::nullopt;
}

}  // namespace battlecore::sim
