// The monitor's HTTP server. Routes are listed in one place (Impl::routes) and documented in
// docs/monitor.md. Every reply is JSON except the embedded page; every error is
// {"error": code, "message": text} with a 4xx status.

#include "battlecore/monitor/server.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <initializer_list>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <httplib.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/invariant.hpp"
#include "battlecore/sim/replay.hpp"
#include "page_files.hpp"

namespace battlecore::monitor {

namespace {

using nlohmann::json;

/// The most events or transitions one reply carries; the caller asks again from "next".
constexpr std::size_t kMaxItemsPerReply = 5000;

/// One battle on the server. Everything in it is guarded by `mutex`.
struct BattleEntry {
  std::mutex mutex;
  std::string id;
  std::shared_ptr<const RuleSetAdapter> adapter;
  std::unique_ptr<MonitorBattle> battle;
  std::string encounter;
  std::uint64_t seed = 0;
  bool replay = false;
  json replay_actions = json::array();  ///< a replay's whole action list
  std::size_t step = 0;                 ///< a replay's actions applied so far
  /// A replay's moves the server makes itself (the clash's bots), when the replay gives them (a
  /// file always does, in its actions, which place each among the others): its battle makes those
  /// and no other, rather than its own (RuleSetAdapter::start_replay).
  std::optional<ServerMoves> server_moves;
};

/// The text of `j`. A string taken from a request (a key, a parse error's excerpt) may hold bytes
/// that are not UTF-8; they become U+FFFD instead of failing the reply.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(json_text(body), "application/json");
}

void send_error(httplib::Response& res, int status, std::string_view code, std::string_view message) {
  send_json(res, status, {{"error", code}, {"message", message}});
}

/// The request body as a JSON object, or an error reply (and nullopt). The body is read as content
/// is: nesting deeper than content::kMaxJsonDepth and repeated keys are refused with the reason.
/// With `allowed` given, a key outside it is refused too (a misspelt key would otherwise be
/// ignored and its default used).
std::optional<json> body_object(const std::string& text, httplib::Response& res,
                                std::initializer_list<std::string_view> allowed = {}) {
  content::Diagnostics problems;
  auto doc = content::parse_json_text("", text, problems);
  if (!doc || !problems.empty()) {
    const content::Diagnostic& first = problems.items().front();
    send_error(res, 400, "malformed_json",
               fmt::format("the request body is not valid JSON: line {}, column {}: {}", first.line,
                           first.column, first.message));
    return std::nullopt;
  }
  json body = std::move(doc->root);
  if (!body.is_object()) {
    send_error(res, 400, "bad_request", "the request body must be a JSON object");
    return std::nullopt;
  }
  if (allowed.size() != 0)
    for (const auto& item : body.items())
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
        send_error(res, 400, "bad_request",
                   fmt::format("unknown key '{}' in the request body; allowed keys: {}", item.key(),
                               fmt::join(allowed, ", ")));
        return std::nullopt;
      }
  return body;
}

/// Reads a non-negative integer query parameter (absent: `fallback`); nullopt after an error reply.
std::optional<std::size_t> query_count(const httplib::Request& req, httplib::Response& res, const char* name,
                                       std::size_t fallback = 0) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    send_error(res, 400, "bad_request", fmt::format("'{}' must be a non-negative integer", name));
    return std::nullopt;
  }
  return value;
}

/// Reads an optional non-negative integer field of a JSON body; nullopt after an error reply.
std::optional<std::uint64_t> field_u64(const json& body, httplib::Response& res, const char* name,
                                       std::uint64_t fallback) {
  const auto it = body.find(name);
  if (it == body.end()) return fallback;
  if (!it->is_number_unsigned()) {
    send_error(res, 400, "bad_request", fmt::format("\"{}\" must be a non-negative integer", name));
    return std::nullopt;
  }
  return it->get<std::uint64_t>();
}

/// Reads the optional "seed": an integer in [0, 2^64), or its decimal digits as a string for a
/// client whose numbers stop at 2^53 (the page's JavaScript); nullopt after an error reply.
/// Every value that is neither gets the same message (a negative or fractional number too).
std::optional<std::uint64_t> field_seed(const json& body, httplib::Response& res) {
  const auto it = body.find("seed");
  if (it == body.end()) return 1;
  if (it->is_number_unsigned()) return it->get<std::uint64_t>();
  if (it->is_string()) {
    const auto& text = it->get_ref<const std::string&>();
    std::uint64_t seed = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (ec == std::errc() && end == text.data() + text.size() && !text.empty()) return seed;
  }
  send_error(res, 400, "bad_request",
             "\"seed\" must be an integer from 0 to 2^64 - 1, or its decimal digits as a string");
  return std::nullopt;
}

