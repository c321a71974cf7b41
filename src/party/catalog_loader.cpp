// Party content loading. Pass 1 collects every id of every kind (so references can point
// anywhere in the pack, in any file); pass 2 reads each item strictly and resolves its
// references; the catalog is frozen only when no problem was found.

#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/load.hpp"

namespace battlecore::party {
namespace {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;
using IdMap = content::IdIndex;

constexpr std::array<std::string_view, kConditionEffectCount> kEffects = {
    "freeze",     "poison",       "numb",    "sleep",      "attack_up", "attack_down",
    "defense_up", "defense_down", "flipped", "shield",     "taunted",   "sturdy",
    "fire",       "inked",        "sticky",  "gradual_hp", "gradual_tp"};
constexpr std::array<std::string_view, 8> kOps = {"damage",  "heal", "restore_tp", "apply",
                                                  "inflict", "cure", "charge",     "projectile"};
constexpr std::array<std::string_view, 5> kTargets = {"enemy", "all_enemies", "ally", "self", "party"};
constexpr std::array<std::string_view, 4> kMoveTargets = {"member", "all_members", "self", "ally_lowest"};
constexpr std::array<std::string_view, 2> kReach = {"ground", "any"};
constexpr std::array<std::string_view, 2> kPositions = {"ground", "flying"};
constexpr std::array<std::string_view, 2> kBehaviors = {"random", "sequence"};
constexpr std::array<std::string_view, 2> kCostIn = {"tp", "hp"};
constexpr std::array<std::string_view, 3> kAdvantages = {"none", "party", "enemy"};

using Item = content::SectionItem;

/// Who owns an effect list: what its ops may do.
enum class Owner : std::uint8_t { Player, Enemy };

class Loader {
 public:
  /// `all_read`: every file of the pack is among `docs`; otherwise an id no document defines, or
  /// the 'pack' object, may be in the file that could not be read, and is not reported missing.
  Loader(const std::vector<JsonDocument>& docs, Diagnostics& diags, bool all_read = true)
      : docs_(docs), diags_(diags), all_read_(all_read) {}

  std::shared_ptr<const Catalog> run() {
    if (content::foreign_rule_set(docs_, "party", diags_)) return nullptr;
    collect_sections();
    static constexpr std::array<std::string_view, 9> kinds = {
        "condition", "skill", "item", "member", "companion", "ally", "enemy", "party", "encounter"};
    for (std::size_t k = 0; k < kinds.size(); ++k)
      content::collect_ids(kinds[k], items_[k], k == kCondition ? kMaxPackConditions : kMaxIdsPerKind,
                           ids_[k], diags_);
    auto catalog = std::make_shared<Catalog>();
    c_ = catalog.get();
    for (const Item& it : items_[0]) read_condition(it);
    for (const Item& it : items_[1]) read_skill(it);
    for (const Item& it : items_[2]) read_item(it);
    for (const Item& it : items_[3]) read_member(it);
    for (const Item& it : items_[4]) read_companion(it);
    for (const Item& it : items_[5]) read_ally(it);
    for (const Item& it : items_[6]) read_enemy(it);
    for (const Item& it : items_[7]) read_party(it);
    for (const Item& it : items_[8]) read_encounter(it);
    read_pack();
    if (!diags_.empty()) return nullptr;
    c_->content_hash = content::canonical_content_hash(docs_);
    return catalog;
  }

 private:
  enum Kind : std::size_t {
    kCondition,
    kSkill,
    kItem,
    kMember,
    kCompanion,
    kAlly,
    kEnemy,
    kParty,
    kEncounter
  };

  // --- pass 1 -----------------------------------------------------------------------------

