// Deckbuilder content loading. Pass 1 collects every id of every kind (so references can point
// anywhere in the pack, in any file); pass 2 reads each item strictly and resolves its
// references; the catalog is frozen only when no problem was found.

#include <array>
#include <map>
#include <string>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder {
namespace {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using detail::IdMap;
using nlohmann::json;

constexpr std::array<std::string_view, 2> kCardTargets = {"none", "enemy"};
constexpr std::array<std::string_view, 5> kKeywords = {"innate", "retain", "ethereal", "exhaust",
                                                       "unplayable"};
constexpr std::array<std::string_view, 2> kStatusKinds = {"buff", "debuff"};
constexpr std::array<std::string_view, 2> kStackings = {"intensity", "duration"};
constexpr std::array<std::string_view, 2> kDecays = {"none", "owner_turn_end"};
constexpr std::array<std::string_view, 8> kIntents = {
    "attack", "attack_defend", "defend", "buff", "buff_defend", "debuff", "attack_debuff", "unknown"};
constexpr std::array<std::string_view, 2> kBehaviors = {"random", "sequence"};
constexpr std::array<std::string_view, 2> kArmorDecay = {"reset_on_turn_start", "persist"};
constexpr std::array<std::string_view, 3> kBehaviorsAll = {"random", "sequence", "conditional"};
constexpr std::array<std::string_view, 7> kTimings = {
    "battle_start", "turn_start", "draw_phase", "discard_phase", "turn_end", "battle_end", "on_attacked"};
constexpr std::array<std::string_view, 4> kHookKinds = {"cancel_play", "refuse_play", "armor_reset",
                                                        "on_card_played"};
constexpr std::array<std::string_view, 3> kEncounterKinds = {"normal", "elite", "boss"};
constexpr std::array<std::string_view, 5> kConditionKinds = {"target_has_status", "self_hp_below_percent",
                                                             "hand_size_at_least", "energy_at_least",
                                                             "attacked_this_turn"};

/// One item of one section of one document.
using Item = content::SectionItem;

class Loader {
 public:
  /// `all_read`: every file of the pack is among `docs`; otherwise an id no document defines may
  /// be in the file that could not be read, and a reference to it is not reported.
  Loader(const std::vector<JsonDocument>& docs, Diagnostics& diags, bool all_read = true)
      : docs_(docs), diags_(diags), all_read_(all_read) {
    detail::register_builtin_ops(ops_);
  }

  std::shared_ptr<const Catalog> run() {
    if (content::foreign_rule_set(docs_, "deckbuilder", diags_)) return nullptr;
    collect_sections();
    content::collect_ids("card", cards_, kMaxIdsPerKind, card_ids_, diags_);
    content::collect_ids("status", statuses_, kMaxIdsPerKind, status_ids_, diags_);
    content::collect_ids("enemy", enemies_, kMaxIdsPerKind, enemy_ids_, diags_);
    content::collect_ids("player", players_, kMaxIdsPerKind, player_ids_, diags_);
    content::collect_ids("encounter", encounters_, kMaxIdsPerKind, encounter_ids_, diags_);
    content::collect_ids("hook", hooks_, kMaxIdsPerKind, hook_ids_, diags_);
    content::collect_ids("reward pool", reward_pools_, kMaxIdsPerKind, reward_pool_ids_, diags_);

    auto catalog = std::make_shared<Catalog>();
    c_ = catalog.get();
    for (const detail::OpSpec& spec : ops_.specs()) {
      c_->op_handlers.push_back(spec.handler);
      c_->op_names.emplace_back(spec.name);
    }
    for (const Item& it : statuses_) read_status(it);
    for (const Item& it : hooks_) read_hook(it);
    for (const Item& it : cards_) read_card(it);
    for (const Item& it : reward_pools_) read_reward_pool(it);
    for (const Item& it : enemies_) read_enemy(it);
    for (const Item& it : players_) read_player(it);
    for (const Item& it : encounters_) read_encounter(it);
    read_pack();
    check_on_attacked_frames();
    // Upgraded cards take ids after every card of the pack.
    for (auto& [base, plus] : upgrades_) {
      if (!base || c_->cards.size() >= 0xFFFE) continue;
      c_->cards[*base].upgrade = static_cast<std::uint16_t>(c_->cards.size());
      c_->cards.push_back(std::move(plus));
    }

    index_catalog(*c_);
    if (!diags_.empty()) return nullptr;
    c_->content_hash = content::canonical_content_hash(docs_);
    return catalog;
  }

