// `battlecore serve`: the battle monitor (docs/monitor.md).

#include <ostream>

#include "battlecore/monitor/adapters.hpp"
#include "battlecore/monitor/server.hpp"
#include "commands.hpp"

namespace battlecore::cli {

int serve(const ServeOptions& options, Io io) {
  if (!monitor::is_loopback_host(options.host))
    io.err << "battlecore serve: warning: " << options.host
           << " is not a loopback address: anyone who can reach it can start and play battles\n";
  auto adapters = monitor::builtin_adapters(io.err);
  if (adapters.empty()) {
    io.err << "battlecore serve: no rule set could be loaded\n";
    return kFailure;
  }
  monitor::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = options.port;
  server_options.reveal = options.reveal;
  monitor::Server server(std::move(adapters), server_options);
  if (auto bound = server.bind(); !bound) {
    io.err << "battlecore serve: " << bound.error().message << "\n";
    return kFailure;
  }
  const bool v6 = options.host.find(':') != std::string::npos;
  io.out << "battlecore: monitor at http://" << (v6 ? "[" : "") << options.host << (v6 ? "]" : "") << ":"
         << server.port() << "/ (Ctrl-C stops it)" << std::endl;
  server.run();
  return kOk;
}

}  // namespace battlecore::cli