  void collect_sections() {
    for (const JsonDocument& doc : docs_) {
      ObjectReader top(doc, doc.root, "", diags_);
      if (!top.valid()) continue;
      for (std::size_t s = 0; s < kContentSections.size(); ++s) {
        const std::string_view section = kContentSections[s];
        if (section == "pack") {
          if (const json* p = top.optional_object("pack")) {
            if (pack_)
              top.error_at("pack", "a second 'pack' object; the first is in " + pack_->doc->file);
            else
              pack_ = Item{&doc, p, top.pointer_of("pack")};
          }
          continue;
        }
        const json* arr = top.optional_array(section);
        if (!arr) continue;
        for (std::size_t i = 0; i < arr->size(); ++i)
          items_[s - 1].push_back(Item{&doc, &(*arr)[i], content::child_pointer(top.pointer_of(section), i)});
      }
      top.finish();
    }
  }

  // --- pass 2 helpers ---------------------------------------------------------------------

  /// Reads "id" and "name"; the dense index, or nothing.
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

  std::optional<std::uint16_t> resolve(const JsonDocument& doc, const std::string& pointer, Kind kind,
                                       std::string_view kind_name, const json& value) {
    if (!value.is_string()) {
      diags_.add(doc.diagnostic(pointer, "expected the id of " + content::with_article(kind_name) +
                                             " (a string), got " + content::describe_json_type(value)));
      return std::nullopt;
    }
    const auto& id = value.get_ref<const std::string&>();
    const auto it = ids_[kind].find(id);
    if (it != ids_[kind].end()) return it->second;
    if (!all_read_) return std::nullopt;
    diags_.add(doc.diagnostic(pointer, "unknown " + std::string(kind_name) + " '" + id +
                                           "'; expected the id of " + content::with_article(kind_name) +
                                           " defined in the pack"));
    return std::nullopt;
  }

  /// The ids of `kind` in the array `arr` at `pointer`, resolved in order. An id listed again is
  /// reported at its entry ("KIND 'x' appears twice in WHERE; expected each KIND once") and left out.
  std::vector<std::uint16_t> resolve_distinct(const JsonDocument& doc, const std::string& pointer,
                                              const json& arr, Kind kind, std::string_view kind_name,
                                              std::string_view where) {
    std::vector<std::uint16_t> ids;
    std::set<std::uint16_t> seen;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string at = content::child_pointer(pointer, i);
      const auto id = resolve(doc, at, kind, kind_name, arr[i]);
      if (!id) continue;
      if (!seen.insert(*id).second) {
        diags_.add(doc.diagnostic(at, fmt::format("{} '{}' appears twice in {}; expected each {} once",
                                                  kind_name, arr[i].get<std::string>(), where, kind_name)));
        continue;
      }
      ids.push_back(*id);
    }
    return ids;
  }

  /// A condition id at `key` of `r` (required or optional).
  std::optional<ConditionId> condition_at(ObjectReader& r, std::string_view key, bool required) {
    const json* v = r.optional_value(key);
    if (v == nullptr) {
      if (required) r.error("missing key '" + std::string(key) + "' (a condition id)");
      return std::nullopt;
    }
    const auto id = resolve(r.document(), r.pointer_of(key), kCondition, "condition", *v);
    return id ? std::optional<ConditionId>(static_cast<ConditionId>(*id)) : std::nullopt;
  }

  /// Resistances: {"condition id": percent}.
  std::vector<std::uint8_t> read_resist(ObjectReader& r) {
    std::vector<std::uint8_t> out(ids_[kCondition].size(), 0);
    const json* obj = r.optional_object("resist");
    if (obj == nullptr) return out;
    ObjectReader rr(r.document(), *obj, r.pointer_of("resist"), diags_);
    for (const std::string& key : rr.keys_in_text_order()) {
      const auto cond = resolve(r.document(), rr.pointer_of(key), kCondition, "condition", json(key));
      const auto pct = rr.required_int(key, 0, 100);
      if (cond && pct) out[*cond] = static_cast<std::uint8_t>(*pct);
    }
    rr.finish();
    return out;
  }