/// Reads the "encounter": an id, not empty (`required`: it must be there); "" when it is left
/// out, for the pack's default; nullopt after an error reply. An empty id is refused, as the
/// command line refuses `--encounter ''`: it would have started the default encounter.
std::optional<std::string> field_encounter(const json& body, httplib::Response& res, bool required) {
  const auto it = body.find("encounter");
  if (it == body.end() && !required) return std::string();
  if (it == body.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    send_error(res, 400, "bad_request",
               required ? "\"encounter\" must be an encounter id"
                        : "\"encounter\" must be an encounter id (left out: the pack's default)");
    return std::nullopt;
  }
  return it->get<std::string>();
}

/// `text` as a regular expression that matches just itself: httplib's route patterns are regular
/// expressions, and a page file's dot would otherwise match any character.
std::string literal_pattern(std::string_view text) {
  constexpr std::string_view kSpecial = R"(\^$.|?*+()[]{})";
  std::string pattern;
  for (const char c : text) {
    if (kSpecial.find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return pattern;
}

constexpr std::string_view kTooLarge = "the request body is larger than the server accepts";
/// How much of a body past the limit is read and dropped before the connection is closed, in
/// multiples of the limit.
constexpr std::size_t kDrainFactor = 4;

/// Items `since` .. of a sequence, at most kMaxItemsPerReply, each with its 1-based "seq".
template <class Get>
json items_since(std::size_t since, std::size_t count, Get&& get) {
  json items = json::array();
  const std::size_t first = std::min(since, count);
  const std::size_t last = std::min(count, first + kMaxItemsPerReply);
  for (std::size_t i = first; i < last; ++i) {
    json item = get(i);
    item["seq"] = i + 1;
    items.push_back(std::move(item));
  }
  return {{"since", since}, {"next", last}, {"total", count}, {"items", items}};
}

}  // namespace

bool is_loopback_host(const std::string& host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  return host.rfind("127.", 0) == 0;
}

struct Server::Impl {
  httplib::Server http;
  std::vector<std::shared_ptr<const RuleSetAdapter>> adapters;
  ServerOptions options;
  int port = 0;

  std::mutex battles_mutex;  ///< guards `battles` and `next_id` only, never a battle
  std::map<std::string, std::shared_ptr<BattleEntry>> battles;
  std::uint64_t next_id = 1;
  std::string id_tag;  ///< differs between server runs, so a stale page never finds another's battle

  // run()'s life, for stop() and the destructor.
  std::mutex run_mutex;  ///< guards the three flags below
  std::condition_variable run_changed;
  bool serving = false;          ///< run() is under way
  bool stop_requested = false;   ///< stop() was called: a run() to come returns at once
  bool listener_closed = false;  ///< httplib's stop() has closed the socket run() listens on

  Impl(std::vector<std::shared_ptr<const RuleSetAdapter>> a, ServerOptions o)
      : adapters(std::move(a)), options(std::move(o)) {
    std::random_device device;
    id_tag = fmt::format("{:04x}", device() & 0xFFFFu);
    const std::size_t threads = options.worker_threads;
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http.set_payload_max_length(options.max_body_bytes);
    http.set_keep_alive_timeout(2);
    // httplib's own options add SO_REUSEPORT where the system has it, and then a second server
    // binds the same port and takes part of the first one's requests. SO_REUSEADDR alone still
    // lets a server start again at once on the port of one that just stopped.
    http.set_socket_options([](socket_t socket) {
      int yes = 1;
      setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    routes();
  }

  using BodyHandler =
      std::function<void(const httplib::Request&, httplib::Response&, const std::string& body)>;

  /// Registers a POST route whose body is read here, whatever its Content-Type: httplib would
  /// read a form-encoded body (curl -d's default) as a form and refuse one over 8 KiB. Every body
  /// is held to ServerOptions::max_body_bytes, a chunked one too (httplib checks only a
  /// Content-Length); a multipart form is refused, as no route takes one. A request with neither
  /// a Content-Length nor a Transfer-Encoding has an empty body (RFC 9112, 6.3): httplib would
  /// wait for the connection to close, and refuse it when its read timed out.
  void post(const std::string& pattern, BodyHandler handler) {
    known_routes.push_back({std::regex(pattern), "POST"});
    http.Post(pattern, [handler = std::move(handler), max_bytes = options.max_body_bytes](
                           const httplib::Request& req, httplib::Response& res,
                           const httplib::ContentReader& read) {
      if (req.is_multipart_form_data()) {
        // Read to its end first, so that the connection can carry the next request.
        read([](const httplib::MultipartFormData&) { return true; },
             [](const char*, std::size_t) { return true; });
        return send_error(res, 415, "unsupported_media_type",
                          "the body must be JSON (Content-Type: application/json), not a multipart form");
      }
      std::string body;
      if (!req.has_header("Content-Length") && !req.has_header("Transfer-Encoding"))
        return handler(req, res, body);
      // Past the limit the body is read on and dropped, up to kDrainFactor times the limit, so
      // that a client still sending reads the 413: a reply sent while its bytes keep coming
      // would be lost to the connection's reset. A longer body has the connection closed.
      bool too_large = false;
      std::size_t dropped = 0;
      const bool complete =
          read([&body, &too_large, &dropped, max_bytes](const char* data, std::size_t size) {
            if (!too_large && size <= max_bytes - body.size()) {
              body.append(data, size);
              return true;
            }
            too_large = true;
            dropped += size;
            return dropped <= kDrainFactor * max_bytes;
          });
      if (too_large || res.status == 413) {
        if (!complete) res.set_header("Connection", "close");  // the rest of the body is left unread
        return send_error(res, 413, "payload_too_large", kTooLarge);
      }
      if (!complete) return send_error(res, 400, "bad_request", "the request body could not be read");
      handler(req, res, body);
    });
  }

  /// Every route's pattern and method, so that a path taken by other methods is answered 405
  /// with those methods rather than 404.
  struct KnownRoute {
    std::regex pattern;
    std::string_view method;
  };
  std::vector<KnownRoute> known_routes;

  void get(const std::string& pattern, httplib::Server::Handler handler) {
    known_routes.push_back({std::regex(pattern), "GET"});
    http.Get(pattern, std::move(handler));
  }
  void del(const std::string& pattern, httplib::Server::Handler handler) {
    known_routes.push_back({std::regex(pattern), "DELETE"});
    http.Delete(pattern, std::move(handler));
  }

  /// The methods the routes matching `path` take, as an Allow header ("GET, HEAD, POST"); empty
  /// when no route matches.
  std::string allowed_methods(const std::string& path) const {
    std::vector<std::string_view> methods;
    for (const std::string_view method : {"GET", "POST", "DELETE"})
      for (const KnownRoute& route : known_routes)
        if (route.method == method && std::regex_match(path, route.pattern)) {
          methods.push_back(method);
          if (method == "GET") methods.push_back("HEAD");
          break;
        }
    return fmt::format("{}", fmt::join(methods, ", "));
  }

  std::shared_ptr<const RuleSetAdapter> adapter(std::string_view rules) const {
    for (const auto& a : adapters)
      if (a->rules() == rules) return a;
    return nullptr;
  }

  std::string rule_names() const {
    std::string out;
    for (const auto& a : adapters) out += (out.empty() ? "" : ", ") + std::string(a->rules());
    return out;
  }

  std::shared_ptr<BattleEntry> find(const std::string& id, httplib::Response& res) {
    std::lock_guard lock(battles_mutex);
    const auto it = battles.find(id);
    if (it == battles.end()) {
      send_error(res, 404, "unknown_battle", fmt::format("no battle with id '{}'", id));
      return nullptr;
    }
    return it->second;
  }

  /// Registers a new battle under a fresh id; nullptr (after a 429 reply) when full.
  std::shared_ptr<BattleEntry> add(std::shared_ptr<BattleEntry> entry, httplib::Response& res) {
    std::lock_guard lock(battles_mutex);
    if (battles.size() >= options.max_battles) {
      send_error(res, 429, "too_many_battles",
                 fmt::format("the server holds {} battles already; delete one first", battles.size()));
      return nullptr;
    }
    entry->id = fmt::format("b{}-{}", next_id++, id_tag);
    battles.emplace(entry->id, entry);
    return entry;
  }

  /// The summary of a battle; the caller holds its mutex.
  static json overview(const BattleEntry& e) {
    json j = {{"id", e.id},
              {"rules", e.adapter->rules()},
              {"encounter", e.encounter},
              {"seed", e.seed},
              {"mode", e.replay ? "replay" : "live"},
              {"state", e.battle->state()},
              {"decision", e.battle->decision()},
              {"events", e.battle->event_count()},
              {"transitions", e.battle->transition_count()},
              {"state_hash", e.battle->state_hash()}};
    if (e.replay)
      j["replay"] = {{"step", e.step}, {"steps", e.replay_actions.size()}};
    else
      j["actions"] = e.battle->actions().size();
    return j;
  }

  /// Rebuilds a replay battle with its first `step` actions. On a refused action, returns its
  /// index and the refusal, and the entry is left unchanged. At the replay's end, a server move
  /// the battle never made is refused too: a replay is played exactly as it is.
  static std::optional<std::pair<std::size_t, Refused>> rebuild(BattleEntry& e, std::size_t step) {
    auto started = e.server_moves ? e.adapter->start_replay(e.encounter, e.seed, *e.server_moves)
                                  : e.adapter->start(e.encounter, e.seed);
    if (!started) return std::pair{std::size_t{0}, started.error()};
    std::unique_ptr<MonitorBattle> battle = std::move(started).value();
    for (std::size_t i = 0; i < step; ++i)
      if (auto done = battle->submit(e.replay_actions[i]); !done) return std::pair{i, done.error()};
    if (step == e.replay_actions.size())
      if (auto unused = battle->unused_server_move()) return std::pair{step, *unused};
    e.battle = std::move(battle);
    e.step = step;
    return std::nullopt;
  }

  void routes();
  void page_routes();
  void battle_routes();
  void replay_routes();
};

void Server::Impl::page_routes() {
  for (const PageFile& file : page_files()) {
    // Appended rather than `"/" + std::string(...)`, which GCC 12 under -fprofile-use reports as
    // an overlapping copy (a false -Wrestrict, GCC bug 105329).
    std::string path = "/";
    if (file.path != "index.html") path += file.path;
    const PageFile f = file;
    get(literal_pattern(path), [f](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(f.content), std::string(f.mime_type));
      res.set_header("Cache-Control", "no-cache");
    });
  }
}

void Server::Impl::routes() {
  page_routes();

  get("/api/rules", [this](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const auto& a : adapters) {
      json j = a->describe();
      j["rules"] = a->rules();
      list.push_back(j);
    }
    send_json(res, 200, {{"rules", list}});
  });

  get(R"(/api/rules/([A-Za-z0-9_-]+)/graph)", [this](const httplib::Request& req, httplib::Response& res) {
    const auto a = adapter(req.matches[1].str());
    if (!a)
      return send_error(res, 404, "unknown_rules",
                        fmt::format("no rule set '{}'; known: {}", req.matches[1].str(), rule_names()));
    send_json(res, 200, phase_graph_json(a->phase_graph()));
  });

  battle_routes();
  replay_routes();

  // Every route is GET, POST or DELETE; any other method is refused. PUT and PATCH, which carry a
  // body, are refused by a route of their own, after the body is read: on a kept-alive connection
  // its bytes would otherwise be read as the next request. Other methods are refused at once.
  const auto not_allowed = [this](const httplib::Request& req, httplib::Response& res) {
    const std::string allow = allowed_methods(req.path);
    res.set_header("Allow", allow.empty() ? "GET, HEAD, POST, DELETE" : allow);
    send_error(res, 405, "method_not_allowed",
               fmt::format("no route takes {}; the monitor's routes are GET, POST and DELETE", req.method));
  };
  http.Put(".*", not_allowed);
  http.Patch(".*", not_allowed);
  http.set_pre_routing_handler([not_allowed](const httplib::Request& req, httplib::Response& res) {
    for (const char* method : {"GET", "HEAD", "POST", "DELETE", "PUT", "PATCH"})
      if (req.method == method) return httplib::Server::HandlerResponse::Unhandled;
    not_allowed(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });

  // Errors httplib raises itself (unknown path, oversized body, bad request line) get a JSON body.
  http.set_error_handler(
      httplib::Server::HandlerWithResponse([this](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        std::string code = "error";
        std::string message = "the request failed";
        if (res.status == 404) {
          if (const std::string allow = allowed_methods(req.path); !allow.empty()) {
            res.set_header("Allow", allow);
            send_error(res, 405, "method_not_allowed",
                       fmt::format("{} takes {}, not {}", req.path, allow, req.method));
            return httplib::Server::HandlerResponse::Handled;
          }
          code = "not_found";
          message = "no such path; see docs/monitor.md for the API";
        } else if (res.status == 413) {
          code = "payload_too_large";
          message = kTooLarge;
        } else if (res.status == 400) {
          code = "bad_request";
          message = "the request could not be read";
        }
        send_json(res, res.status, {{"error", code}, {"message", message}});
        return httplib::Server::HandlerResponse::Handled;
      }));
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    send_error(res, 500, "engine_error", exception_message(ep));
  });
}