 private:
  /// An on_attacked behaviour runs inside the attack that sets it off: the effect frames the
  /// attack's lists hold and those of the behaviour's lists are in use at once. Each behaviour
  /// whose frames, with those of the pack's deepest attack, are more than a battle holds is
  /// reported at its key, naming that attack (which of the statuses the attack can meet is a
  /// matter of play, not of content).
  void check_on_attacked_frames() {
    const FrameUse& attack = deepest_attack_;
    for (const FrameUse& behaviour : on_attacked_) {
      if (attack.frames + behaviour.frames <= kMaxEffectDepth) continue;
      const auto [line, column] = attack.doc->locate(attack.pointer);
      diags_.add(behaviour.doc->diagnostic(
          behaviour.pointer,
          "expected effect lists needing at most " + std::to_string(kMaxEffectDepth - attack.frames) +
              " effect frames (one a list in progress, none for a list without nested lists), got lists "
              "nested " +
              std::to_string(behaviour.frames) +
              " deep: an on_attacked behaviour runs inside the attack that sets it off, and the attack at " +
              attack.doc->file + ":" + std::to_string(line) + ":" + std::to_string(column) + " " +
              attack.pointer + " holds " + std::to_string(attack.frames) + " of the " +
              std::to_string(kMaxEffectDepth) + " a battle has"));
    }
  }

  // --- pass 1 -----------------------------------------------------------------------------

  void collect_sections() {
    for (const JsonDocument& doc : docs_) {
      ObjectReader top(doc, doc.root, "", diags_);
      if (!top.valid()) continue;
      for (std::string_view section : kContentSections) {
        if (section == "pack") {
          if (const json* p = top.optional_object("pack")) {
            if (pack_) {
              top.error_at("pack", "a second 'pack' object; the first is in " + pack_->doc->file);
            } else {
              pack_ = Item{&doc, p, top.pointer_of("pack")};
            }
          }
          continue;
        }
        const json* arr = top.optional_array(section);
        if (!arr) continue;
        std::vector<Item>& into = section_items(section);
        for (std::size_t i = 0; i < arr->size(); ++i)
          into.push_back(Item{&doc, &(*arr)[i], content::child_pointer(top.pointer_of(section), i)});
      }
      top.finish();
    }
  }

  std::vector<Item>& section_items(std::string_view section) {
    if (section == "cards") return cards_;
    if (section == "statuses") return statuses_;
    if (section == "enemies") return enemies_;
    if (section == "players") return players_;
    if (section == "hooks") return hooks_;
    if (section == "reward_pools") return reward_pools_;
    return encounters_;
  }

  // --- pass 2 -----------------------------------------------------------------------------

  /// Reads the common "id" and "name"; returns the item's dense index or nothing.
  std::optional<std::uint16_t> read_id(ObjectReader& r, const IdMap& ids, std::string& id,
                                       std::string& name) {
    const auto s = r.required_id("id");
    name = r.optional_name("name").value_or("");
    if (!s) return std::nullopt;
    id = *s;
    if (name.empty()) name = id;
    const auto it = ids.find(*s);
    return it == ids.end() ? std::nullopt : std::optional<std::uint16_t>(it->second);
  }

  /// Resolves a reference to an id of `kind`; reports a dangling one at `pointer`.
  std::optional<std::uint16_t> resolve(const ObjectReader& r, const std::string& pointer, const IdMap& ids,
                                       std::string_view kind, const std::string& id) {
    const auto it = ids.find(id);
    if (it != ids.end()) return it->second;
    if (!all_read_) return std::nullopt;
    diags_.add(r.document().diagnostic(pointer, "unknown " + std::string(kind) + " '" + id +
                                                    "'; expected the id of " + content::with_article(kind) +
                                                    " defined in the pack"));
    return std::nullopt;
  }

  /// Reads the array `arr` at `key` of ids of `kind`, resolving each into `out`; a non-string
  /// or a dangling id is reported at its own pointer.
  void read_id_list(const ObjectReader& r, std::string_view key, const json& arr, const IdMap& ids,
                    std::string_view kind, std::vector<std::uint16_t>& out) {
    const bool vowel = std::string_view("aeiou").find(kind.front()) != std::string_view::npos;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string p = content::child_pointer(r.pointer_of(key), i);
      const json& v = arr[i];
      if (!v.is_string()) {
        diags_.add(r.document().diagnostic(p, std::string("expected ") + (vowel ? "an " : "a ") +
                                                  std::string(kind) + " id (a string), got " +
                                                  content::describe_json_type(v)));
        continue;
      }
      if (const auto id = resolve(r, p, ids, kind, v.get<std::string>())) out.push_back(*id);
    }
  }

  /// The compiler the op read by `op` uses for nested lists, conditions and ids; a block past
  /// kMaxBlocks is reported at the op.
  detail::OpCompiler compiler(detail::EffectOwner owner, bool* uses_chosen, ObjectReader& op) {
    return detail::OpCompiler{
        status_ids_,
        card_ids_,
        hook_ids_,
        all_read_,
        owner,
        uses_chosen,
        [this](ObjectReader& r, std::string_view key, detail::EffectOwner o, bool* chosen, bool required) {
          return compile_effects(r, key, o, chosen, required);
        },
        [this, &op](OpRange range, std::string label) {
          const std::uint16_t index = next_index(c_->blocks.size(), kMaxBlocks, op, "nested effect lists");
          c_->blocks.push_back(range);
          c_->block_labels.push_back(std::move(label));
          return index;
        },
        [this](ObjectReader& r, std::string_view key) { return read_condition(r, key); },
        [this](const CountedAmount& a) {
          c_->counted_amounts.push_back(a);
          return static_cast<std::int32_t>(c_->counted_amounts.size() - 1);
        }};
  }