  std::vector<Op> read_ops(ObjectReader& r, std::string_view key, Owner owner, bool required) {
    std::vector<Op> ops;
    const json* arr = required ? r.required_array(key) : r.optional_array(key);
    if (arr == nullptr) return ops;
    if (arr->empty()) r.error_at(key, "expected at least one effect");
    for (std::size_t i = 0; i < arr->size(); ++i) {
      ObjectReader o(r.document(), (*arr)[i], content::child_pointer(r.pointer_of(key), i), diags_);
      if (!o.valid()) continue;
      const auto kind = o.required_enum("op", kOps);
      // Without a known op (reported) its other keys, and which keys are unknown, cannot be checked.
      if (!kind) continue;
      Op op;
      op.kind = static_cast<OpKind>(*kind);
      switch (op.kind) {
        case OpKind::Damage:
          op.amount = static_cast<std::int32_t>(o.required_int("amount", 0, 99).value_or(0));
          op.hits = static_cast<std::uint8_t>(o.int_or("hits", 1, 1, 9));
          op.pierce = o.bool_or("pierce", false);
          if (const auto c = condition_at(o, "inflict", false)) op.condition = *c;
          op.turns = static_cast<std::int32_t>(o.int_or("turns", 0, 0, 9));
          if (o.has("turns") && !o.has("inflict"))
            o.error_at("turns",
                       "'turns' is how long the hit's 'inflict' condition lasts; expected an 'inflict' key "
                       "with it, or no 'turns'");
          break;
        case OpKind::Heal:
        case OpKind::RestoreTp:
        case OpKind::Charge:
          op.amount = static_cast<std::int32_t>(o.required_int("amount", 1, 99).value_or(0));
          break;
        case OpKind::Apply:
        case OpKind::Inflict:
          if (const auto c = condition_at(o, "condition", true)) op.condition = *c;
          op.turns = static_cast<std::int32_t>(o.int_or("turns", 0, 0, 9));
          break;
        case OpKind::Cure:
          break;
        case OpKind::Projectile:
          op.amount = static_cast<std::int32_t>(o.required_int("amount", 1, 99).value_or(0));
          op.turns = static_cast<std::int32_t>(o.required_int("turns", 1, 9).value_or(1));
          if (owner != Owner::Enemy) o.error_at("op", "'projectile' is for enemy actions only");
          break;
      }
      if (owner == Owner::Enemy && op.kind == OpKind::RestoreTp)
        o.error_at("op", "'restore_tp' fills the party's TP; enemies have none");
      o.finish();
      ops.push_back(op);
    }
    return ops;
  }

  // --- pass 2 -----------------------------------------------------------------------------

  void read_condition(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    ConditionDef d;
    read_id(r, ids_[kCondition], d.id, d.name);
    if (const auto e = r.required_enum("effect", kEffects)) d.effect = static_cast<ConditionEffect>(*e);
    d.amount = static_cast<std::int32_t>(
        r.int_or("amount",
                 d.effect == ConditionEffect::Sturdy                                                ? 3
                 : d.effect == ConditionEffect::GradualHp || d.effect == ConditionEffect::GradualTp ? 2
                                                                                                    : 1,
                 0, 99));
    d.turns = static_cast<std::int32_t>(r.required_int("turns", 1, 99).value_or(1));
    if (const json* exp = r.optional_object("on_expire")) {
      ObjectReader e(*it.doc, *exp, r.pointer_of("on_expire"), diags_);
      if (const auto c = condition_at(e, "condition", true)) d.on_expire = *c;
      d.on_expire_turns = static_cast<std::int32_t>(e.required_int("turns", 1, 99).value_or(1));
      e.finish();
    }
    r.finish();
    c_->conditions.push_back(std::move(d));
  }

  void read_skill(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    SkillDef d;
    read_id(r, ids_[kSkill], d.id, d.name);
    d.cost = static_cast<std::int32_t>(r.required_int("cost", 0, 99).value_or(0));
    if (const auto in = r.enum_or("cost_in", kCostIn, 0)) d.cost_in_hp = *in == 1;
    if (const auto t = r.required_enum("target", kTargets)) d.target = static_cast<TargetKind>(*t);
    if (const auto reach = r.enum_or("reach", kReach, 1)) d.reach = static_cast<Reach>(*reach);
    d.tires = r.bool_or("tires", true);
    d.effects = read_ops(r, "effects", Owner::Player, true);
    refuse_hits_on_party(r, d.target, d.effects);
    r.finish();
    c_->skills.push_back(std::move(d));
  }

