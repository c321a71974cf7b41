// Many battles at once on one server, over loopback: no request fails, and no battle sees
// another's actions (each battle's hash after every step equals the same battle driven alone).
// Bounded: 8 clients x 4 battles, each played to its end (or 400 decisions).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include <fmt/format.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "support/monitor_server.hpp"

namespace battlecore::test {
namespace {

using nlohmann::json;
namespace db = battlecore::deckbuilder;

constexpr int kClients = 8;
constexpr int kBattlesPerClient = 4;
constexpr int kMaxDecisions = 400;

TEST(MonitorLoad, ConcurrentBattlesStayApart) {
  MonitorServer server;
  std::atomic<int> failures{0};
  std::atomic<int> decisions{0};
  std::vector<std::string> messages(kClients);
  const auto started = std::chrono::steady_clock::now();

  auto client_run = [&](int c) {
    httplib::Client client = server.client();
    const char* encounters[] = {"w1", "sludge_pair", "cultist_rite", "imp_swarm"};
    // Each client plays its battles interleaved, so battles of one client also alternate.
    struct Game {
      std::string id;
      db::Battle direct;
      bool done = false;
    };
    std::vector<Game> games;
    for (int b = 0; b < kBattlesPerClient; ++b) {
      const std::uint64_t seed = static_cast<std::uint64_t>(c * 100 + b + 1);
      const std::string encounter = encounters[(c + b) % 4];
      const Reply r = post(client, "/api/battles",
                           json{{"rules", "deckbuilder"}, {"encounter", encounter}, {"seed", seed}});
      if (r.status != 201) {
        ++failures;
        messages[static_cast<std::size_t>(c)] = "create: " + r.body.dump();
        return;
      }
      Game g{r.body["id"], db::Battle(starter()), false};
      (void)g.direct.start_battle(encounter, seed);
      games.push_back(std::move(g));
    }
    for (int step = 0; step < kMaxDecisions; ++step) {
      bool any = false;
      for (Game& g : games) {
        if (g.done) continue;
        const db::Decision d = g.direct.decision();
        if (d.options.empty()) {
          g.done = true;
          continue;
        }
        any = true;
        // A different option per client and step, so battles take different paths.
        const std::size_t pick = static_cast<std::size_t>(c + step) % d.options.size();
        const Reply r = post(client, "/api/battles/" + g.id + "/actions", json{{"index", pick}});
        (void)g.direct.submit(d.options[pick]);
        ++decisions;
        if (r.status != 200 || r.body["state_hash"] != fmt::format("{:016x}", g.direct.state_hash())) {
          ++failures;
          messages[static_cast<std::size_t>(c)] =
              fmt::format("battle {} step {}: {} {}", g.id, step, r.status, r.body.dump().substr(0, 300));
          return;
        }
      }
      if (!any) break;
    }
    for (Game& g : games) {
      const Reply r = get(client, "/api/battles/" + g.id + "/history?since=0");
      if (r.status != 200 || r.body["items"].size() != g.direct.history().size()) {
        ++failures;
        messages[static_cast<std::size_t>(c)] = "history of " + g.id;
      }
    }
  };

  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) threads.emplace_back(client_run, c);
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  for (const auto& m : messages) EXPECT_TRUE(m.empty()) << m;
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(decisions.load(), kClients * kBattlesPerClient * 5);
  httplib::Client client = server.client();
  EXPECT_EQ(get(client, "/api/battles").body["battles"].size(),
            static_cast<std::size_t>(kClients * kBattlesPerClient));
  EXPECT_LT(seconds, 120.0) << decisions.load() << " decisions";
  RecordProperty("decisions", decisions.load());
}

}  // namespace
}  // namespace battlecore::test