  /// The index of the entry about to be added to a table an op names in 16 bits (Catalog::blocks,
  /// Catalog::conditions); the first entry past `limit` is reported at `r`'s object.
  static std::uint16_t next_index(std::size_t size, std::size_t limit, ObjectReader& r,
                                  std::string_view what) {
    if (size == limit) r.error(content::too_many(limit, what));
    // Past the limit the index wraps, but the load has failed: no catalog holds it.
    return static_cast<std::uint16_t>(size);
  }

  /// Compiles the effect list at `key`: every op of the list is compiled first (nested lists
  /// land in Catalog::ops as they are met), then the list itself is appended as one run.
  /// A list nested more than kMaxEffectDepth deep (counting the list an owner runs as the first)
  /// is refused at its key: running it would take more effect frames than a battle holds.
  /// Notes the attack holding the most frames (check_on_attacked_frames).
  std::optional<OpRange> compile_effects(ObjectReader& parent, std::string_view key,
                                         detail::EffectOwner owner, bool* uses_chosen, bool required) {
    const json* arr = required ? parent.required_array(key) : parent.optional_array(key);
    if (!arr) return std::nullopt;
    if (effect_nesting_ == kMaxEffectDepth) {
      parent.error_at(key,
                      "expected effect lists nested at most " + std::to_string(kMaxEffectDepth) +
                          " deep (the list an owner runs, and the lists inside it); this one is at depth " +
                          std::to_string(kMaxEffectDepth + 1));
      return std::nullopt;
    }
    const bool outermost = effect_nesting_ == 0;
    if (outermost) {
      deepest_nesting_ = 0;
      list_attack_ = {};
    }
    ++effect_nesting_;
    deepest_nesting_ = std::max(deepest_nesting_, effect_nesting_);
    const struct Leave {
      std::size_t& nesting;
      ~Leave() { --nesting; }
    } leave{effect_nesting_};
    const std::size_t errors_before = diags_.size();
    std::vector<Op> list;
    bool flat = true;
    for (std::size_t i = 0; i < arr->size(); ++i) {
      ObjectReader r(parent.document(), (*arr)[i], content::child_pointer(parent.pointer_of(key), i), diags_);
      if (!r.valid()) continue;
      const auto name = r.required_string("op");
      if (!name) continue;
      const detail::OpSpec* spec = ops_.find(*name);
      if (spec == nullptr) {
        r.error_at("op", "unknown op '" + *name + "'; expected one of: " + ops_.names());
        continue;
      }
      Op op;
      op.code = ops_.code_of(*name);
      op.target = OpTarget::Self;
      if (spec->nests) op.flags = kNests;
      if (spec->compile(compiler(owner, uses_chosen, r), r, op)) list.push_back(op);
      flat = flat && (op.flags & kNests) == 0;
      // A status's own hits set off no on_attacked behaviour (mechanics: reactive damage).
      if (spec->attacks && owner != detail::EffectOwner::Status && effect_nesting_ > list_attack_.frames)
        list_attack_ = {effect_nesting_, &r.document(), r.pointer()};
      r.finish();
    }
    OpRange range{static_cast<std::uint32_t>(c_->ops.size()),
                  static_cast<std::uint32_t>(c_->ops.size() + list.size()),
                  flat && list.size() <= detail::kMaxOpsPerEffect};
    c_->ops.insert(c_->ops.end(), list.begin(), list.end());
    if (outermost) {
      if (range.flat) list_attack_.frames = 0;  // a flat list runs without the effect stack
      if (list_attack_.frames > deepest_attack_.frames) deepest_attack_ = list_attack_;
    }
    if (diags_.size() != errors_before) return std::nullopt;
    return range;
  }

  /// Compiles a required effect list; an empty range when it is invalid (reported).
  OpRange read_effects(ObjectReader& parent, std::string_view key, detail::EffectOwner owner,
                       bool* uses_chosen) {
    return compile_effects(parent, key, owner, uses_chosen, true).value_or(OpRange{});
  }