  void read_item(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    ItemDef d;
    read_id(r, ids_[kItem], d.id, d.name);
    if (const auto t = r.required_enum("target", kTargets)) d.target = static_cast<TargetKind>(*t);
    d.effects = read_ops(r, "effects", Owner::Player, true);
    refuse_hits_on_party(r, d.target, d.effects);
    r.finish();
    c_->items.push_back(std::move(d));
  }

  // A hit never lands on its own side (BF: Damage pipeline/DoDamage: attacker and target are always of
  // opposite parties): a skill's or an item's damage and inflict ops need enemy targets, as an enemy
  // action's need member targets.
  void refuse_hits_on_party(ObjectReader& r, TargetKind target, const std::vector<Op>& ops) {
    if (target == TargetKind::Enemy || target == TargetKind::AllEnemies) return;
    if (std::ranges::any_of(
            ops, [](const Op& op) { return op.kind == OpKind::Damage || op.kind == OpKind::Inflict; }))
      r.error_at("effects",
                 "damage and inflict need an 'enemy' or 'all_enemies' target: a hit never lands on the "
                 "user's own party");
  }

  void read_member(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    MemberDef d;
    read_id(r, ids_[kMember], d.id, d.name);
    d.hp = static_cast<std::int32_t>(r.required_int("hp", 1, 99).value_or(1));
    d.attack = static_cast<std::int32_t>(r.required_int("attack", 0, 99).value_or(1));
    d.defense = static_cast<std::int32_t>(r.int_or("defense", 0, 0, 99));
    if (const auto reach = r.enum_or("reach", kReach, 0)) d.reach = static_cast<Reach>(*reach);
    if (const json* arr = r.optional_array("skills")) {
      // Each skill is one option of the member's turn: listed twice, it would be offered twice.
      d.skills =
          resolve_distinct(*it.doc, r.pointer_of("skills"), *arr, kSkill, "skill", "the member's skills");
      // Counted as listed: a skill that is not found (reported, or in a file that did not parse)
      // does not hide that there are too many.
      if (arr->size() > 32) r.error_at("skills", "a member has at most 32 skills");
    }
    d.resist = read_resist(r);
    r.finish();
    c_->members.push_back(std::move(d));
  }

  void read_companion(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    CompanionDef d;
    read_id(r, ids_[kCompanion], d.id, d.name);
    d.attack = static_cast<std::int32_t>(r.required_int("attack", 0, 99).value_or(1));
    if (const json* sp = r.optional_object("special")) {
      ObjectReader s(*it.doc, *sp, r.pointer_of("special"), diags_);
      d.special_name = s.required_name("name").value_or("special");
      d.special_cost = static_cast<std::int32_t>(s.required_int("cost", 0, 99).value_or(0));
      d.special = read_ops(s, "effects", Owner::Player, true);
      s.finish();
    } else {
      r.error("missing key 'special' (an object with name, cost and effects)");
    }
    r.finish();
    c_->companions.push_back(std::move(d));
  }

  void read_ally(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    AllyDef d;
    read_id(r, ids_[kAlly], d.id, d.name);
    d.attack = static_cast<std::int32_t>(r.required_int("attack", 0, 99).value_or(1));
    d.hits = static_cast<std::uint8_t>(r.int_or("hits", 1, 1, 9));
    r.finish();
    c_->allies.push_back(std::move(d));
  }

