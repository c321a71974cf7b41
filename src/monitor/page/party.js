// The party rule set's state panel and controls. Every decision is the player's; its kind
// (decision.kind) decides which controls are live:
//   member_turn   the selected member's actions: attack, each skill, each item, relay, do
//                 nothing, flee, swap, deselect (back to the selection of the next member); each
//                 enabled only when the rules offer it (otherwise the refusal is the tooltip).
//                 An action with several targets asks for the target next: target buttons on
//                 the enemies or members it may aim at;
//   companion     the companion's attack, special and pass (with a target step likewise);
//   block         the block picker (no block, block, super block) for the enemy's hit;
//   overlay       Victory, Defeat or Fled, when the battle is over and BattleEnded was raised.
'use strict';

(window.BattlecorePanels = window.BattlecorePanels || {}).party = (() => {
  const { h, bar } = window.BattlecoreKit;
  let pending = null;  // {kind, index}: an action waiting for its target

  const sameGroup = (a, g) => a.type === g.kind && (a.index === undefined || a.index === g.index);
  const chips = (conds) => h('div', { class: 'chips' }, conds.map((c) => h('span', { class: 'chip', title: c.id }, `${c.name} ${c.turns}`)));

  /// What the targets of an action group are: enemies (slot) or members (index).
  function targetSide(group, d) {
    if (group.kind === 'attack' || group.kind === 'companion_attack' || group.kind === 'companion_special') return 'enemy';
    if (group.kind === 'relay') return 'member';
    const list = group.kind === 'skill' ? d.skills : d.items;
    const def = list.find((x) => (x.index ?? x.slot) === group.index);
    return def && def.target === 'enemy' ? 'enemy' : 'member';
  }

  function render(root, overview, ctx) {
    const s = overview.state;
    const d = overview.decision;
    if (!s.members) {
      root.replaceChildren(h('p', { class: 'empty' }, 'No active battle.'));
      return;
    }
    const options = d.options;
    const groupOptions = (g) => options.filter((o) => sameGroup(o.action, g));
    if (pending && groupOptions(pending).length === 0) pending = null;
    const pendingSide = pending ? targetSide(pending, d) : null;

    /// Runs an action group: at once when it has one option, else asks for the target.
    const choose = (g) => {
      const opts = groupOptions(g);
      if (opts.length === 1) { pending = null; ctx.submit(opts[0].action); } else { pending = g; ctx.rerender(); }
    };
    const targetButton = (side, target) => {
      if (!pending || pendingSide !== side) return null;
      const o = groupOptions(pending).find((x) => x.action.target === target);
      return h('button', {
        type: 'button', class: 'target-button', dataset: { target: String(target) }, disabled: !o || ctx.readOnly,
        title: o ? o.label : 'not a target of this action',
        onclick: () => { pending = null; ctx.submit(o.action); },
      }, 'Target');
    };

    const blockMember = d.kind === 'block' && d.block ? d.block.member : null;
    const members = s.members.map((m) => h('div', {
      class: 'unit member' + (m.hp <= 0 ? ' dead' : '') + (m.selected ? ' current' : '') + (blockMember === m.index ? ' threatened' : ''),
      dataset: { member: String(m.index), slot: String(m.slot) },
    },
    h('h3', {}, `${m.name}${m.slot === 0 ? ' (front)' : ''}${m.selected ? ' ◀' : ''}`),
    h('div', { class: 'hp' }, `HP ${m.hp} / ${m.max_hp}`), bar(m.hp, m.max_hp),
    h('div', { class: 'counters' }, `counter ${m.counter} · exhaustion ${m.exhaustion} · charge ${m.charge}${m.relayed ? ' · relayed' : ''}`),
    chips(m.conditions),
    targetButton('member', m.index)));

    const allies = h('div', { class: 'units allies' },
      s.companion ? h('div', { class: 'unit companion', id: 'companion' },
        h('h3', {}, `${s.companion.name} (companion)`),
        h('div', {}, `special: ${s.companion.special} (${s.companion.special_cost} TP)`),
        h('div', {}, s.companion.locked ? 'locked' : s.companion.acted ? 'acted' : 'ready')) : null,
      s.ally ? h('div', { class: 'unit ally', id: 'ally' },
        h('h3', {}, `${s.ally.name} (AI ally)`), h('div', {}, s.ally.acted ? 'acted' : 'ready')) : null);

    const enemies = s.enemies.map((e) => h('div', {
      class: 'unit enemy' + (e.hp <= 0 ? ' dead' : ''), dataset: { enemy: String(e.slot) },
    },
    h('h3', {}, `${e.name} [${e.slot}]`),
    h('div', { class: 'hp' }, `HP ${e.hp} / ${e.max_hp}`), bar(e.hp, e.max_hp),
    h('div', { class: 'position' }, `${e.position} · counter ${e.counter}`),
    chips(e.conditions),
    targetButton('enemy', e.slot)));

    // The member's actions: one button per group, enabled only when the rules offer it.
    const memberTurn = d.kind === 'member_turn';
    const actionButton = (g, label, reason) => {
      const offered = memberTurn && groupOptions(g).length > 0;
      return h('button', {
        type: 'button', class: 'action-button' + (pending && pending.kind === g.kind && pending.index === g.index ? ' selected' : ''),
        dataset: { kind: g.kind, index: g.index === undefined ? '' : String(g.index) },
        disabled: !offered || ctx.readOnly,
        title: offered ? label : !memberTurn ? 'only on a member\'s turn' : reason || 'the rules do not allow it now',
        onclick: () => choose(g),
      }, label);
    };
    const selected = s.members.find((m) => m.selected);
    const actions = h('div', { class: 'controls', id: 'member-actions' },
      h('span', { id: 'selected-member' }, selected ? `${selected.name} acts:` : 'no member selected'),
      actionButton({ kind: 'attack' }, 'Attack'),
      d.skills.map((sk) => actionButton({ kind: 'skill', index: sk.index }, `${sk.name} (${sk.cost} ${sk.pays})`, sk.reason)),
      d.items.map((it) => actionButton({ kind: 'item', index: it.slot }, `${it.name} ×${it.count}`, it.reason)),
      actionButton({ kind: 'relay' }, 'Relay'),
      actionButton({ kind: 'do_nothing' }, 'Do nothing'),
      actionButton({ kind: 'flee' }, 'Flee'),
      actionButton({ kind: 'swap' }, 'Swap'),
      actionButton({ kind: 'deselect' }, 'Deselect'));

    const companionTurn = d.kind === 'companion';
    const companionButton = (g, label) => h('button', {
      type: 'button', class: 'companion-button', dataset: { kind: g.kind },
      disabled: !companionTurn || groupOptions(g).length === 0 || ctx.readOnly,
      title: companionTurn ? label : 'only on the companion\'s turn',
      onclick: () => choose(g),
    }, label);
    const companion = s.companion ? h('div', { class: 'controls', id: 'companion-actions' },
      h('span', {}, `${s.companion.name}:`),
      companionButton({ kind: 'companion_attack' }, 'Attack'),
      companionButton({ kind: 'companion_special' }, `${s.companion.special} (${s.companion.special_cost} TP)`),
      companionButton({ kind: 'companion_pass' }, 'Pass')) : null;

    const blocking = d.kind === 'block';
    const victim = blocking && d.block ? s.members.find((m) => m.index === d.block.member) : null;
    const block = h('div', { class: 'picker', id: 'block-picker', hidden: !blocking },
      h('h3', {}, blocking && d.block ? `${d.block.enemy} uses ${d.block.move} on ${victim ? victim.name : 'a member'}: block?` : 'Block'),
      h('div', { class: 'options' }, blocking ? options.filter((o) => o.action.type === 'block').map((o) =>
        h('button', { type: 'button', class: 'block-button', dataset: { level: String(o.action.index) }, disabled: ctx.readOnly, onclick: () => ctx.submit(o.action) }, o.label.replace('block: ', ''))) : []));

    const items = s.items.length ? h('div', { class: 'items' }, 'items: ' + s.items.map((it) => `${it.name} ×${it.count}`).join(', ')) : null;

    root.replaceChildren(...[
      h('h2', { class: 'encounter' }, s.encounter_name || s.encounter),
      h('div', { class: 'tp', id: 'tp' }, `TP ${s.tp} / ${s.max_tp} (shared)`), bar(s.tp, s.max_tp),
      h('h3', {}, 'Formation'),
      h('div', { class: 'units', id: 'formation' }, members),
      allies,
      h('h3', {}, `Enemies${s.reserves.length ? ` (${s.reserves.length} in reserve)` : ''}`),
      h('div', { class: 'units', id: 'enemies' }, enemies),
      block,
      actions,
      pending ? h('div', { class: 'prompt' }, `pick a target (${pendingSide})`,
        h('button', { type: 'button', id: 'cancel-target', onclick: () => { pending = null; ctx.rerender(); } }, 'Cancel')) : null,
      companion,
      items,
    ].filter((x) => x !== null));
  }

  /// The overlay: Victory, Defeat or Fled, once BattleEnded has been raised.
  function ended(overview, events) {
    const s = overview.state;
    if (!s.over || !events.some((e) => e.type === 'BattleEnded')) return null;
    const titles = { victory: 'Victory', defeat: 'Defeat', fled: 'Fled' };
    const texts = { victory: 'The enemies are defeated.', defeat: 'The party has fallen.', fled: 'The party ran away.' };
    return { won: s.won === true, title: titles[s.result], text: texts[s.result] };
  }

  /// Forgets an action waiting for its target: a new battle starts with none.
  function reset() { pending = null; }

  return { render, ended, reset };
})();
