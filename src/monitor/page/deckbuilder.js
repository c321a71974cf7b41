// The deckbuilder's state panel and controls. The controls follow the "Safe phase checks" of the
// GCS guide's Battle Phases and Execution Order page:
//   card buttons   enabled only when phase == PlayerPhase and the card can be played now
//                  (otherwise the refusal reason is the button's tooltip);
//   end turn       enabled only in PlayerPhase (and not while a Choice waits);
//   choice picker  shown only while waiting for a choice;
//   reward picker  shown only while waiting for a reward;
//   overlay        when the battle is over and BattleEnded has been raised (app.js asks ended()).
'use strict';

const BattlecorePanels = window.BattlecorePanels || {};
window.BattlecorePanels = BattlecorePanels;

BattlecorePanels.deckbuilder = (() => {
  let selectedCard = null;  // a card waiting for its target
  let openPile = null;      // the pile whose contents are shown

  const { h, bar } = window.BattlecoreKit;

  function chips(statuses) {
    return h('div', { class: 'chips' }, statuses.map((s) => h('span', { class: 'chip', title: s.status }, `${s.status} ${s.stacks}`)));
  }

  function optionsOf(decision, type) {
    return decision.options.filter((o) => o.action.type === type);
  }

  function render(root, overview, ctx) {
    const s = overview.state;
    const d = overview.decision;
    if (s.phase === 'None') {
      root.replaceChildren(h('p', { class: 'empty' }, 'No active battle.'));
      return;
    }
    const inPlayerPhase = s.phase === 'PlayerPhase';
    const plays = optionsOf(d, 'play_card');
    if (selectedCard !== null && !plays.some((o) => o.action.card === selectedCard)) selectedCard = null;

    const player = h('div', { class: 'unit player', id: 'player' },
      h('h3', {}, 'You'),
      h('div', { class: 'hp' }, `HP ${s.player.hp} / ${s.player.max_hp}`), bar(s.player.hp, s.player.max_hp),
      h('div', {}, `armor ${s.player.armor}`),
      h('div', { id: 'energy' }, `energy ${s.energy} / ${s.max_energy}`),
      chips(s.player.statuses));

    const enemies = s.enemies.map((e) => {
      const targets = selectedCard === null ? [] : plays.filter((o) => o.action.card === selectedCard && o.action.target === e.index);
      return h('div', { class: 'unit enemy' + (e.alive ? '' : ' dead'), dataset: { enemy: String(e.index) } },
        h('h3', {}, `${e.name} [${e.index}]`),
        h('div', { class: 'hp' }, e.alive ? `HP ${e.hp} / ${e.max_hp}` : 'dead'), bar(e.hp, e.max_hp),
        h('div', {}, `armor ${e.armor}`),
        chips(e.statuses),
        e.alive && e.intent ? h('div', { class: 'intent' }, `intends ${e.intent.name} (${e.intent.intent})`) : null,
        selectedCard === null ? null : h('button', {
          type: 'button', class: 'target-button', dataset: { target: String(e.index) },
          disabled: targets.length === 0 || ctx.readOnly,
          onclick: () => { const o = targets[0]; selectedCard = null; ctx.submit(o.action); },
        }, 'Target'));
    });

    const pileButton = (key, label) => h('button', {
      type: 'button', class: 'pile-button', dataset: { pile: key },
      onclick: async () => { openPile = openPile === key ? null : key; ctx.rerender(); },
    }, `${label} ${s[key]}`);
    const pileContents = h('div', { id: 'pile-contents' });
    if (openPile) {
      // The pile asked for: by the time its contents come, another may be open, or none.
      const pile = openPile;
      ctx.detail(pile).then((p) => {
        if (!p) return;
        const names = (cards) => cards.map((c) => c.name).join(', ');
        // The draw pile's first known_on_top cards are known to lie on top: its first known_in_order
        // in their order (the top first), the rest sorted by name.
        const known = p.known_on_top || 0;
        const list = !p.cards.length ? '(empty)'
          : known === 0 ? names(p.cards)
          : `on top ${names(p.cards.slice(0, known))}` + (p.cards.length > known ? `; below ${names(p.cards.slice(known))}` : '');
        pileContents.textContent = `${pile.replace('_', ' ')}: ${list}`;
      });
    }

    const cardInfo = new Map(d.cards.map((c) => [c.card, c]));
    const hand = s.hand.map((c) => {
      const info = cardInfo.get(c.card) || { playable: false, reason: 'unknown card' };
      // The guide's check: PlayerPhase and CanPlayCard(card).
      const enabled = inPlayerPhase && info.playable && !ctx.readOnly;
      const reason = ctx.readOnly ? 'a replay is read-only' : !inPlayerPhase ? `cards can be played only in PlayerPhase (now ${s.phase})` : info.reason;
      return h('button', {
        type: 'button', class: `card-button ${c.type}` + (selectedCard === c.card ? ' selected' : ''),
        dataset: { card: String(c.card), cardId: c.card_id }, disabled: !enabled, title: enabled ? c.text : reason,
        onclick: () => {
          const options = plays.filter((o) => o.action.card === c.card);
          if (options.length === 1) { selectedCard = null; ctx.submit(options[0].action); }
          else { selectedCard = selectedCard === c.card ? null : c.card; ctx.rerender(); }
        },
      }, h('span', { class: 'cost' }, c.x_cost ? `X=${c.cost}` : String(c.cost)), h('span', { class: 'name' }, c.name), h('span', { class: 'text' }, c.text));
    });

    const endTurn = optionsOf(d, 'end_turn');
    const controls = h('div', { class: 'controls' },
      h('button', {
        type: 'button', id: 'end-turn', disabled: !(inPlayerPhase && endTurn.length > 0) || ctx.readOnly,
        title: inPlayerPhase ? (endTurn.length ? 'end your turn' : 'finish the choice first') : `only in PlayerPhase (now ${s.phase})`,
        onclick: () => ctx.submit(endTurn[0].action),
      }, 'End turn'),
      selectedCard !== null ? h('span', {}, 'pick a target') : null);

    const choice = h('div', { class: 'picker', id: 'choice-picker', hidden: !d.waiting_for_choice },
      h('h3', {}, 'Choose'),
      h('div', { class: 'options' }, d.waiting_for_choice ? d.options.filter((o) => o.action.type === 'choose' || o.action.type === 'skip_choice').map((o) =>
        h('button', { type: 'button', class: 'choice-option', dataset: { index: String(o.index) }, disabled: ctx.readOnly, onclick: () => ctx.submit(o.action) }, o.label)) : []));

    const rewardNames = s.reward_options || [];
    const reward = h('div', { class: 'picker', id: 'reward-picker', hidden: !d.waiting_for_reward },
      h('h3', {}, 'Victory: choose a card reward'),
      h('div', { class: 'options' }, d.waiting_for_reward ? d.options.filter((o) => o.action.type === 'take_reward' || o.action.type === 'skip_reward').map((o) => {
        const card = o.action.type === 'take_reward' ? rewardNames[o.action.index] : null;
        return h('button', { type: 'button', class: 'reward-option', dataset: { index: String(o.index) }, disabled: ctx.readOnly, title: card ? card.text : '', onclick: () => ctx.submit(o.action) }, card ? card.name : o.label);
      }) : []));

    root.replaceChildren(...[
      h('h2', { class: 'encounter' }, s.encounter_name || s.encounter),
      h('div', { class: 'units' }, player, ...enemies),
      choice, reward,
      h('h3', {}, 'Hand'),
      h('div', { class: 'hand', id: 'hand' }, hand.length ? hand : h('span', { class: 'empty' }, '(empty)')),
      controls,
      h('div', { class: 'piles' }, pileButton('draw_pile', 'Draw'), pileButton('discard_pile', 'Discard'), pileButton('exhaust_pile', 'Exhaust'), pileContents),
      s.hooks && s.hooks.length ? h('div', {}, 'hooks: ' + s.hooks.map((k) => k.hook).join(', ')) : null,
      s.reward_taken ? h('div', {}, `reward taken: ${s.reward_taken}`) : null,
    ].filter((x) => x !== null));
  }

  /// The victory/defeat overlay: the battle is over and BattleEnded has been raised.
  function ended(overview, events) {
    if (!overview.state.over) return null;
    const end = events.find((e) => e.type === 'BattleEnded');
    if (!end) return null;
    return { won: end.won, text: end.won ? 'The enemies are defeated.' : 'You have fallen.' };
  }

  /// Forgets the selection: a new battle starts with none.
  function reset() {
    selectedCard = null;
    openPile = null;
  }

  return { render, ended, reset };
})();