  /// A condition object at `key`; its index in Catalog::conditions.
  std::optional<std::uint16_t> read_condition(ObjectReader& parent, std::string_view key) {
    const json* v = parent.optional_value(key);
    if (v == nullptr) {
      parent.error("missing required key '" + std::string(key) + "' (a condition object)");
      return std::nullopt;
    }
    ObjectReader r(parent.document(), *v, parent.pointer_of(key), diags_);
    if (!r.valid()) return std::nullopt;
    const auto kind = r.required_enum("kind", kConditionKinds);
    Condition c;
    if (kind) c.kind = static_cast<ConditionKind>(*kind);
    bool ok = kind.has_value();
    if (kind) switch (c.kind) {
        case ConditionKind::TargetHasStatus: {
          const auto st = r.required_string("status");
          c.amount = static_cast<std::int32_t>(r.int_or("at_least", 1, 1, 999));
          if (st) {
            if (auto id = resolve(r, r.pointer_of("status"), status_ids_, "status", *st))
              c.status = *id;
            else
              ok = false;
          } else {
            ok = false;
          }
          break;
        }
        case ConditionKind::SelfHpBelowPercent:
          if (auto pct = r.required_int("percent", 1, 100))
            c.amount = static_cast<std::int32_t>(*pct);
          else
            ok = false;
          break;
        case ConditionKind::HandSizeAtLeast:
          if (auto n = r.required_int("count", 0, 12))
            c.amount = static_cast<std::int32_t>(*n);
          else
            ok = false;
          break;
        case ConditionKind::EnergyAtLeast:
          if (auto n = r.required_int("amount", 0, 99))
            c.amount = static_cast<std::int32_t>(*n);
          else
            ok = false;
          break;
        case ConditionKind::AttackedThisTurn:
          break;
      }
    r.finish();
    if (!ok) return std::nullopt;
    const std::uint16_t index = next_index(c_->conditions.size(), kMaxConditions, r, "conditions");
    c_->conditions.push_back(c);
    return index;
  }

  void read_hook(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    HookDef d;
    std::string name;
    const auto index = read_id(r, hook_ids_, d.id, name);
    const auto kind = r.required_enum("kind", kHookKinds);
    d.card_type = card_filter_of_set(r.enum_set_or("card_type", kCardTypeNames, kAnyCard).value_or(kAnyCard));
    d.duration = static_cast<std::uint8_t>(r.int_or("duration", 0, 0, 99));
    // Without a kind (reported) the keys below, and which keys are unknown, cannot be checked.
    if (!kind) return;
    d.kind = static_cast<HookKind>(*kind);
    if (d.kind == HookKind::ArmorReset) {
      d.keep_percent = static_cast<std::int32_t>(r.required_int("keep_percent", 0, 100).value_or(0));
    } else {
      r.optional_int("keep_percent", 0, 100);
      if (r.has("keep_percent")) r.error_at("keep_percent", "only an armor_reset hook keeps armor");
    }
    if (d.kind == HookKind::OnCardPlayed) {
      d.effects = read_effects(r, "effects", detail::EffectOwner::Deferred, nullptr);
    } else if (r.has("effects")) {
      r.optional_value("effects");
      r.error_at("effects", "only an on_card_played hook has effects");
    }
    r.finish();
    place(c_->hooks, index, std::move(d));
  }

  void read_reward_pool(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    RewardPool d;
    std::string name;
    const auto index = read_id(r, reward_pool_ids_, d.id, name);
    d.choices = static_cast<std::uint8_t>(r.int_or("choices", 3, 1, 5));
    if (const json* arr = r.required_array("cards")) {
      if (arr->empty()) r.error_at("cards", "expected at least one card");
      read_id_list(r, "cards", *arr, card_ids_, "card", d.cards);
    }
    r.finish();
    place(c_->reward_pools, index, std::move(d));
  }

  void read_status(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    StatusDef d;
    const auto index = read_id(r, status_ids_, d.id, d.name);
    d.kind = static_cast<StatusKind>(r.enum_or("kind", kStatusKinds, 0).value_or(0));
    d.stacking = static_cast<Stacking>(r.enum_or("stacking", kStackings, 0).value_or(0));
    d.decay = static_cast<Decay>(r.enum_or("decay", kDecays, 0).value_or(0));
    d.damage_dealt_per_stack = static_cast<std::int32_t>(r.int_or("damage_dealt_per_stack", 0, -99, 99));
    d.damage_dealt_percent = static_cast<std::int32_t>(r.int_or("damage_dealt_percent", 100, 0, 1000));
    d.damage_taken_percent = static_cast<std::int32_t>(r.int_or("damage_taken_percent", 100, 0, 1000));
    d.armor_gained_per_stack = static_cast<std::int32_t>(r.int_or("armor_gained_per_stack", 0, -99, 99));
    d.armor_gained_percent = static_cast<std::int32_t>(r.int_or("armor_gained_percent", 100, 0, 1000));
    d.skips_turn = r.bool_or("skips_turn", false);
    if (const json* timings = r.optional_object("timings")) {
      ObjectReader t(*it.doc, *timings, r.pointer_of("timings"), diags_);
      for (std::size_t k = 0; k < kTimings.size(); ++k)
        if (t.has(kTimings[k])) {
          d.timings[k] = read_effects(t, kTimings[k], detail::EffectOwner::Status, nullptr);
          // A flat behaviour runs without the effect stack; any other holds a frame a list.
          if (k == static_cast<std::size_t>(StatusTiming::OnAttacked) && !d.timings[k].flat)
            on_attacked_.push_back({deepest_nesting_, it.doc, t.pointer_of(kTimings[k])});
        } else {
          t.optional_array(kTimings[k]);
        }
      t.finish();
    }
    r.finish();
    place(c_->statuses, index, std::move(d));
  }

