#pragma once
// A test fixture serving one rule set's adapter, with the calls every rule set's API test makes.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "support/monitor_server.hpp"

namespace battlecore::test {

class MonitorRuleSetApi : public ::testing::Test {
 protected:
  explicit MonitorRuleSetApi(std::shared_ptr<const monitor::RuleSetAdapter> adapter)
      : server_({std::move(adapter)}), client_(server_.client()) {}

  /// Starts a battle; expects 201 and returns the overview.
  nlohmann::json create(const nlohmann::json& body) {
    const Reply r = post(client_, "/api/battles", body);
    EXPECT_EQ(r.status, 201) << r.body.dump();
    return r.body;
  }
  /// Posts {"action": ...} or {"index": n} to battle `id`.
  Reply act(const std::string& id, const nlohmann::json& body) {
    return post(client_, "/api/battles/" + id + "/actions", body);
  }
  nlohmann::json overview(const std::string& id) { return get(client_, "/api/battles/" + id).body; }
  /// Expects the battle of overview `before` to be as it was: state, actions and events.
  void expect_unchanged(const nlohmann::json& before) {
    const nlohmann::json now = overview(before["id"]);
    EXPECT_EQ(now["state_hash"], before["state_hash"]);
    EXPECT_EQ(now["actions"], before["actions"]);
    EXPECT_EQ(now["events"], before["events"]);
  }

  MonitorServer server_;
  httplib::Client client_;
};

/// Expects an error reply with `status`, error code `code` and a message.
inline void expect_refused(const Reply& r, int status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body.dump();
  EXPECT_EQ(r.body.value("error", ""), code) << r.body.dump();
  EXPECT_FALSE(r.body.value("message", "").empty());
}

}  // namespace battlecore::test