void Server::Impl::battle_routes() {
  constexpr const char* kId = R"(/api/battles/([A-Za-z0-9-]{1,64}))";

  post("/api/battles", [this](const httplib::Request&, httplib::Response& res, const std::string& text) {
    const auto body = body_object(text, res, {"rules", "encounter", "seed"});
    if (!body) return;
    const auto rules = body->find("rules");
    if (rules == body->end() || !rules->is_string())
      return send_error(res, 400, "bad_request", "\"rules\" must name a rule set: " + rule_names());
    const auto a = adapter(rules->get<std::string>());
    if (!a)
      return send_error(res, 404, "unknown_rules",
                        fmt::format("no rule set '{}'; known: {}", rules->get<std::string>(), rule_names()));
    const auto encounter = field_encounter(*body, res, false);
    if (!encounter) return;
    const auto seed = field_seed(*body, res);
    if (!seed) return;
    auto started = a->start(*encounter, *seed);
    if (!started) return send_error(res, 422, started.error().reason, started.error().message);
    auto entry = std::make_shared<BattleEntry>();
    entry->adapter = a;
    entry->battle = std::move(started).value();
    entry->encounter = entry->battle->state().value("encounter", *encounter);
    entry->seed = *seed;
    if (!add(entry, res)) return;
    std::lock_guard lock(entry->mutex);
    send_json(res, 201, overview(*entry));
  });

  get("/api/battles", [this](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    std::lock_guard lock(battles_mutex);
    for (const auto& [id, e] : battles) list.push_back({{"id", id}, {"rules", e->adapter->rules()}});
    send_json(res, 200, {{"battles", list}});
  });

  // The whole picture in one reply; the page polls this with events_since / history_since.
  get(kId, [this](const httplib::Request& req, httplib::Response& res) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    const auto events_since = query_count(req, res, "events_since");
    if (!events_since) return;
    const auto history_since = query_count(req, res, "history_since");
    if (!history_since) return;
    std::lock_guard lock(e->mutex);
    json j = overview(*e);
    if (req.has_param("events_since"))
      j["event_log"] = items_since(*events_since, e->battle->event_count(),
                                   [&](std::size_t i) { return e->battle->event(i); });
    if (req.has_param("history_since"))
      j["history"] = items_since(*history_since, e->battle->transition_count(),
                                 [&](std::size_t i) { return e->battle->transition(i); });
    send_json(res, 200, j);
  });

  del(kId, [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(battles_mutex);
    if (battles.erase(req.matches[1].str()) == 0)
      return send_error(res, 404, "unknown_battle",
                        fmt::format("no battle with id '{}'", req.matches[1].str()));
    send_json(res, 200, {{"deleted", req.matches[1].str()}});
  });

  get(std::string(kId) + "/state", [this](const httplib::Request& req, httplib::Response& res) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    std::lock_guard lock(e->mutex);
    send_json(res, 200, e->battle->state());
  });

  get(std::string(kId) + "/actions", [this](const httplib::Request& req, httplib::Response& res) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    std::lock_guard lock(e->mutex);
    send_json(res, 200, e->battle->decision());
  });

  const std::string actions_path = std::string(kId) + "/actions";
  post(actions_path, [this](const httplib::Request& req, httplib::Response& res, const std::string& text) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    const auto body = body_object(text, res, {"action", "index"});
    if (!body) return;
    // Either {"action": {...}} or {"index": n}, an option of the pending decision; not both.
    if (body->contains("action") && body->contains("index"))
      return send_error(res, 400, "bad_request", "give \"action\" or \"index\", not both");
    std::lock_guard lock(e->mutex);
    if (e->replay)
      return send_error(res, 409, "replay_read_only", "a replay is stepped with /seek, not played");
    json action;
    if (const auto a = body->find("action"); a != body->end()) {
      action = *a;
    } else if (const auto index = body->find("index"); index != body->end()) {
      if (!index->is_number_unsigned())
        return send_error(res, 400, "bad_request", "\"index\" must be a non-negative integer");
      const json offered = e->battle->decision()["options"];
      const auto i = index->get<std::size_t>();
      if (i >= offered.size())
        return send_error(res, 422, "invalid_option",
                          fmt::format("no option {}; the decision has {} option(s)", i, offered.size()));
      action = offered[i]["action"];
    } else {
      return send_error(res, 400, "bad_request",
                        "give \"action\" (an action object) or \"index\" (an option)");
    }
    // A malformed action is a bad request; a well-formed one the rules refuse is 422.
    if (auto done = e->battle->submit(action); !done)
      return send_error(res, done.error().reason == "bad_action" ? 400 : 422, done.error().reason,
                        done.error().message);
    send_json(res, 200, overview(*e));
  });

  const auto since_route = [this](bool events) {
    return [this, events](const httplib::Request& req, httplib::Response& res) {
      const auto e = find(req.matches[1].str(), res);
      if (!e) return;
      const auto since = query_count(req, res, "since");
      if (!since) return;
      std::lock_guard lock(e->mutex);
      MonitorBattle& b = *e->battle;
      if (events)
        send_json(res, 200, items_since(*since, b.event_count(), [&](std::size_t i) { return b.event(i); }));
      else
        send_json(res, 200,
                  items_since(*since, b.transition_count(), [&](std::size_t i) { return b.transition(i); }));
    };
  };
  get(std::string(kId) + "/events", since_route(true));
  get(std::string(kId) + "/history", since_route(false));

  // Any name is the rule set's to know: one it has no view of (`Draw_pile`, `draw-pile`) is an
  // unknown view, not a path the server does not serve.
  get(std::string(kId) + R"(/detail/([^/]{1,64}))",
      [this](const httplib::Request& req, httplib::Response& res) {
        const auto e = find(req.matches[1].str(), res);
        if (!e) return;
        std::lock_guard lock(e->mutex);
        auto detail = e->battle->detail(req.matches[2].str());
        if (!detail)
          return send_error(
              res, 404, "unknown_detail",
              fmt::format("the {} rule set has no view '{}'", e->adapter->rules(), req.matches[2].str()));
        send_json(res, 200, *detail);
      });

  // The battle as a replay file (`battlecore-replay`): what `battlecore replay` checks and
  // POST /api/replays loads. It holds the start and the actions, nothing a player cannot see.
  get(std::string(kId) + "/replay", [this](const httplib::Request& req, httplib::Response& res) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    std::lock_guard lock(e->mutex);
    res.status = 200;
    res.set_content(json_text(e->battle->replay(), 2) + "\n", "application/json");
  });

  // A snapshot is the battle's replay (rules, encounter, seed, actions) plus its state hash,
  // views and the engine's own snapshot, which holds what the players cannot see (the bots'
  // hands, the draw order, the random streams): given once the battle is over, or by a server
  // started to reveal it.
  get(std::string(kId) + "/snapshot", [this](const httplib::Request& req, httplib::Response& res) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    std::lock_guard lock(e->mutex);
    json state = e->battle->state();
    if (!options.reveal && !state.value("over", false))
      return send_error(
          res, 403, "hidden_information",
          "the snapshot of a battle in play shows what the players cannot see; it is given once "
          "the battle is over, or by `battlecore serve --reveal` (GET .../replay has the replay)");
    json actions = e->replay ? e->replay_actions : e->battle->actions();
    if (e->replay) actions.erase(actions.begin() + static_cast<std::ptrdiff_t>(e->step), actions.end());
    json snapshot = {{"format", "battlecore-monitor-snapshot"},
                     {"version", 1},
                     {"rules", e->adapter->rules()},
                     {"encounter", e->encounter},
                     {"seed", e->seed},
                     {"actions", actions},
                     {"state_hash", e->battle->state_hash()},
                     {"state", std::move(state)},
                     {"decision", e->battle->decision()},
                     {"snapshot", e->battle->engine_snapshot()}};
    // A replay that gave the server's moves: the battle is rebuilt with those it made up to here.
    if (auto made = e->battle->server_moves_made()) snapshot["server_moves"] = std::move(*made);
    send_json(res, 200, snapshot);
  });
}