  void read_enemy(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    EnemyDef d;
    read_id(r, ids_[kEnemy], d.id, d.name);
    d.hp = static_cast<std::int32_t>(r.required_int("hp", 1, 999).value_or(1));
    d.defense = static_cast<std::int32_t>(r.int_or("defense", 0, 0, 99));
    d.moves = static_cast<std::int32_t>(r.int_or("moves", 1, 1, 4));
    if (const auto p = r.enum_or("position", kPositions, 0)) d.position = static_cast<Position>(*p);
    if (const auto b = r.enum_or("behavior", kBehaviors, 0)) d.behavior = static_cast<EnemyDef::Behavior>(*b);
    if (const json* arr = r.required_array("actions")) {
      if (arr->empty()) r.error_at("actions", "expected at least one action");
      if (arr->size() > 32) r.error_at("actions", "an enemy has at most 32 actions");
      for (std::size_t i = 0; i < arr->size(); ++i) {
        ObjectReader m(*it.doc, (*arr)[i], content::child_pointer(r.pointer_of("actions"), i), diags_);
        if (!m.valid()) continue;
        MoveDef move;
        read_id(m, IdMap{}, move.id, move.name);
        if (!move.id.empty() &&
            std::ranges::any_of(d.move_list, [&](const MoveDef& o) { return o.id == move.id; }))
          m.error_at("id", "duplicate action id '" + move.id + "' in enemy '" + d.id + "'");
        move.weight = static_cast<std::uint32_t>(m.int_or("weight", 1, 1, 1000));
        if (const auto t = m.enum_or("target", kMoveTargets, 0))
          move.target = static_cast<MoveDef::Target>(*t);
        move.effects = read_ops(m, "effects", Owner::Enemy, true);
        // Once for the action, as for a skill: the problem is its target.
        const bool on_members =
            move.target == MoveDef::Target::Member || move.target == MoveDef::Target::AllMembers;
        if (!on_members && std::ranges::any_of(move.effects, [](const Op& op) {
              return op.kind == OpKind::Damage || op.kind == OpKind::Projectile || op.kind == OpKind::Inflict;
            }))
          m.error_at("effects", "damage, projectile and inflict need a 'member' or 'all_members' target");
        m.finish();
        d.move_list.push_back(std::move(move));
      }
    }
    d.resist = read_resist(r);
    if (const json* arr = r.optional_array("reserves"))
      for (std::size_t i = 0; i < arr->size(); ++i)
        if (const auto e = resolve(*it.doc, content::child_pointer(r.pointer_of("reserves"), i), kEnemy,
                                   "enemy", (*arr)[i]))
          d.reserves.push_back(*e);
    r.finish();
    c_->enemies.push_back(std::move(d));
  }

  void read_party(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    PartyDef d;
    read_id(r, ids_[kParty], d.id, d.name);
    if (const json* arr = r.required_array("formation")) {
      if (arr->empty()) r.error_at("formation", "expected 1 to 4 members, got none");
      if (arr->size() > kMaxMembers)
        r.error_at("formation", "expected 1 to 4 members, got " + std::to_string(arr->size()));
      d.formation =
          resolve_distinct(*it.doc, r.pointer_of("formation"), *arr, kMember, "member", "the formation");
    }
    d.tp = static_cast<std::int32_t>(r.required_int("tp", 0, 99).value_or(0));
    if (const json* v = r.optional_value("companion"))
      d.companion = resolve(*it.doc, r.pointer_of("companion"), kCompanion, "companion", *v);
    if (const json* v = r.optional_value("ally"))
      d.ally = resolve(*it.doc, r.pointer_of("ally"), kAlly, "ally", *v);
    if (const json* arr = r.optional_array("items")) {
      if (arr->size() > kMaxItemSlots) r.error_at("items", "a party carries at most 8 kinds of item");
      for (std::size_t i = 0; i < arr->size(); ++i) {
        ObjectReader s(*it.doc, (*arr)[i], content::child_pointer(r.pointer_of("items"), i), diags_);
        if (!s.valid()) continue;
        ItemStack st;
        if (const json* v = s.optional_value("item")) {
          if (const auto item = resolve(*it.doc, s.pointer_of("item"), kItem, "item", *v)) {
            st.item = *item;
            if (std::ranges::any_of(d.items, [&](const ItemStack& o) { return o.item == st.item; }))
              s.error_at("item", "item '" + v->get<std::string>() +
                                     "' is listed twice: one entry per kind of item, with its count");
          }
        } else {
          s.error("missing key 'item' (an item id)");
        }
        st.count = static_cast<std::uint8_t>(s.required_int("count", 1, 99).value_or(1));
        s.finish();
        if (i < kMaxItemSlots) d.items.push_back(st);
      }
    }
    r.finish();
    c_->parties.push_back(std::move(d));
  }