  /// A card's "cost": energy 0 to 9 or "x" (kXCost); `fallback` when absent (none: required).
  static std::int8_t read_cost(ObjectReader& r, std::optional<std::int8_t> fallback) {
    const json* v = r.optional_value("cost");
    if (v == nullptr) {
      if (!fallback) r.required_int("cost", 0, 9);  // reports the missing key
      return fallback.value_or(0);
    }
    if (v->is_string() && v->get_ref<const std::string&>() == "x") return kXCost;
    // An unsigned value past the signed range reads as negative: out of range all the same.
    if (v->is_number_integer() && v->get<std::int64_t>() >= 0 && v->get<std::int64_t>() <= 9)
      return static_cast<std::int8_t>(v->get<std::int64_t>());
    r.error_at("cost", "expected an integer in [0, 9] or \"x\", got " +
                           (v->is_string()   ? "'" + v->get<std::string>() + "'"
                            : v->is_number() ? v->dump()
                                             : content::describe_json_type(*v)));
    return 0;
  }

  /// Reports at `key` a card that counts its X (among the counted amounts [first, last), read
  /// from its effects) without an X cost: the count would always be 0.
  void check_x_counted(ObjectReader& r, std::string_view key, const CardDef& d, std::size_t first,
                       std::size_t last) {
    if (d.x_cost()) return;
    for (std::size_t i = first; i < last; ++i)
      if (c_->counted_amounts[i].count == AmountCount::X) {
        r.error_at(key, "card '" + d.id +
                            "' counts its X (\"count\": \"x\"), which only an X-cost card has: expected "
                            "\"cost\": \"x\"");
        return;
      }
  }

  void read_card(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    CardDef d;
    const auto index = read_id(r, card_ids_, d.id, d.name);
    d.text = r.optional_string("text").value_or("");
    d.type = static_cast<CardType>(r.required_enum("type", kCardTypeNames).value_or(0));
    d.cost = read_cost(r, std::nullopt);
    const auto target = r.required_enum("target", kCardTargets);
    d.target = static_cast<CardTarget>(target.value_or(0));
    if (const json* kw = r.optional_array("keywords")) {
      for (std::size_t i = 0; i < kw->size(); ++i) {
        const std::string p = content::child_pointer(r.pointer_of("keywords"), i);
        const json& k = (*kw)[i];
        bool found = false;
        if (k.is_string())
          for (std::size_t b = 0; b < kKeywords.size(); ++b)
            if (kKeywords[b] == k.get_ref<const std::string&>()) {
              d.keywords = static_cast<std::uint8_t>(d.keywords | (1u << b));
              found = true;
            }
        if (!found)
          diags_.add(it.doc->diagnostic(
              p, "expected a keyword (innate, retain, ethereal, exhaust, unplayable), got " +
                     (k.is_string() ? "'" + k.get<std::string>() + "'" : content::describe_json_type(k))));
      }
    }
    bool uses_chosen = false;
    const std::size_t counted_before = c_->counted_amounts.size();
    d.effects = read_effects(r, "effects", detail::EffectOwner::Card, &uses_chosen);
    const std::size_t counted_end = c_->counted_amounts.size();
    check_x_counted(r, "effects", d, counted_before, counted_end);
    if (r.has("in_hand_turn_start"))
      d.in_hand_turn_start = read_effects(r, "in_hand_turn_start", detail::EffectOwner::Deferred, nullptr);
    else
      r.optional_array("in_hand_turn_start");
    if (const json* hooks = r.optional_array("hooks")) {
      read_id_list(r, "hooks", *hooks, hook_ids_, "hook", d.hooks);
    }
    if (target && uses_chosen && d.target != CardTarget::Enemy)
      r.error_at(
          "target",
          "card '" + d.id + "' has an effect aimed at the chosen target, so it needs \"target\": \"enemy\"");
    // The upgraded version is a card of its own, "<id>+", added after every card of the pack.
    if (const json* up = r.optional_object("upgrade")) {
      ObjectReader u(*it.doc, *up, r.pointer_of("upgrade"), diags_);
      CardDef plus = d;
      plus.id = d.id + "+";
      plus.name = u.optional_name("name").value_or(d.name + "+");
      plus.text = u.optional_string("text").value_or(d.text);
      plus.cost = read_cost(u, d.cost);
      if (u.has("effects")) {
        bool plus_chosen = false;
        const std::size_t plus_counted_before = c_->counted_amounts.size();
        plus.effects = read_effects(u, "effects", detail::EffectOwner::Card, &plus_chosen);
        check_x_counted(u, "effects", plus, plus_counted_before, c_->counted_amounts.size());
        if (target && plus_chosen && plus.target != CardTarget::Enemy)
          u.error_at("effects",
                     "the upgrade aims at the chosen target, but the card has \"target\": \"none\"");
      } else {
        u.optional_array("effects");
        check_x_counted(u, "cost", plus, counted_before, counted_end);  // the card's own effects
      }
      u.finish();
      upgrades_.push_back({index, std::move(plus)});
    }
    r.finish();
    place(c_->cards, index, std::move(d));
  }

