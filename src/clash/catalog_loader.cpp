// Clash content loading: pass 1 collects the encounter ids (so the pack may name its default
// encounter in any file); pass 2 reads each encounter strictly. Nothing is loaded when any
// problem was found, and every problem is reported.

#include <optional>
#include <string>

#include "battlecore/clash/load.hpp"
#include "battlecore/content/content_hash.hpp"

namespace battlecore::clash {
namespace {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;

constexpr std::array<std::string_view, 2> kSeatKinds = {"human", "bot"};
constexpr std::array<std::string_view, 2> kEliminations = {"at_zero", "below_zero"};
constexpr std::array<std::string_view, 2> kEqualValues = {"tie", "later_wins"};
constexpr std::string_view kCardElements = "air, earth, energy, fire or water";

using Item = content::SectionItem;

class Loader {
 public:
  /// `all_read`: every file of the pack is among `docs`; otherwise the 'pack' object or an
  /// encounter it names may be in the file that could not be read, and is not looked for.
  Loader(const std::vector<JsonDocument>& docs, Diagnostics& diags, bool all_read = true)
      : docs_(docs), diags_(diags), all_read_(all_read) {}

  std::shared_ptr<const Catalog> run() {
    if (content::foreign_rule_set(docs_, "clash", diags_)) return nullptr;
    collect();
    auto catalog = std::make_shared<Catalog>();
    c_ = catalog.get();
    c_->encounters.resize(ids_.size());
    for (const Item& it : encounters_) read_encounter(it);
    read_pack();
    if (!diags_.empty()) return nullptr;
    c_->content_hash = content::canonical_content_hash(docs_);
    return catalog;
  }

 private:
  void collect() {
    for (const JsonDocument& doc : docs_) {
      ObjectReader top(doc, doc.root, "", diags_);
      if (!top.valid()) continue;
      if (const json* p = top.optional_object("pack")) {
        if (pack_)
          top.error_at("pack", "a second 'pack' object; the first is in " + pack_->doc->file);
        else
          pack_ = Item{&doc, p, top.pointer_of("pack")};
      }
      if (const json* arr = top.optional_array("encounters"))
        for (std::size_t i = 0; i < arr->size(); ++i)
          encounters_.push_back(
              Item{&doc, &(*arr)[i], content::child_pointer(top.pointer_of("encounters"), i)});
      top.finish();
    }
    content::collect_ids("encounter", encounters_, kMaxEncounters, ids_, diags_);
  }

  void read_pack() {
    if (!pack_) {
      if (!all_read_) return;
      const std::string message =
          "no 'pack' object: one file of the pack must have {\"pack\": {\"id\": ...}}";
      // At the first file's top-level object (pointer ""), which lacks the key, as a missing key is
      // reported at the object that lacks it.
      diags_.add(docs_.empty() ? content::Diagnostic{"", 0, 0, "", message}
                               : docs_.front().diagnostic("", message));
      return;
    }
    ObjectReader r(*pack_->doc, *pack_->value, pack_->pointer, diags_);
    c_->pack.id = r.required_id("id").value_or("");
    c_->pack.name = r.optional_name("name").value_or(c_->pack.id);
    (void)r.optional_string("rules");  // another rule set's name was refused before anything was read
    if (const auto enc = r.optional_string("default_encounter")) {
      if (const auto it = ids_.find(*enc); it != ids_.end())
        c_->pack.default_encounter = it->second;
      else if (all_read_)
        r.error_at("default_encounter",
                   "unknown encounter '" + *enc + "'; expected the id of an encounter defined in the pack");
    }
    r.finish();
  }

