// The clash's state panel and controls. The server plays the bot seats, so every pending
// decision shown here is a human seat's (docs/monitor.md, "Clash"). The controls follow the
// turn's steps (decision.step):
//   roll button       enabled only when the step is "roll";
//   rock choices      the two rocks the roll offers (also clickable on the ring), enabled only
//                     when the step is "rock";
//   card buttons      the deciding seat's hand, enabled only when the step is "card" and the
//                     card matches the rock (otherwise the reason is the tooltip). A seat with
//                     no card for its rock passes by itself: the rules ask nothing, and the
//                     round's duels show it without a card;
//   overlay           when the battle is over and BattleEnded has been raised.
'use strict';

(window.BattlecorePanels = window.BattlecorePanels || {}).clash = (() => {
  const { h, svg, bar } = window.BattlecoreKit;
  const ELEMENT_COLOURS = { none: '#bdbdbd', air: '#9fd8f0', earth: '#b08a5a', energy: '#f2d14b', fire: '#e0643c', water: '#3d7fd6' };
  const SEAT_COLOURS = ['#2f6fde', '#c0392b', '#2e8b57', '#8e44ad'];

  const cardText = (c) => (c ? `${c.element} ${c.value}` : 'no card');
  const optionsOf = (d, type) => d.options.filter((o) => o.action.type === type);

  /// The ring of rocks: one circle per rock in its element's colour, the seats on their rocks,
  /// the rocks the roll offers outlined (and clickable when the rock step is pending).
  function ring(s, d, ctx) {
    const n = s.ring.length;
    const size = 300, c = size / 2, r = 118;
    const at = (i, radius) => {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      return [c + radius * Math.cos(a), c + radius * Math.sin(a)];
    };
    const rockOptions = optionsOf(d, 'choose_rock');
    const rocks = s.ring.map((element, i) => {
      const [x, y] = at(i, r);
      const option = rockOptions.find((o) => o.action.rock === i);
      const offered = s.offered.includes(i) && s.step === 'rock';
      const g = svg('g', { class: 'rock' + (offered ? ' offered' : '') + (option && !ctx.readOnly ? ' choosable' : ''), dataset: { rock: String(i), element } },
        svg('circle', { cx: x, cy: y, r: 13, fill: ELEMENT_COLOURS[element] || '#ccc' }),
        svg('text', { x, y, class: 'rock-number' }, String(i)),
        svg('title', {}, `rock ${i}: ${element === 'none' ? 'wildcard' : element}`));
      if (option && !ctx.readOnly) g.addEventListener('click', () => ctx.submit(option.action));
      return g;
    });
    const seats = s.seats.filter((seat) => !seat.out).map((seat) => {
      const sameRock = s.seats.filter((o) => !o.out && o.rock === seat.rock);
      const k = sameRock.indexOf(seat);
      const [x, y] = at(seat.rock + (k - (sameRock.length - 1) / 2) * 0.28, r - 30);
      return svg('g', { class: 'seat-token' + (s.current === seat.seat ? ' current' : ''), dataset: { seat: String(seat.seat), rock: String(seat.rock) } },
        svg('circle', { cx: x, cy: y, r: 10, fill: SEAT_COLOURS[seat.seat % SEAT_COLOURS.length] }),
        svg('text', { x, y, class: 'seat-initial' }, seat.name.slice(0, 1)),
        svg('title', {}, `${seat.name} on rock ${seat.rock}`));
    });
    const centre = s.dice ? `rolled ${s.dice}` : `round ${s.round}`;
    return h('div', { class: 'ring', id: 'ring' },
      svg('svg', { viewBox: `0 0 ${size} ${size}`, width: size, height: size },
        svg('circle', { cx: c, cy: c, r, class: 'ring-path' }), ...rocks, ...seats,
        svg('text', { x: c, y: c, class: 'ring-centre' }, centre)));
  }

  function seatBox(s, seat) {
    const playing = s.current === seat.seat;
    return h('div', { class: 'unit seat' + (seat.out ? ' dead' : '') + (playing ? ' current' : ''), dataset: { seat: String(seat.seat) } },
      h('h3', {}, h('span', { class: 'swatch', style: `background:${SEAT_COLOURS[seat.seat % SEAT_COLOURS.length]}` }), ` ${seat.name} (${seat.kind})`),
      h('div', { class: 'hp' }, `health ${seat.health} / ${s.max_health}`), bar(seat.health, s.max_health),
      h('div', {}, `rock ${seat.rock} (${seat.rock_element === 'none' ? 'wildcard' : seat.rock_element})`),
      h('div', { class: 'hand-count' }, `hand ${seat.hand_count}`),
      h('div', {}, seat.acted ? `played ${cardText(seat.choice)}` : playing ? 'to play' : 'waiting'),
      seat.out ? h('div', { class: 'out-badge' }, 'out') : null,
      seat.place !== null ? h('div', { class: 'place' }, `place ${seat.place}`) : null);
  }

  function render(root, overview, ctx) {
    const s = overview.state;
    const d = overview.decision;
    const step = d.step;
    const seatName = (i) => (s.seats[i] ? s.seats[i].name : 'nobody');
    const deciding = d.seat !== null ? s.seats[d.seat] : null;

    const order = h('ol', { class: 'turn-order', id: 'turn-order' }, s.order.map((i) =>
      h('li', { class: (s.seats[i].out ? 'out' : '') + (s.current === i ? ' current' : ''), dataset: { seat: String(i) } }, seatName(i))));

    const rolls = optionsOf(d, 'roll');
    const rocks = optionsOf(d, 'choose_rock');
    const rollButton = h('button', {
      type: 'button', id: 'roll-button', disabled: step !== 'roll' || rolls.length === 0 || ctx.readOnly,
      title: step === 'roll' ? 'roll the die' : 'only when your turn begins',
      onclick: () => ctx.submit(rolls[0].action),
    }, 'Roll the die');
    // The two rock choices: minus first, then plus (one when both reach the same rock).
    const rockButtons = [0, 1].map((k) => {
      const o = step === 'rock' ? rocks[k] : undefined;
      return h('button', {
        type: 'button', class: 'rock-choice', dataset: { choice: String(k), rock: o ? String(o.action.rock) : '' },
        disabled: !o || ctx.readOnly, hidden: step === 'rock' && !o && k === 1,
        title: o ? o.label : 'only after rolling',
        onclick: () => ctx.submit(o.action),
      }, o ? `${k === 0 ? '−' : '+'} ${o.label.replace('move to ', '')}` : `${k === 0 ? '−' : '+'} rock`);
    });

    const plays = optionsOf(d, 'play_card');
    const handSeat = deciding && deciding.hand ? deciding : s.seats.find((x) => x.hand && !x.out) || null;
    const hand = handSeat ? handSeat.hand.map((card, slot) => {
      const info = d.seat === handSeat.seat ? d.cards.find((c) => c.slot === slot) : null;
      const option = plays.find((o) => o.action.slot === slot && o.action.seat === handSeat.seat);
      const enabled = step === 'card' && !!option && !ctx.readOnly;
      const reason = ctx.readOnly ? 'a replay is read-only' : info ? info.reason : 'not your turn';
      return h('button', {
        type: 'button', class: `clash-card ${card.element}`, dataset: { slot: String(slot), element: card.element },
        disabled: !enabled, title: enabled ? `play ${cardText(card)}` : reason,
        onclick: () => ctx.submit(option.action),
      }, h('span', { class: 'value' }, String(card.value)), h('span', { class: 'element' }, card.element));
    }) : [];

    const prompt = d.seat === null ? (s.over ? 'the battle is over' : 'nobody to decide')
      : step === 'roll' ? `${seatName(d.seat)}: roll the die`
      : step === 'rock' ? `${seatName(d.seat)} rolled ${d.dice}: pick a rock`
      : `${seatName(d.seat)}: play a card for rock ${deciding.rock} (${deciding.rock_element === 'none' ? 'any element' : deciding.rock_element})`;

    const duels = h('table', { id: 'duels' },
      h('thead', {}, h('tr', {}, h('th', {}, 'seat'), h('th', {}, 'card'), h('th', {}, 'seat'), h('th', {}, 'card'), h('th', {}, 'winner'))),
      h('tbody', {}, s.duels.duels.map((x) => h('tr', { class: 'duel' },
        h('td', {}, seatName(x.seat)), h('td', {}, cardText(x.card)),
        h('td', {}, seatName(x.other)), h('td', {}, cardText(x.other_card)),
        h('td', { class: 'winner' }, x.winner === null ? 'tie' : seatName(x.winner))))));

    const ranking = s.ranking.length ? h('div', { id: 'ranking' }, h('h3', {}, 'Ranking'),
      h('ol', {}, s.ranking.map((r) => h('li', { dataset: { seat: String(r.seat), place: String(r.place) } }, `${r.place}. ${r.name}`)))) : null;

    root.replaceChildren(...[
      h('h2', { class: 'encounter' }, s.encounter_name || s.encounter),
      h('div', { class: 'clash-board' }, ring(s, d, ctx),
        h('div', { class: 'clash-side' }, h('h3', {}, 'Turn order'), order, ranking)),
      h('div', { class: 'units' }, s.seats.map((seat) => seatBox(s, seat))),
      h('div', { class: 'prompt', id: 'turn-step', dataset: { step } }, prompt),
      h('div', { class: 'controls', id: 'clash-controls' }, rollButton, ...rockButtons),
      h('h3', {}, handSeat ? `Hand of ${handSeat.name}` : 'Hand'),
      h('div', { class: 'hand', id: 'hand' }, hand.length ? hand : h('span', { class: 'empty' }, '(empty)')),
      h('h3', {}, s.duels.round ? `Duels of round ${s.duels.round}` : 'Duels (none yet)'),
      duels,
    ].filter((x) => x !== null));
  }

  /// The overlay: the battle is over and BattleEnded has been raised.
  function ended(overview, events) {
    const s = overview.state;
    if (!s.over || !events.some((e) => e.type === 'BattleEnded')) return null;
    const humans = s.ranking.filter((r) => s.seats[r.seat].kind === 'human');
    const text = humans.length ? humans.map((r) => `${r.name}: place ${r.place} of ${s.seats.length}`).join('; ') : `${s.ranking[0].name} wins`;
    return { won: s.won === true, text };
  }

  return { render, ended };
})();