  void read_enemy(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    EnemyDef d;
    const auto index = read_id(r, enemy_ids_, d.id, d.name);
    if (const json* hp = r.optional_value("hp")) {
      if (hp->is_object()) {
        ObjectReader h(*it.doc, *hp, r.pointer_of("hp"), diags_);
        const auto min = h.required_int("min", 1, 9999);
        const auto max = h.required_int("max", 1, 9999);
        d.hp_min = static_cast<std::int32_t>(min.value_or(1));
        d.hp_max = static_cast<std::int32_t>(max.value_or(1));
        if (min && max && d.hp_max < d.hp_min)
          h.error_at("max", "expected max >= min (" + std::to_string(d.hp_min) + ")");
        h.finish();
      } else {
        d.hp_min = d.hp_max = static_cast<std::int32_t>(r.required_int("hp", 1, 9999).value_or(1));
      }
    } else {
      r.error("missing required key 'hp' (an integer in [1, 9999] or {\"min\": .., \"max\": ..})");
    }
    // Moves: local ids, referenced by the behaviour.
    IdMap move_ids;
    if (const json* moves = r.required_array("moves")) {
      if (moves->empty()) r.error_at("moves", "expected at least one move");
      for (std::size_t i = 0; i < moves->size(); ++i) {
        ObjectReader m(*it.doc, (*moves)[i], content::child_pointer(r.pointer_of("moves"), i), diags_);
        if (!m.valid()) continue;
        MoveDef move;
        // A move id follows the id rules; a bad one is still known, so references to it are no
        // problem of their own.
        const auto id = m.required_string("id");
        if (id && !content::valid_id(*id))
          m.error_at("id", "expected an id of 1 to 64 characters a-z, 0-9, '_' or '-', got '" + *id + "'");
        move.name = m.optional_name("name").value_or(id.value_or(""));
        move.intent = static_cast<Intent>(m.required_enum("intent", kIntents).value_or(7));
        move.effects = read_effects(m, "effects", detail::EffectOwner::Move, nullptr);
        if (id) {
          move.id = *id;
          if (!move_ids.emplace(*id, static_cast<std::uint16_t>(d.moves.size())).second)
            m.error_at("id", "duplicate move id '" + *id + "' in enemy '" + d.id + "'");
        }
        m.finish();
        d.moves.push_back(std::move(move));
      }
      if (moves->size() > 32) r.error_at("moves", "expected at most 32 moves");  // counted as listed
    }
    read_behavior(r, d, move_ids);
    if (const json* sts = r.optional_array("statuses")) {
      for (std::size_t i = 0; i < sts->size(); ++i) {
        ObjectReader st(*it.doc, (*sts)[i], content::child_pointer(r.pointer_of("statuses"), i), diags_);
        if (!st.valid()) continue;
        const auto sid = st.required_string("status");
        const auto amount = st.required_int("amount", 1, 999);
        if (sid && amount)
          if (const auto id = resolve(st, st.pointer_of("status"), status_ids_, "status", *sid))
            d.statuses.emplace_back(*id, static_cast<std::int32_t>(*amount));
        st.finish();
      }
      // Counted as listed, so that the count is reported with the entries' own problems.
      if (sts->size() > kMaxStatusSlots)
        r.error_at("statuses", "expected at most " + std::to_string(kMaxStatusSlots) + " statuses");
    }
    r.finish();
    place(c_->enemies, index, std::move(d));
  }

  std::optional<MoveIndex> move_ref(ObjectReader& r, std::string_view key, const IdMap& move_ids,
                                    const std::string& enemy) {
    const auto id = r.required_string(key);
    if (!id) return std::nullopt;
    const auto f = move_ids.find(*id);
    if (f == move_ids.end()) {
      r.error_at(key, "unknown move '" + *id + "'; expected a move id of enemy '" + enemy + "'");
      return std::nullopt;
    }
    return static_cast<MoveIndex>(f->second);
  }

  void read_behavior(ObjectReader& parent, EnemyDef& d, const IdMap& move_ids) {
    const json* b = parent.optional_value("behavior");
    if (b == nullptr) {
      parent.error(
          "missing required key 'behavior' (an object with \"kind\": random, sequence or conditional)");
      return;
    }
    read_behavior_object(parent.document(), *b, parent.pointer_of("behavior"), d, move_ids, true);
  }