  void read_encounter(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    EncounterDef e;
    const auto id = r.required_id("id");
    e.name = r.optional_name("name").value_or("");
    if (id) e.id = *id;
    if (e.name.empty()) e.name = e.id;
    // The seats as listed, past the fourth too: the starting rocks are one per listed seat.
    std::optional<std::size_t> seats_listed;
    // Whether a listed seat is human; unknown when the seats or a seat's kind could not be read.
    std::optional<bool> human_listed;
    if (const json* seats = r.required_array("seats")) {
      seats_listed = seats->size();
      if (seats->size() < kMinSeats || seats->size() > kMaxSeats)
        r.error_at("seats", "expected 2 to 4 seats, got " + std::to_string(seats->size()));
      bool human = false, kinds_read = true;
      // Seats past the fourth are read too, so that their own problems are listed with the count.
      for (std::size_t i = 0; i < seats->size(); ++i) {
        ObjectReader s(*it.doc, (*seats)[i], content::child_pointer(r.pointer_of("seats"), i), diags_);
        SeatDef seat;
        if (const auto kind = s.required_enum("kind", kSeatKinds))
          seat.kind = static_cast<SeatKind>(*kind);
        else
          kinds_read = false;
        seat.name = s.optional_name("name").value_or(fmt_seat_name(seat.kind, i));
        s.finish();
        human = human || seat.kind == SeatKind::Human;
        if (i < kMaxSeats) e.seats.push_back(seat);
      }
      if (human || kinds_read) human_listed = human;  // a kind not read may be the human one
    }
    if (const json* rules = r.optional_object("rules"))
      read_rules(*it.doc, *rules, r.pointer_of("rules"), seats_listed, human_listed, e);
    r.finish();
    if (id) {
      const auto found = ids_.find(*id);
      if (found != ids_.end() && c_->encounters[found->second].id.empty())
        c_->encounters[found->second] = std::move(e);
    }
  }

  static std::string fmt_seat_name(SeatKind kind, std::size_t i) {
    return (kind == SeatKind::Human ? "Human " : "Bot ") + std::to_string(i);
  }

  /// `seats_listed`: how many seats the encounter lists (none when 'seats' is missing or no array);
  /// `human_listed`: whether one of them is human (none when that is not known).
  void read_rules(const JsonDocument& doc, const json& value, const std::string& pointer,
                  std::optional<std::size_t> seats_listed, std::optional<bool> human_listed,
                  EncounterDef& e) {
    ObjectReader r(doc, value, pointer, diags_);
    RuleParams& p = e.rules;
    p.health = static_cast<std::int32_t>(r.int_or("health", p.health, 1, 99));
    if (const auto v = r.enum_or("elimination", kEliminations, 0))
      p.elimination = static_cast<Elimination>(*v);
    if (const auto v = r.enum_or("equal_values", kEqualValues, 0))
      p.equal_values = static_cast<EqualValues>(*v);
    p.hand_size = static_cast<std::uint8_t>(r.int_or("hand_size", p.hand_size, 1, kMaxHandSize));
    p.refill = r.bool_or("refill", p.refill);
    if (const json* deck = r.optional_value("deck")) read_deck(doc, *deck, r.pointer_of("deck"), p);
    // A bad rock count (reported) leaves only the largest one to check the starting rocks against.
    bool rocks_known = !r.has("rocks");
    if (const auto rocks = r.optional_int("rocks", 6, kMaxRocks)) {
      if (*rocks % 6 != 0) {
        r.error_at("rocks", "expected a multiple of 6 (each element owns the same number of rocks), got " +
                                std::to_string(*rocks));
      } else {
        p.rocks = static_cast<std::uint32_t>(*rocks);
        rocks_known = true;
      }
    }
    if (const json* start = r.optional_value("starting_rocks"))
      read_starting_rocks(doc, *start, r.pointer_of("starting_rocks"), rocks_known ? p.rocks : kMaxRocks,
                          seats_listed, e);
    p.end_when_human_out = r.bool_or("end_when_human_out", p.end_when_human_out);
    // It ends the battle once every human seat is out: with none, there is nothing to wait for.
    if (p.end_when_human_out && human_listed && !*human_listed)
      r.error_at("end_when_human_out",
                 "expected false (the encounter has no human seat to go out), got true");
    p.resetup_between_rounds = r.bool_or("resetup_between_rounds", p.resetup_between_rounds);
    p.round_limit = static_cast<std::uint32_t>(r.int_or("round_limit", p.round_limit, 1, 10000));
    p.sudden_death_rounds =
        static_cast<std::uint32_t>(r.int_or("sudden_death_rounds", p.sudden_death_rounds, 0, 100));
    r.finish();
    if (p.deck == DeckSource::Listed && !p.refill && p.listed_deck.size() < p.hand_size)
      diags_.add(doc.diagnostic(pointer + "/deck", "the listed deck has " +
                                                       std::to_string(p.listed_deck.size()) +
                                                       " cards; a hand of " + std::to_string(p.hand_size) +
                                                       " needs at least that many"));
  }

