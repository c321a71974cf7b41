#include "battlecore/core/events.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace battlecore {
namespace {

struct ToyEvent {
  int id = 0;
  std::string text;
  unsigned type = 0;  ///< the type a listener's interest selects by
  friend bool operator==(const ToyEvent&, const ToyEvent&) = default;
};

using Bus = EventBus<ToyEvent>;

/// One delivery as a listener saw it: who, which event, and how long the log was at that moment.
struct Delivery {
  std::string listener;
  int event_id;
  std::size_t log_size;
  friend bool operator==(const Delivery&, const Delivery&) = default;
};

class RecordingListener : public EventListener<ToyEvent> {
 public:
  RecordingListener(std::string name, const Bus& bus, std::vector<Delivery>& deliveries)
      : name_(std::move(name)), bus_(bus), deliveries_(deliveries) {}
  void on_event(const ToyEvent& event) override {
    deliveries_.push_back({name_, event.id, bus_.log().size()});
  }

 private:
  std::string name_;
  const Bus& bus_;
  std::vector<Delivery>& deliveries_;
};

TEST(EventBus, LogKeepsEmissionOrder) {
  Bus bus;
  bus.emit({1, "first"});
  bus.emit({2, "second"});
  bus.emit({3, "third"});
  const std::vector<ToyEvent> expected = {{1, "first"}, {2, "second"}, {3, "third"}};
  EXPECT_EQ(bus.log(), expected);
}

TEST(EventBus, ListenersRunInAttachOrderAfterTheLogAppend) {
  Bus bus;
  std::vector<Delivery> deliveries;
  RecordingListener a("a", bus, deliveries);
  RecordingListener b("b", bus, deliveries);
  RecordingListener c("c", bus, deliveries);
  bus.attach(&b);
  bus.attach(&a);
  bus.attach(&c);
  bus.emit({10, ""});
  bus.emit({11, ""});
  // log_size is 1 at the first event's delivery: the append came before any listener.
  const std::vector<Delivery> expected = {{"b", 10, 1}, {"a", 10, 1}, {"c", 10, 1},
                                          {"b", 11, 2}, {"a", 11, 2}, {"c", 11, 2}};
  EXPECT_EQ(deliveries, expected);
}

TEST(EventBus, DetachedListenerHearsNothingMore) {
  Bus bus;
  std::vector<Delivery> deliveries;
  RecordingListener a("a", bus, deliveries);
  RecordingListener b("b", bus, deliveries);
  bus.attach(&a);
  bus.attach(&b);
  bus.emit({1, ""});
  bus.detach(&a);
  EXPECT_EQ(bus.listener_count(), 1u);
  bus.emit({2, ""});
  bus.detach(&a);  // detaching twice is harmless
  EXPECT_EQ(bus.listener_count(), 1u);
  const std::vector<Delivery> expected = {{"a", 1, 1}, {"b", 1, 1}, {"b", 2, 2}};
  EXPECT_EQ(deliveries, expected);
}

TEST(EventBus, LogOffWithoutListenersIsInactiveAndBuildsNoEvent) {
  Bus bus;
  EXPECT_TRUE(bus.active());
  bus.set_log_enabled(false);
  EXPECT_FALSE(bus.log_enabled());
  EXPECT_FALSE(bus.active());
  int made = 0;
  for (int i = 0; i < 5; ++i)
    bus.emit_with([&] {
      ++made;
      return ToyEvent{i, "expensive"};
    });
  bus.emit({99, "direct"});
  EXPECT_EQ(made, 0);
  EXPECT_TRUE(bus.log().empty());
}

TEST(EventBus, LogOffWithAListenerIsActive) {
  Bus bus;
  bus.set_log_enabled(false);
  std::vector<Delivery> deliveries;
  RecordingListener a("a", bus, deliveries);
  bus.attach(&a);
  EXPECT_TRUE(bus.active());
  int made = 0;
  bus.emit_with([&] {
    ++made;
    return ToyEvent{7, ""};
  });
  EXPECT_EQ(made, 1);
  EXPECT_TRUE(bus.log().empty());
  EXPECT_EQ(deliveries, (std::vector<Delivery>{{"a", 7, 0}}));
  bus.detach(&a);
  EXPECT_FALSE(bus.active());
}

TEST(EventBus, EmitWithBuildsOnceWhenLogging) {
  Bus bus;
  int made = 0;
  bus.emit_with([&] {
    ++made;
    return ToyEvent{3, "x"};
  });
  EXPECT_EQ(made, 1);
  EXPECT_EQ(bus.log(), (std::vector<ToyEvent>{{3, "x"}}));
}

TEST(EventBus, CopyTakesTheLogButNotTheListeners) {
  Bus bus;
  std::vector<Delivery> deliveries;
  RecordingListener a("a", bus, deliveries);
  bus.attach(&a);
  bus.emit({1, "one"});
  bus.emit({2, "two"});

  Bus copy = bus;
  EXPECT_EQ(copy.log(), bus.log());
  EXPECT_EQ(copy.listener_count(), 0u);
  copy.emit({3, "three"});
  EXPECT_EQ(copy.log().size(), 3u);
  EXPECT_EQ(bus.log().size(), 2u);
  EXPECT_EQ(deliveries.size(), 2u);  // the host listening to the original did not hear the clone

  Bus assigned;
  assigned.attach(&a);
  assigned = bus;
  EXPECT_EQ(assigned.log(), bus.log());
  EXPECT_EQ(assigned.listener_count(), 0u);
  assigned.emit({4, "four"});
  EXPECT_EQ(deliveries.size(), 2u);
}

TEST(EventBus, CopyOfASilentBusWithListenersIsInactive) {
  Bus bus;
  bus.set_log_enabled(false);
  std::vector<Delivery> deliveries;
  RecordingListener a("a", bus, deliveries);
  bus.attach(&a);
  ASSERT_TRUE(bus.active());
  const Bus copy = bus;
  EXPECT_FALSE(copy.active());
  EXPECT_FALSE(copy.log_enabled());
}

TEST(EventBus, ClearAndRestoreLog) {
  Bus bus;
  bus.emit({1, ""});
  bus.clear_log();
  EXPECT_TRUE(bus.log().empty());
  bus.restore_log({{5, "a"}, {6, "b"}});
  bus.emit({7, "c"});
  EXPECT_EQ(bus.log(), (std::vector<ToyEvent>{{5, "a"}, {6, "b"}, {7, "c"}}));
}

/// Wants only the types in `mask`.
class NarrowListener : public RecordingListener {
 public:
  NarrowListener(std::string name, const Bus& bus, std::vector<Delivery>& deliveries, std::uint64_t mask)
      : RecordingListener(std::move(name), bus, deliveries), mask_(mask) {}
  std::uint64_t interest() const override { return mask_; }