  void read_encounter(const Item& it) {
    ObjectReader r(*it.doc, *it.value, it.pointer, diags_);
    EncounterDef d;
    read_id(r, ids_[kEncounter], d.id, d.name);
    if (const json* v = r.optional_value("party")) {
      if (const auto p = resolve(*it.doc, r.pointer_of("party"), kParty, "party", *v)) d.party = *p;
    } else {
      r.error("missing key 'party' (a party id)");
    }
    if (const json* arr = r.required_array("enemies")) {
      if (arr->empty()) r.error_at("enemies", "an encounter needs at least one enemy, got none");
      for (std::size_t i = 0; i < arr->size(); ++i)
        if (const auto e = resolve(*it.doc, content::child_pointer(r.pointer_of("enemies"), i), kEnemy,
                                   "enemy", (*arr)[i]))
          d.enemies.push_back(*e);
      std::size_t total = d.enemies.size();
      for (EnemyId e : d.enemies)
        if (e < c_->enemies.size()) total += c_->enemies[e].reserves.size();
      if (total > kMaxEncounterEnemies)
        r.error_at("enemies",
                   "an encounter holds at most 12 enemies with their reserves, got " + std::to_string(total));
    }
    if (const auto a = r.enum_or("advantage", kAdvantages, 0)) d.advantage = static_cast<Advantage>(*a);
    d.can_flee = r.bool_or("can_flee", true);
    d.flee_chance = static_cast<std::int32_t>(r.int_or("flee_chance", 50, 0, 100));
    d.companion_locked = r.bool_or("companion_locked", false);
    d.turn_limit = static_cast<std::uint32_t>(r.int_or("turn_limit", 99, 1, 999));
    r.finish();
    c_->encounters.push_back(std::move(d));
  }

  void read_pack() {
    if (!pack_) {
      if (!all_read_) return;
      const std::string message =
          "no 'pack' object in any file; expected {\"pack\": {\"id\": ..., \"rules\": \"party\"}}";
      // At the first file's top-level object (pointer ""), which lacks the key, as a missing key is
      // reported at the object that lacks it.
      diags_.add(docs_.empty() ? content::Diagnostic{"", 0, 0, "", message}
                               : docs_.front().diagnostic("", message));
      return;
    }
    ObjectReader r(*pack_->doc, *pack_->value, pack_->pointer, diags_);
    c_->pack.id = r.required_id("id").value_or("");
    c_->pack.name = r.optional_name("name").value_or(c_->pack.id);
    (void)r.required_string("rules");  // another rule set's name was refused before anything was read
    if (const json* v = r.optional_value("default_encounter"))
      if (const auto e = resolve(*pack_->doc, r.pointer_of("default_encounter"), kEncounter, "encounter", *v))
        c_->pack.default_encounter = *e;
    r.finish();
  }

  const std::vector<JsonDocument>& docs_;
  Diagnostics& diags_;
  bool all_read_;
  std::optional<Item> pack_;
  std::array<std::vector<Item>, 9> items_;
  std::array<IdMap, 9> ids_;
  Catalog* c_ = nullptr;
};

}  // namespace

CatalogResult load_catalog(const std::vector<JsonDocument>& documents) {
  Diagnostics diags;
  Loader loader(documents, diags);
  auto catalog = loader.run();
  if (!catalog) return diags;
  return std::shared_ptr<const Catalog>(std::move(catalog));
}

CatalogResult load_catalog(const std::filesystem::path& path) {
  Diagnostics diags;
  content::PackDocuments read = content::read_pack_documents(path, diags);
  if (!diags.empty()) {
    // Report the shape problems of the readable files too, so every problem is listed at once.
    if (!read.docs.empty()) {
      Loader loader(read.docs, diags, read.all_read);
      (void)loader.run();
    }
    return diags;
  }
  return load_catalog(read.docs);
}

}  // namespace battlecore::party
