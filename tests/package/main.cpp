// A program using the installed library: load the bundled deckbuilder pack, play one battle with
// a policy of its own, print the result.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <vector>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/content_path.hpp"

namespace {

namespace db = battlecore::deckbuilder;

// Plays the first card it can, then ends the turn; takes the first reward offered.
class FirstOptionPolicy final : public db::Policy {
 public:
  void reset(std::uint64_t) override {}
  std::size_t choose(const db::Battle&, std::span<const db::Action>) override {
    ++choices;
    return 0;
  }
  std::size_t choices = 0;
};

}  // namespace

int main() {
  // The pack through the library's lookup ($BATTLECORE_DATA first), and where the package says.
  const auto found = battlecore::sim::find_bundled_pack("deckbuilder");
  if (!found) {
    std::fprintf(stderr, "find_bundled_pack found no deckbuilder pack\n");
    return 1;
  }
  std::printf("lookup: %s\n", found->string().c_str());
  const std::filesystem::path pack = std::filesystem::path(CONSUMER_DATA_DIR) / "deckbuilder" / "starter";
  std::printf("package: %s\n", pack.string().c_str());

  auto catalog = db::load_catalog(pack);
  if (!catalog.ok()) {
    std::fprintf(stderr, "%s\n", catalog.error().to_string().c_str());
    return 1;
  }
  const db::EncounterId encounter = catalog.value()->pack.default_encounter.value_or(0);
  db::Battle battle(catalog.value());
  if (const auto started = battle.start_battle(encounter, 7); !started.ok()) {
    std::fprintf(stderr, "start_battle: %s\n", started.error().message.c_str());
    return 1;
  }
  FirstOptionPolicy policy;
  policy.reset(7);
  std::vector<db::Action> options;
  while (battle.status() == battlecore::Status::AwaitingDecision && policy.choices < 10000) {
    battle.legal_actions(options);
    if (const auto done = battle.submit(options[policy.choose(battle, options)]); !done.ok()) {
      std::fprintf(stderr, "submit: %s\n", done.error().message.c_str());
      return 1;
    }
  }
  if (!battle.is_battle_over()) {
    std::fprintf(stderr, "the battle did not end\n");
    return 1;
  }
  std::printf("encounter %s: %s after %u turns, %zu choices\n",
              battle.catalog().encounters[encounter].id.c_str(), battle.won() ? "won" : "lost",
              battle.state().player_turns, policy.choices);
  return 0;
}