  /// A behaviour object; a conditional one holds rules and an `otherwise` behaviour.
  void read_behavior_object(const JsonDocument& doc, const json& value, const std::string& pointer,
                            EnemyDef& d, const IdMap& move_ids, bool allow_conditional) {
    ObjectReader r(doc, value, pointer, diags_);
    if (!r.valid()) return;
    const auto kind =
        allow_conditional ? r.required_enum("kind", kBehaviorsAll) : r.required_enum("kind", kBehaviors);
    // Without a kind (reported) the other keys, and which keys are unknown, cannot be checked.
    if (!kind) return;
    if (*kind == 2) {
      if (const json* rules = r.required_array("rules")) {
        if (rules->empty() || rules->size() > 8) r.error_at("rules", "expected 1 to 8 rules");
        // Rules past the eighth are read too, so that their own problems are listed with the count.
        for (std::size_t i = 0; i < rules->size(); ++i) {
          ObjectReader rr(doc, (*rules)[i], content::child_pointer(r.pointer_of("rules"), i), diags_);
          if (!rr.valid()) continue;
          BehaviorRule rule;
          const auto cond = read_condition(rr, "if");
          const auto move = move_ref(rr, "move", move_ids, d.id);
          rule.once = rr.bool_or("once", false);
          rr.finish();
          if (cond && move && i < 8) {
            rule.condition = c_->conditions[*cond];
            rule.move = *move;
            d.rules.push_back(rule);
          }
        }
      }
      if (r.has("first"))
        d.first_move = move_ref(r, "first", move_ids, d.id);
      else
        r.optional_string("first");
      if (const json* otherwise = r.optional_value("otherwise"))
        read_behavior_object(doc, *otherwise, r.pointer_of("otherwise"), d, move_ids, false);
      else
        r.error("missing required key 'otherwise' (a random or sequence behaviour)");
      r.finish();
      return;
    }
    d.behavior = static_cast<BehaviorKind>(*kind);
    if (r.has("first"))
      d.first_move = move_ref(r, "first", move_ids, d.id);
    else
      r.optional_string("first");
    if (d.behavior == BehaviorKind::Random) {
      if (const json* arr = r.required_array("moves")) {
        if (arr->empty()) r.error_at("moves", "expected at least one weighted move");
        for (std::size_t i = 0; i < arr->size(); ++i) {
          ObjectReader w(r.document(), (*arr)[i], content::child_pointer(r.pointer_of("moves"), i), diags_);
          if (!w.valid()) continue;
          WeightedMove wm;
          const auto m = move_ref(w, "move", move_ids, d.id);
          wm.weight = static_cast<std::uint16_t>(w.int_or("weight", 1, 1, 1000));
          wm.max_in_a_row = static_cast<std::uint8_t>(w.int_or("max_in_a_row", 0, 0, 99));
          w.finish();
          if (m) {
            wm.move = *m;
            d.weighted.push_back(wm);
          }
        }
      }
    } else {
      if (const json* arr = r.required_array("moves")) {
        if (arr->empty()) r.error_at("moves", "expected at least one move in the sequence");
        for (std::size_t i = 0; i < arr->size(); ++i) {
          const std::string p = content::child_pointer(r.pointer_of("moves"), i);
          const json& v = (*arr)[i];
          if (!v.is_string()) {
            diags_.add(r.document().diagnostic(
                p, "expected a move id (a string), got " + content::describe_json_type(v)));
            continue;
          }
          const auto f = move_ids.find(v.get_ref<const std::string&>());
          if (f == move_ids.end()) {
            diags_.add(r.document().diagnostic(p, "unknown move '" + v.get<std::string>() +
                                                      "'; expected a move id of enemy '" + d.id + "'"));
            continue;
          }
          d.sequence.push_back(static_cast<MoveIndex>(f->second));
        }
        d.loop_from = static_cast<std::uint8_t>(r.int_or("loop_from", 0, 0, 31));
        if (!d.sequence.empty() && d.loop_from >= d.sequence.size())
          r.error_at("loop_from",
                     "expected an index into the sequence (below " + std::to_string(d.sequence.size()) + ")");
      }
    }
    r.finish();
  }

  void read_player(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    PlayerUnitDef d;
    const auto index = read_id(r, player_ids_, d.id, d.name);
    const auto max_hp = r.required_int("max_hp", 1, 9999);
    d.max_hp = static_cast<std::int32_t>(max_hp.value_or(1));
    d.hp = static_cast<std::int32_t>(r.int_or("hp", d.max_hp, 1, 9999));
    // A bad max_hp (reported) gives no bound to check hp against.
    if (max_hp && d.hp > d.max_hp)
      r.error_at("hp",
                 "expected hp <= max_hp (" + std::to_string(d.max_hp) + "), got " + std::to_string(d.hp));
    if (const json* deck = r.required_array("deck")) {
      // Cards are counted as listed, so that an entry with a problem of its own (reported) neither
      // empties the deck nor hides that it holds too many.
      std::int64_t listed = 0;
      for (std::size_t i = 0; i < deck->size(); ++i) {
        ObjectReader e(*it.doc, (*deck)[i], content::child_pointer(r.pointer_of("deck"), i), diags_);
        if (!e.valid()) continue;
        const auto card = e.required_string("card");
        const auto count = e.int_or("count", 1, 1, kMaxCardsPerDeck);
        listed += count;
        if (card)
          if (const auto id = resolve(e, e.pointer_of("card"), card_ids_, "card", *card))
            for (std::int64_t k = 0; k < count; ++k) d.deck.push_back(*id);
        e.finish();
      }
      if (deck->empty()) r.error_at("deck", "expected at least one card in the deck");
      if (listed > kMaxCardsPerDeck)
        r.error_at("deck", "expected at most " + std::to_string(kMaxCardsPerDeck) + " cards, got " +
                               std::to_string(listed));
    }
    r.finish();
    place(c_->players, index, std::move(d));
  }

