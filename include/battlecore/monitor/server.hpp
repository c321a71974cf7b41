#pragma once
/// The battle monitor's HTTP server: the embedded page plus a JSON API over the rule sets'
/// decision interface (docs/monitor.md). Several battles at once, each under its own id and
/// guarded by its own mutex; no request reads a file.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "battlecore/core/result.hpp"
#include "battlecore/monitor/rule_set_adapter.hpp"

namespace battlecore::monitor {

struct ServerOptions {
  std::string host = "127.0.0.1";        ///< loopback unless told otherwise
  int port = 8080;                       ///< 0: any free port (see Server::port())
  std::size_t max_battles = 1000;        ///< more live battles than this are refused (429)
  std::size_t max_body_bytes = 1 << 20;  ///< larger request bodies are refused (413)
  std::size_t worker_threads = 16;       ///< request threads
  /// Gives GET .../snapshot of a battle still in play, which shows what the players cannot see
  /// (`battlecore serve --reveal`, a debugging aid); otherwise only once the battle is over.
  bool reveal = false;
};

/// True when `host` names a loopback address (127.0.0.0/8, ::1, localhost).
bool is_loopback_host(const std::string& host);

/// The monitor's server: bind(), then run() on a thread of the caller's until stop() from any
/// thread. Destroying it stops it and waits until a run() under way on another thread has
/// returned, so it may be destroyed while run() is live (the thread joined afterwards), though not
/// from within run() (a request it serves).
class Server {
 public:
  Server(std::vector<std::shared_ptr<const RuleSetAdapter>> adapters, ServerOptions options = {});
  /// Stops the server and waits until run() has returned: the requests in flight are answered.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Binds the socket; on success the port is known (port()).
  Result<void> bind();
  /// Serves until stop(); call after bind(), one run() at a time. Returns at once on a server
  /// stopped already: a server once stopped serves no more.
  void run();
  /// Stops run() from any thread, without waiting for it to return.
  void stop();
  /// The bound port.
  int port() const;
  /// Waits (up to about 5 s) until run() accepts connections.
  bool wait_until_running() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace battlecore::monitor