 private:
  std::uint64_t mask_;
};

TEST(EventBus, AListenerGetsOnlyTheTypesOfItsInterestWhileTheLogKeepsEverything) {
  Bus bus;
  std::vector<Delivery> got;
  NarrowListener narrow("narrow", bus, got, event_bit(2u) | event_bit(70u));
  RecordingListener all("all", bus, got);
  bus.attach(&narrow);
  bus.attach(&all);
  bus.emit({1, "a", 1});
  bus.emit({2, "b", 2});
  bus.emit({3, "c", 70});  // types from 64 on reach every listener
  bus.emit({4, "d", 5});
  EXPECT_EQ(
      got,
      (std::vector<Delivery>{
          {"all", 1, 1}, {"narrow", 2, 2}, {"all", 2, 2}, {"narrow", 3, 3}, {"all", 3, 3}, {"all", 4, 4}}));
  EXPECT_EQ(bus.log().size(), 4u);
}

TEST(EventBus, WithOnlyNarrowListenersOtherTypesReachNoOneAndDetachingWidensNothing) {
  Bus bus;
  bus.set_log_enabled(false);
  std::vector<Delivery> got;
  NarrowListener narrow("narrow", bus, got, event_bit(3u));
  bus.attach(&narrow);
  EXPECT_TRUE(bus.active());
  bus.emit({1, "a", 1});
  bus.emit({2, "b", 3});
  bus.detach(&narrow);
  bus.emit({3, "c", 3});
  EXPECT_EQ(got, (std::vector<Delivery>{{"narrow", 2, 0}}));
  EXPECT_FALSE(bus.active());
}

TEST(EventBus, EmitWithATypeBuildsTheEventOnlyWhenTheLogOrAListenerWantsIt) {
  Bus bus;
  bus.set_log_enabled(false);
  std::vector<Delivery> got;
  NarrowListener narrow("narrow", bus, got, event_bit(3u));
  bus.attach(&narrow);
  int built = 0;
  auto make = [&](unsigned type) {
    return [&, type] {
      ++built;
      return ToyEvent{built, "x", type};
    };
  };
  bus.emit_with(1u, make(1));
  EXPECT_EQ(built, 0);  // nobody wants type 1
  bus.emit_with(3u, make(3));
  EXPECT_EQ(built, 1);
  bus.set_log_enabled(true);
  bus.emit_with(1u, make(1));  // the log wants every type
  EXPECT_EQ(built, 2);
  EXPECT_EQ(bus.log().size(), 1u);
  EXPECT_EQ(got, (std::vector<Delivery>{{"narrow", 1, 0}}));
}

}  // namespace
}  // namespace battlecore