void Server::Impl::replay_routes() {
  // Loads a replay: a replay file (`battlecore-replay`, as GET .../replay gives it) or the short
  // form {rules, encounter, seed, actions[, step][, state_hash]} (a snapshot is one). Every action
  // is checked by playing the whole list, and so is the final hash when one is given; then the
  // battle is shown at `step` (default: the end).
  post("/api/replays", [this](const httplib::Request&, httplib::Response& res, const std::string& text) {
    const auto body = body_object(text, res);
    if (!body) return;
    // A replay file lists every action the engine took; the short form, the monitor's actions only.
    bool file = false;
    if (const auto format = body->find("format"); format != body->end()) {
      file = *format == sim::kReplayFormat;
      if (!file && *format != "battlecore-monitor-snapshot")
        return send_error(
            res, 400, "bad_request",
            fmt::format("\"format\" must be \"{}\" or \"battlecore-monitor-snapshot\"", sim::kReplayFormat));
    }
    for (const char* key : {"scenario", "deck"})
      if (const auto it = body->find(key); it != body->end() && !it->is_null())
        return send_error(
            res, 400, "bad_request",
            fmt::format("the monitor starts a battle from its encounter and seed; a replay with a "
                        "\"{}\" is checked with `battlecore replay`",
                        key));
    const auto rules = body->find("rules");
    if (rules == body->end() || !rules->is_string())
      return send_error(res, 400, "bad_request", "\"rules\" must name a rule set: " + rule_names());
    const auto a = adapter(rules->get<std::string>());
    if (!a)
      return send_error(res, 404, "unknown_rules",
                        fmt::format("no rule set '{}'", rules->get<std::string>()));
    const auto actions = body->find("actions");
    if (actions == body->end() || !actions->is_array())
      return send_error(res, 400, "bad_request", "\"actions\" must be an array of actions");
    const auto encounter = field_encounter(*body, res, true);
    if (!encounter) return;
    const auto seed = field_seed(*body, res);
    if (!seed) return;
    const char* hash_key = file ? "final_state_hash" : "state_hash";
    const auto hash = body->find(hash_key);
    if (hash != body->end() && !hash->is_string())
      return send_error(res, 400, "bad_request",
                        fmt::format("\"{}\" must be a state hash: a string of 16 hex digits", hash_key));

    auto probe = a->start(*encounter, *seed);
    if (!probe) return send_error(res, 422, probe.error().reason, probe.error().message);
    // A file names the content and the engine it was recorded with: another pack's file is
    // refused as such, as `battlecore replay` refuses it, not as a battle that diverged.
    if (file) {
      const nlohmann::ordered_json own = probe.value()->replay();
      for (const char* key : {"format_version", "rng_version", "content_hash"}) {
        const auto given = body->find(key);
        if (given == body->end())
          return send_error(
              res, 400, "bad_request",
              fmt::format("the replay file has no \"{}\"; this server reads {}", key, own[key].dump()));
        if (*given == json(own[key])) continue;
        if (std::string_view(key) == "content_hash")
          return send_error(
              res, 422, "content_mismatch",
              fmt::format("the replay was recorded with content {}; this server's {} pack is {}",
                          given->dump(), rules->get<std::string>(), own[key].dump()));
        return send_error(
            res, 400, "bad_request",
            fmt::format("the replay has {} {}; this server reads {}", key, given->dump(), own[key].dump()));
      }
    }
    // A file's moves the server makes itself (the clash's bots) are not steps: its battle makes
    // them, as the file has them (another policy than the server's may have chosen them, as in
    // `sim --record`), and no other: a file lists every move, as `battlecore replay` plays them,
    // so one with none makes none. Each is made at its place in the file and nowhere else, and
    // each step's action at its own: the file is played in its order, so one whose moves are
    // listed in another order than the battle makes them is refused where `battlecore replay`
    // refuses it. The short form may give them too (`server_moves`, even an empty list: a
    // snapshot of such a replay does), a list of their own, with no place among the actions:
    // each is made when a bot is to decide. Leaving the key out leaves them to the server.
    // `index_in_body` and `server_index_in_body` keep each action's place in the body, for
    // messages.
    json replay_actions = json::array();
    ServerMoves server_moves;
    std::vector<std::size_t> index_in_body;
    std::vector<std::size_t> server_index_in_body;
    for (std::size_t i = 0; i < actions->size(); ++i) {
      const bool server = file && probe.value()->server_move((*actions)[i]);
      if (server) {
        server_moves.moves.push_back((*actions)[i]);
        server_moves.places.push_back(replay_actions.size());
        server_index_in_body.push_back(i);
      } else {
        replay_actions.push_back((*actions)[i]);
        index_in_body.push_back(i);
      }
    }
    bool server_moves_given = file;
    if (const auto given = body->find("server_moves"); !file && given != body->end()) {
      if (!given->is_array())
        return send_error(res, 400, "bad_request", "\"server_moves\" must be an array of actions");
      server_moves.moves = *given;
      server_moves_given = true;
    }
    const auto step = field_u64(*body, res, "step", replay_actions.size());
    if (!step) return;
    if (*step > replay_actions.size())
      return send_error(res, 400, "bad_request",
                        fmt::format("\"step\" is past the {} actions", replay_actions.size()));

    auto entry = std::make_shared<BattleEntry>();
    entry->adapter = a;
    entry->encounter = *encounter;
    entry->seed = *seed;
    entry->replay = true;
    entry->replay_actions = std::move(replay_actions);
    if (server_moves_given) entry->server_moves = std::move(server_moves);
    if (auto failed = rebuild(*entry, entry->replay_actions.size())) {
      const auto& [index, refused] = *failed;
      const std::string which =
          !refused.server_move
              ? fmt::format("action {}", index < index_in_body.size() ? index_in_body[index] : index)
          : file && *refused.server_move < server_index_in_body.size()
              ? fmt::format("action {}", server_index_in_body[*refused.server_move])
              : fmt::format("server move {}", *refused.server_move);
      return send_error(
          res, 422, "replay_diverged",
          fmt::format("{} of the replay was refused: {}: {}", which, refused.reason, refused.message));
    }
    if (hash != body->end() && hash->get<std::string>() != entry->battle->state_hash())
      return send_error(res, 422, "replay_diverged",
                        fmt::format("the replay ends in state {} but the file says {}",
                                    entry->battle->state_hash(), hash->get<std::string>()));
    if (*step != entry->replay_actions.size()) (void)rebuild(*entry, *step);
    if (!add(entry, res)) return;
    std::lock_guard lock(entry->mutex);
    send_json(res, 201, overview(*entry));
  });

  post(R"(/api/battles/([A-Za-z0-9-]{1,64})/seek)", [this](const httplib::Request& req,
                                                           httplib::Response& res, const std::string& text) {
    const auto e = find(req.matches[1].str(), res);
    if (!e) return;
    const auto body = body_object(text, res, {"step"});
    if (!body) return;
    const auto step = body->find("step");
    if (step == body->end() || !step->is_number_unsigned())
      return send_error(res, 400, "bad_request", "\"step\" must be a non-negative integer");
    std::lock_guard lock(e->mutex);
    if (!e->replay) return send_error(res, 409, "not_a_replay", "only a replay can be stepped");
    const auto k = step->get<std::size_t>();
    if (k > e->replay_actions.size())
      return send_error(res, 400, "bad_request",
                        fmt::format("step {} is past the replay's {} actions", k, e->replay_actions.size()));
    if (auto failed = rebuild(*e, k)) return send_error(res, 422, "replay_diverged", failed->second.message);
    send_json(res, 200, overview(*e));
  });
}