  void read_encounter(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    if (!r.valid()) return;
    EncounterDef d;
    const auto index = read_id(r, encounter_ids_, d.id, d.name);
    d.kind = static_cast<EncounterKind>(r.enum_or("kind", kEncounterKinds, 0).value_or(0));
    if (const auto pool = r.optional_string("reward"))
      d.reward = resolve(r, r.pointer_of("reward"), reward_pool_ids_, "reward pool", *pool);
    if (const auto p = r.required_string("player"))
      d.player = resolve(r, r.pointer_of("player"), player_ids_, "player", *p).value_or(0);
    if (const json* arr = r.required_array("enemies")) {
      if (arr->empty() || arr->size() > kMaxEnemiesPerEncounter)
        r.error_at("enemies", "expected 1 to " + std::to_string(kMaxEnemiesPerEncounter) + " enemies, got " +
                                  std::to_string(arr->size()));
      read_id_list(r, "enemies", *arr, enemy_ids_, "enemy", d.enemies);
    }
    if (const json* rules = r.optional_object("rules")) {
      ObjectReader b(*it.doc, *rules, r.pointer_of("rules"), diags_);
      BattleRules& rr = d.rules;
      rr.armor_decay = static_cast<ArmorDecayRule>(b.enum_or("armor_decay", kArmorDecay, 0).value_or(0));
      rr.max_energy = static_cast<std::uint8_t>(b.int_or("max_energy", rr.max_energy, 0, 20));
      rr.hand_limit = static_cast<std::uint8_t>(b.int_or("hand_limit", rr.hand_limit, 1, kMaxHandLimit));
      rr.draw_per_turn =
          static_cast<std::uint8_t>(b.int_or("draw_per_turn", rr.draw_per_turn, 0, kMaxHandLimit));
      rr.opening_hand =
          static_cast<std::uint8_t>(b.int_or("opening_hand", rr.draw_per_turn, 0, kMaxHandLimit));
      rr.turn_limit = static_cast<std::uint16_t>(b.int_or("turn_limit", rr.turn_limit, 1, 1000));
      b.finish();
    }
    r.finish();
    place(c_->encounters, index, std::move(d));
  }

  void read_pack() {
    if (!pack_) return;
    ObjectReader r(*pack_->doc, *pack_->value, pack_->pointer, diags_);
    c_->pack.id = r.required_id("id").value_or("");
    c_->pack.name = r.optional_name("name").value_or(c_->pack.id);
    (void)r.optional_string("rules");  // another rule set's name was refused before anything was read
    if (const auto enc = r.optional_string("default_encounter"))
      c_->pack.default_encounter =
          resolve(r, r.pointer_of("default_encounter"), encounter_ids_, "encounter", *enc);
    r.finish();
  }

  template <class T>
  void place(std::vector<T>& into, std::optional<std::uint16_t> index, T value) {
    if (!index) return;
    if (into.size() <= *index) into.resize(*index + 1u);
    into[*index] = std::move(value);
  }

  // The pack-wide limits are in load.hpp.
  static constexpr std::int64_t kMaxCardsPerDeck = 64;
  static constexpr std::size_t kMaxEnemiesPerEncounter = 5;
  static constexpr std::int64_t kMaxHandLimit = 12;

  const std::vector<JsonDocument>& docs_;
  Diagnostics& diags_;
  bool all_read_;
  detail::OpRegistry ops_;
  Catalog* c_ = nullptr;
  std::size_t effect_nesting_ = 0;  ///< the effect lists compile_effects is in
  /// Where an attack or an on_attacked behaviour stands, and the effect frames it holds while it
  /// runs: an attack the lists it is in, a behaviour its own lists (none for a flat one).
  struct FrameUse {
    std::size_t frames = 0;
    const JsonDocument* doc = nullptr;
    std::string pointer;
  };
  std::size_t deepest_nesting_ = 0;    ///< the deepest list of the outermost list being compiled
  FrameUse list_attack_;               ///< the deepest attack of the outermost list being compiled
  FrameUse deepest_attack_;            ///< the pack's attack holding the most frames
  std::vector<FrameUse> on_attacked_;  ///< the statuses' on_attacked behaviours that nest
  std::optional<Item> pack_;
  std::vector<std::pair<std::optional<std::uint16_t>, CardDef>> upgrades_;
  std::vector<Item> cards_, statuses_, enemies_, players_, encounters_, hooks_, reward_pools_;
  IdMap card_ids_, status_ids_, enemy_ids_, player_ids_, encounter_ids_, hook_ids_, reward_pool_ids_;
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

}  // namespace battlecore::deckbuilder
