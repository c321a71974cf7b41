// choice: the player picks one of 2 to 4 options, each an effect list; the effect pauses
// until the pick (the seed's Choice node). {"op": "choice", "skippable": false,
// "options": [{"label": "Deal 5", "effects": [...]}, ...]}  (card effects only)
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  op.mode = r.bool_or("skippable", false) ? 1 : 0;
  const nlohmann::json* options = r.required_array("options");
  // The options are read even where the op is refused, so that their own problems are listed too.
  bool ok = true;
  if (oc.owner != EffectOwner::Card) ok = oc.only_in(r, "choice", "card effects");
  if (options == nullptr) return false;
  if (options->size() < 2 || options->size() > 4) {
    r.error_at("options", "expected 2 to 4 options, got " + std::to_string(options->size()));
    ok = false;
  }
  std::vector<std::pair<OpRange, std::string>> compiled;
  for (std::size_t i = 0; i < options->size(); ++i) {
    content::ObjectReader o(r.document(), (*options)[i], content::child_pointer(r.pointer_of("options"), i),
                            r.diagnostics());
    if (!o.valid()) {
      ok = false;
      continue;
    }
    const auto label = o.required_string("label");
    const auto effects = oc.compile_effects(o, "effects", EffectOwner::Card, oc.uses_chosen, true);
    o.finish();
    if (!label || !effects) {
      ok = false;
      continue;
    }
    compiled.emplace_back(*effects, *label);
  }
  if (!ok) return false;
  // The options are consecutive blocks.
  op.block = oc.add_block(compiled[0].first, compiled[0].second);
  for (std::size_t i = 1; i < compiled.size(); ++i) oc.add_block(compiled[i].first, compiled[i].second);
  op.times = static_cast<std::int32_t>(compiled.size());
  return true;
}

void run(OpContext& ctx, const Op& op) {
  BattleState& s = ctx.x.s;
  s.choice = PendingChoice{.kind = PendingChoice::Kind::Options,
                           .skippable = op.mode == 1,
                           .first_block = op.block,
                           .option_count = static_cast<std::uint8_t>(op.times),
                           .source = ctx.source,
                           .target = ctx.target,
                           .card = ctx.card};
  ctx.x.ev.emit_with(EventType::ChoiceOffered, [&] {
    return Event{.type = EventType::ChoiceOffered,
                 .amount = op.times,
                 .extra = static_cast<std::int32_t>(PendingChoice::Kind::Options)};
  });
}

}  // namespace

void register_choice_op(OpRegistry& registry) {
  registry.add({"choice", "pause for the player to pick one of several effect lists", compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
