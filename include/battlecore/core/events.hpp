#pragma once
/// Typed events: an ordered log plus listeners, with a specified delivery order.
///
/// Order: each event is first appended to the log (when the log is on), then handed to the
/// listeners in the order they were attached, each only the event types it is interested in
/// (`interest()`, read when it is attached: every type unless it says otherwise). With the log off and no
/// listener attached, `active()` is false and emitting costs one predictable branch: call sites build the
/// event only inside `if (bus.active())`, or pass a callable to `emit_with`.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace battlecore {

/// A host's view of a battle's events.
template <class Event>
class EventListener {
 public:
  virtual ~EventListener() = default;
  /// Called once per event of a type it is interested in, in the order the engine emits them.
  virtual void on_event(const Event& event) = 0;
  /// The event types it wants, bit i for type i (types from 64 on are always delivered). Read
  /// once, when the listener is attached; a narrow interest saves a call per other event.
  virtual std::uint64_t interest() const { return ~std::uint64_t{0}; }
};

/// The interest bit of event type `type` (an enum of the rule set's event types).
template <class Type>
constexpr std::uint64_t event_bit(Type type) {
  const auto i = static_cast<unsigned>(type);
  return i < 64 ? std::uint64_t{1} << i : 0;
}

/// The log and the listeners of one battle. Copying a bus copies the log but not the
/// listeners: a clone made for search does not talk to the host that watches the original.
template <class Event>
class EventBus {
 public:
  EventBus() = default;
  EventBus(const EventBus& other) : log_(other.log_), log_enabled_(other.log_enabled_) { refresh(); }
  EventBus& operator=(const EventBus& other) {
    if (this != &other) {
      log_ = other.log_;
      log_enabled_ = other.log_enabled_;
      listeners_.clear();
      refresh();
    }
    return *this;
  }
  EventBus(EventBus&&) noexcept = default;
  EventBus& operator=(EventBus&&) noexcept = default;

  /// True when someone records or listens; false means events cost nothing.
  bool active() const { return active_; }
  bool log_enabled() const { return log_enabled_; }
  void set_log_enabled(bool on) {
    log_enabled_ = on;
    refresh();
  }

  /// Appends to the log, then notifies listeners in attach order.
  void emit(const Event& event) {
    if (active_) deliver(type_bit(event.type), event);
  }
  /// Builds the event only when someone is listening.
  template <class Make>
  void emit_with(Make&& make) {
    if (active_) emit(make());
  }
  /// Builds the event of type `type` only when the log is on or a listener wants that type:
  /// the form the engine uses, so that a narrow listener costs nothing for the other types.
  template <class Type, class Make>
  void emit_with(Type type, Make&& make) {
    const std::uint64_t bit = type_bit(type);
    if ((wanted_ & bit) != 0) deliver(bit, make());
  }

  /// True when an event of `type` would be logged or heard.
  template <class Type>
  bool wants(Type type) const {
    return (wanted_ & type_bit(type)) != 0;
  }

  /// Attaches a listener (not owned); it is called after those attached before it.
  void attach(EventListener<Event>* listener) {
    listeners_.push_back(Attached{listener, listener->interest()});
    refresh();
  }
  void detach(EventListener<Event>* listener) {
    if (emitting_ > 0) {  // compacted when the current emit returns
      for (Attached& a : listeners_)
        if (a.listener == listener) {
          a.listener = nullptr;
          has_detached_ = true;
        }
      return;
    }
    listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(),
                                    [&](const Attached& a) { return a.listener == listener; }),
                     listeners_.end());
    refresh();
  }
  std::size_t listener_count() const {
    return static_cast<std::size_t>(std::count_if(listeners_.begin(), listeners_.end(),
                                                  [](const Attached& a) { return a.listener != nullptr; }));
  }

  const std::vector<Event>& log() const { return log_; }
  void clear_log() { log_.clear(); }
  void restore_log(std::vector<Event> log) { log_ = std::move(log); }

 private:
  struct Attached {
    EventListener<Event>* listener;  ///< null once detached during an emit
    std::uint64_t interest;
  };
  /// Bit i for type i; types from 64 on match every interest.
  template <class Type>
  static std::uint64_t type_bit(Type type) {
    const auto i = static_cast<unsigned>(type);
    return i < 64 ? std::uint64_t{1} << i : ~std::uint64_t{0};
  }
  /// Logs the event when the log is on and calls the listeners that want it (`bit` is its type's).
  void deliver(std::uint64_t bit, const Event& event) {
    if (log_enabled_) log_.push_back(event);
    // interest_ is 0 when no listener is attached.
    if ((interest_ & bit) == 0) return;
    // By index, over the listeners attached when the event was emitted: a listener may attach
    // or detach listeners while being called (a detached one is not called again).
    const std::size_t n = listeners_.size();
    ++emitting_;
    for (std::size_t i = 0; i < n; ++i)
      if (listeners_[i].listener != nullptr && (listeners_[i].interest & bit) != 0)
        listeners_[i].listener->on_event(event);
    if (--emitting_ == 0 && has_detached_) {
      listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(),
                                      [](const Attached& a) { return a.listener == nullptr; }),
                       listeners_.end());
      has_detached_ = false;
      refresh();
    }
  }
  void refresh() {
    active_ = log_enabled_ || !listeners_.empty();
    interest_ = 0;
    for (const Attached& a : listeners_) interest_ |= a.interest;
    wanted_ = log_enabled_ ? ~std::uint64_t{0} : interest_;
  }

  std::vector<Event> log_;
  std::vector<Attached> listeners_;
  std::uint64_t interest_ = 0;                ///< the union of the listeners' interests
  std::uint64_t wanted_ = ~std::uint64_t{0};  ///< the types emitted: all with the log on, else interest_
  bool log_enabled_ = true;
  bool active_ = true;
  bool has_detached_ = false;
  int emitting_ = 0;
};

}  // namespace battlecore