  void read_deck(const JsonDocument& doc, const json& deck, const std::string& pointer, RuleParams& p) {
    if (deck.is_string()) {
      if (deck.get_ref<const std::string&>() != "random")
        diags_.add(doc.diagnostic(pointer, "expected \"random\" or an array of cards, got '" +
                                               deck.get_ref<const std::string&>() + "'"));
      return;
    }
    if (!deck.is_array()) {
      diags_.add(doc.diagnostic(
          pointer, "expected \"random\" or an array of cards, got " + content::describe_json_type(deck)));
      return;
    }
    if (deck.empty() || deck.size() > kMaxDeckSize)
      diags_.add(doc.diagnostic(pointer, "expected 1 to " + std::to_string(kMaxDeckSize) + " cards, got " +
                                             std::to_string(deck.size())));
    p.deck = DeckSource::Listed;
    // Cards past the limit are read too, so that their own problems are listed with the count.
    for (std::size_t i = 0; i < deck.size(); ++i) {
      ObjectReader c(doc, deck[i], content::child_pointer(pointer, i), diags_);
      const Card card = read_card(c);
      if (i < kMaxDeckSize) p.listed_deck.push_back(card);
    }
  }

  void read_starting_rocks(const JsonDocument& doc, const json& start, const std::string& pointer,
                           std::uint32_t count, std::optional<std::size_t> seats_listed, EncounterDef& e) {
    if (start.is_string()) {
      if (start.get_ref<const std::string&>() != "spread")
        diags_.add(
            doc.diagnostic(pointer, "expected \"spread\" or an array of rock indices, one per seat, got '" +
                                        start.get_ref<const std::string&>() + "'"));
      return;
    }
    if (!start.is_array()) {
      diags_.add(
          doc.diagnostic(pointer, "expected \"spread\" or an array of rock indices, one per seat, got " +
                                      content::describe_json_type(start)));
      return;
    }
    // Counted against the seats as listed (a bad 'seats', reported, gives no count to check).
    if (seats_listed && start.size() != *seats_listed)
      diags_.add(doc.diagnostic(pointer, "expected one rock per seat (" + std::to_string(*seats_listed) +
                                             "), got " + std::to_string(start.size())));
    // `count` is the rock count, read before this key (keys are read by name, not in text order).
    std::vector<std::uint8_t> rocks;
    for (std::size_t i = 0; i < start.size(); ++i) {
      const json& v = start[i];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= count) {
        diags_.add(doc.diagnostic(
            content::child_pointer(pointer, i),
            "expected a rock index in [0, " + std::to_string(count - 1) + "], got " + v.dump()));
        continue;
      }
      rocks.push_back(static_cast<std::uint8_t>(v.get<std::int64_t>()));
    }
    if (rocks.size() == e.seats.size()) e.rules.starting_rocks = rocks;
  }

 private:
  const std::vector<JsonDocument>& docs_;
  Diagnostics& diags_;
  Catalog* c_ = nullptr;
  std::optional<Item> pack_;
  std::vector<Item> encounters_;
  content::IdIndex ids_;
  bool all_read_;
};

}  // namespace

CatalogResult load_catalog(const std::vector<content::JsonDocument>& documents) {
  Diagnostics diags;
  Loader loader(documents, diags);
  std::shared_ptr<const Catalog> catalog = loader.run();
  if (!diags.empty() || !catalog) return diags;
  return catalog;
}

CatalogResult load_catalog(const std::filesystem::path& path) {
  Diagnostics diags;
  content::PackDocuments read = content::read_pack_documents(path, diags);
  if (!diags.empty()) {
    // Report the problems of the files that parsed too, so every problem is listed at once.
    if (!read.docs.empty()) {
      Loader loader(read.docs, diags, read.all_read);
      (void)loader.run();
    }
    return diags;
  }
  return load_catalog(read.docs);
}

CatalogResult load_catalog_text(std::string file, std::string text) {
  Diagnostics diags;
  auto doc = content::parse_json_text(std::move(file), std::move(text), diags);
  if (!doc) return diags;
  std::vector<content::JsonDocument> docs;
  docs.push_back(std::move(*doc));
  if (!diags.empty()) {  // a duplicate key: report the text's other problems too
    Loader loader(docs, diags);
    (void)loader.run();
    return diags;
  }
  return load_catalog(docs);
}

Card read_card(content::ObjectReader& c) {
  Card card;
  if (const auto name = c.required_string("element")) {
    const auto element = element_from_name(*name);
    if (!element || *element == Element::None)
      c.error_at("element", "unknown element '" + *name + "'; expected " + std::string(kCardElements));
    else
      card.element = *element;
  }
  if (const auto v = c.required_int("value", kMinCardValue, kMaxCardValue))
    card.value = static_cast<std::uint8_t>(*v);
  c.finish();
  return card;
}

}  // namespace battlecore::clash