Server::Server(std::vector<std::shared_ptr<const RuleSetAdapter>> adapters, ServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(adapters), std::move(options))) {}

Server::~Server() {
  if (!impl_) return;
  stop();
  std::unique_lock lock(impl_->run_mutex);
  impl_->run_changed.wait(lock, [this] { return !impl_->serving; });
}

Result<void> Server::bind() {
  const std::string& host = impl_->options.host;
  if (impl_->options.port == 0) {
    const int port = impl_->http.bind_to_any_port(host);
    if (port <= 0) return Error{fmt::format("cannot bind to {} on any port", host)};
    impl_->port = port;
    return {};
  }
  if (!impl_->http.bind_to_port(host, impl_->options.port))
    return Error{fmt::format("cannot bind to {}:{}", host, impl_->options.port)};
  impl_->port = impl_->options.port;
  return {};
}

void Server::run() {
  Impl& s = *impl_;
  {
    const std::lock_guard lock(s.run_mutex);
    if (s.stop_requested) return;
    s.serving = true;
  }
  s.http.listen_after_bind();
  // Told under the lock: once the destructor sees `serving` false it frees the condition variable.
  const std::lock_guard lock(s.run_mutex);
  s.serving = false;
  s.run_changed.notify_all();
}

void Server::stop() {
  if (!impl_) return;
  Impl& s = *impl_;
  std::unique_lock lock(s.run_mutex);
  s.stop_requested = true;
  // httplib's stop() does nothing before its loop runs (a run() just begun), and asserts that the
  // socket is open when it is called again while the loop winds down: it is called once, when the
  // loop runs, unless run() returns first.
  while (s.serving && !s.listener_closed) {
    if (s.http.is_running()) {
      s.http.stop();
      s.listener_closed = true;
    } else {
      s.run_changed.wait_for(lock, std::chrono::milliseconds(1));
    }
  }
}

int Server::port() const { return impl_->port; }

bool Server::wait_until_running() const {
  for (int i = 0; i < 500; ++i) {
    if (impl_->http.is_running()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace battlecore::monitor
