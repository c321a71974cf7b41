#pragma once
// A monitor server on an ephemeral loopback port, run on its own thread for one test, and a
// client for it.

#include <httplib.h>

#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/monitor/deckbuilder_adapter.hpp"
#include "battlecore/monitor/server.hpp"
#include "battlecore/sim/replay.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::test {

class MonitorServer {
 public:
  explicit MonitorServer(monitor::ServerOptions options = {})
      : MonitorServer({monitor::make_deckbuilder_adapter(starter())}, options) {}
  /// A server of `adapters`.
  explicit MonitorServer(std::vector<std::shared_ptr<const monitor::RuleSetAdapter>> adapters,
                         monitor::ServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    server_ = std::make_unique<monitor::Server>(std::move(adapters), options);
    if (auto bound = server_->bind(); !bound) throw std::runtime_error(bound.error().message);
    thread_ = std::thread([this] { server_->run(); });
    if (!server_->wait_until_running()) throw std::runtime_error("the monitor server did not start");
  }
  ~MonitorServer() {
    server_->stop();
    thread_.join();
  }
  MonitorServer(const MonitorServer&) = delete;
  MonitorServer& operator=(const MonitorServer&) = delete;

  int port() const { return server_->port(); }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port());
    c.set_read_timeout(30, 0);
    return c;
  }

 private:
  std::unique_ptr<monitor::Server> server_;
  std::thread thread_;
};

/// A reply's status and parsed JSON body (null when the body is not JSON).
struct Reply {
  int status = 0;
  nlohmann::json body;
  std::string content_type;
};

inline Reply reply_of(const httplib::Result& r) {
  if (!r) return Reply{-1, nullptr, ""};
  return Reply{r->status, nlohmann::json::parse(r->body, nullptr, false),
               r->get_header_value("Content-Type")};
}

inline Reply get(httplib::Client& c, const std::string& path) { return reply_of(c.Get(path.c_str())); }
inline Reply post(httplib::Client& c, const std::string& path, const std::string& body) {
  return reply_of(c.Post(path.c_str(), body, "application/json"));
}
inline Reply post(httplib::Client& c, const std::string& path, const nlohmann::json& body) {
  return post(c, path, body.dump());
}

/// A battle's replay file (GET .../replay) as the server wrote it; empty when it is refused.
inline std::string replay_text(httplib::Client& c, const std::string& id) {
  const auto r = c.Get(("/api/battles/" + id + "/replay").c_str());
  return r && r->status == 200 ? r->body : std::string();
}

/// Reads a replay file's `text` as `battlecore replay` does (every key and action strictly) and
/// plays it against `catalog`, checking the hash after every action.
template <class R>
sim::ReplayCheck check_replay_text(const std::shared_ptr<const typename R::Catalog>& catalog,
                                   const std::string& text) {
  content::Diagnostics problems;
  const auto doc = content::parse_json_text("replay.json", text, problems);
  if (!doc || !problems.empty())
    return {sim::ReplayCheck::Kind::Malformed, std::nullopt, "not JSON: " + problems.to_string()};
  auto replay = sim::replay_from_document(*doc, sim::action_check<R>());
  if (!replay) return {sim::ReplayCheck::Kind::Malformed, std::nullopt, replay.error().to_string()};
  return sim::check_replay<R>(catalog, replay.value());
}

}  // namespace battlecore::test
