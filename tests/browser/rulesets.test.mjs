// Browser test of the monitor's clash and party panels: headless Chromium driven by
// playwright-core against `battlecore serve --port 0`.
//   clash: plays two rounds by clicking (roll, rock on the buttons or on the ring, card) and
//          checks at every step that exactly the controls of the pending step are enabled, that
//          the ring, seats, hands, turn order and the round's duels match the API; then a short
//          battle played through the API ends with the ranking and the overlay.
//   party: plays by clicking (member selection, action, target, the companion, blocks) and
//          checks the enabled controls against the pending decision; then flees by clicking and
//          sees the Fled overlay.
// Screenshots of both pages go to --out.
//
//   node rulesets.test.mjs --cli path/to/battlecore --out DIR
//
// Exits 1 with a message on any failure, including a missing browser or package.

import assert from 'node:assert/strict';
import path from 'node:path';

import { parseArgs, setUp } from './harness.mjs';

const args = parseArgs(process.argv.slice(2));
const out = args.out || 'browser-output';
const { base, browser, api, cleanup, settle: settleOn, changed, fail } = await setUp('monitor rule sets browser test', args.cli, out);

const pageErrors = [];
let page;
let checks = 0;
const settle = (id) => settleOn(page, id);
const visible = (sel) => page.locator(sel).isVisible();
const enabledData = (sel, key) => page.$$eval(sel, (bs, k) => bs.filter((b) => !b.disabled).map((b) => b.dataset[k]), key);

async function startBattle(rules, encounter, seed) {
  if (await visible('#overlay')) await page.click('#overlay-close');
  await page.selectOption('#rules-select', rules);
  await page.selectOption('#encounter-select', encounter);
  await page.fill('#seed-input', String(seed));
  const old = await page.textContent('#battle-id');
  await page.click('#new-battle');
  await page.waitForFunction((o) => document.getElementById('battle-id').textContent !== o, old);
  const id = await page.textContent('#battle-id');
  return { id, o: await settle(id) };
}

/// Clicks and waits until the battle's state changed.
async function clickAndWait(selector, o) {
  await page.locator(selector).first().click();
  await changed(page, o.state_hash, `clicked ${selector}`);
}

/// What every panel shares: the phase, the graph and the overlay.
async function checkCommon(o) {
  assert.equal(await page.textContent('#phase-name'), o.state.phase);
  assert.equal(await page.getAttribute('#graph .node.current', 'data-phase'), o.state.phase, 'the graph highlights the current phase');
  const ended = o.state.over && o.eventList.some((e) => e.type === 'BattleEnded');
  assert.equal(await visible('#overlay'), ended, 'the overlay shows when the battle is over and BattleEnded was raised');
  await checkGraphLabels();
}

/// The phase graph is readable: no two edge labels overlap and every label lies inside the
/// picture (measured by the browser's own text layout).
async function checkGraphLabels() {
  const { boxes, view } = await page.$eval('#graph svg', (svg) => ({
    boxes: [...svg.querySelectorAll('.edge text')].map((t) => {
      const b = t.getBBox();
      return { text: t.textContent, x1: b.x, x2: b.x + b.width, y1: b.y, y2: b.y + b.height };
    }),
    view: (({ x, y, width, height }) => ({ x, y, width, height }))(svg.viewBox.baseVal),
  }));
  assert.ok(boxes.length > 0, 'the graph has labelled edges');
  for (let i = 0; i < boxes.length; ++i) {
    const a = boxes[i];
    assert.ok(a.x1 >= view.x && a.x2 <= view.x + view.width && a.y1 >= view.y && a.y2 <= view.y + view.height,
      `the label ${a.text} lies inside the graph (${JSON.stringify(a)} in ${view.x} ${view.y} ${view.width} ${view.height})`);
    for (let j = 0; j < i; ++j) {
      const b = boxes[j];
      const overlap = a.x1 < b.x2 - 0.5 && b.x1 < a.x2 - 0.5 && a.y1 < b.y2 - 0.5 && b.y1 < a.y2 - 0.5;
      assert.ok(!overlap, `the labels ${a.text} and ${b.text} do not overlap`);
    }
  }
}

// --- clash -----------------------------------------------------------------------------------
async function checkClash(o) {
  const s = o.state, d = o.decision;
  const optionsOf = (type) => d.options.filter((x) => x.action.type === type);
  assert.equal(await page.locator('#roll-button').isEnabled(), d.step === 'roll' && optionsOf('roll').length === 1, `roll enabled only at the roll step (step ${d.step})`);
  const rocks = await enabledData('.rock-choice', 'rock');
  assert.deepEqual(rocks.map(Number), d.step === 'rock' ? optionsOf('choose_rock').map((x) => x.action.rock) : [], 'the rock choices are the offered rocks, only at the rock step');
  const choosable = await page.$$eval('#ring .rock.choosable', (gs) => gs.map((g) => Number(g.dataset.rock)));
  assert.deepEqual(choosable, d.step === 'rock' ? optionsOf('choose_rock').map((x) => x.action.rock).sort((a, b) => a - b) : [], 'the ring offers the same rocks');
  const cards = await enabledData('.clash-card', 'slot');
  assert.deepEqual(cards.map(Number), d.step === 'card' ? optionsOf('play_card').map((x) => x.action.slot) : [], 'cards enabled only at the card step and only those matching the rock');
  // The ring, the seats, the hands and the turn order.
  assert.equal(await page.locator('#ring .rock').count(), s.rocks, 'one rock element per rock');
  const elements = await page.$$eval('#ring .rock', (gs) => gs.map((g) => g.dataset.element));
  assert.deepEqual(elements, s.ring, 'each rock shows its element');
  const tokens = await page.$$eval('#ring .seat-token', (gs) => gs.map((g) => [Number(g.dataset.seat), Number(g.dataset.rock)]));
  assert.deepEqual(tokens, s.seats.filter((x) => !x.out).map((x) => [x.seat, x.rock]), 'each seat stands on its rock');
  const human = s.seats.find((x) => x.kind === 'human');
  assert.equal(await page.locator('.clash-card').count(), human.out ? 0 : human.hand.length, "the human's hand, card by card");
  for (const seat of s.seats) {
    if (seat.kind === 'bot') assert.equal(seat.hand, undefined, "a bot's hand is not in the state");
    assert.equal(await page.textContent(`.unit.seat[data-seat="${seat.seat}"] .hand-count`), `hand ${seat.hand_count}`);
    assert.match(await page.textContent(`.unit.seat[data-seat="${seat.seat}"] .hp`), new RegExp(`^health ${seat.health} /`));
  }
  assert.deepEqual(await page.$$eval('#turn-order li', (lis) => lis.map((li) => Number(li.dataset.seat))), s.order, 'the turn order');
  assert.equal(await page.locator('#duels tr.duel').count(), s.duels.duels.length, "the round's duels");
  await checkCommon(o);
  checks++;
}

async function playClash() {
  let { id, o } = await startBattle('clash', 'classic', 3);
  assert.equal(o.rules, 'clash');
  assert.equal(o.decision.seat, 0, 'the human seat decides first: the server played the bots before it');
  await checkClash(o);
  await page.screenshot({ path: path.join(out, 'clash-start.png') });
  const seen = { roll: 0, rock: 0, ring: 0, card: 0 };
  for (let step = 0; step < 40 && o.state.duels.round < 2 && !o.state.over; step++) {
    const d = o.decision;
    if (d.step === 'roll') {
      seen.roll++;
      await clickAndWait('#roll-button', o);
    } else if (d.step === 'rock') {
      // Alternate between the rock buttons and the rocks on the ring.
      if (seen.rock % 2 === 1) { seen.ring++; await clickAndWait('#ring .rock.choosable', o); } else await clickAndWait('.rock-choice:enabled', o);
      seen.rock++;
    } else if (d.step === 'card') {
      seen.card++;
      await clickAndWait('.clash-card:enabled', o);
    } else {
      throw new Error(`an unexpected step '${d.step}'`);
    }
    o = await settle(id);
    await checkClash(o);
    if (o.state.duels.round === 1 && seen.round1 === undefined) {
      seen.round1 = true;
      await page.screenshot({ path: path.join(out, 'clash-round.png'), fullPage: true });
    }
  }
  assert.ok(seen.roll >= 2 && seen.rock >= 2 && seen.ring >= 1, `rolled and picked rocks by clicking (${JSON.stringify(seen)})`);
  assert.ok(o.state.duels.round >= 1 && o.state.duels.duels.length > 0, 'a round was judged');
  // The duels table is the round's DuelResolved events.
  const duels = (await api(`/api/battles/${id}/detail/duels`)).json.rounds;
  const last = duels[duels.length - 1];
  assert.equal(last.round, o.state.duels.round);
  const winners = await page.$$eval('#duels td.winner', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(winners, last.duels.map((x) => (x.winner === null ? 'tie' : o.state.seats[x.winner].name)));
  // Only the human's actions are the battle's actions: the bots' moves are the server's.
  const acts = o.actions;
  assert.equal(acts, seen.roll + seen.rock + seen.card, 'one action per click');

  // A short battle to its end through the API: the ranking and the overlay.
  const short = await api('/api/battles', { rules: 'clash', encounter: 'duel', seed: 5 });
  assert.equal(short.status, 201);
  for (let i = 0; i < 500 && !(await api(`/api/battles/${short.json.id}`)).json.state.over; i++)
    assert.equal((await api(`/api/battles/${short.json.id}/actions`, { index: 0 })).status, 200);
  await page.goto(`${base}/#battle=${short.json.id}`);
  await page.reload();  // a new hash alone does not load the page again
  await page.waitForSelector('body[data-ready="true"]');
  o = await settle(short.json.id);
  assert.ok(o.state.over, 'the short battle ended');
  await checkClash(o);
  assert.deepEqual(await page.$$eval('#ranking li', (lis) => lis.map((li) => Number(li.dataset.place))), o.state.ranking.map((r) => r.place), 'the ranking');
  assert.equal(await page.textContent('#overlay-title'), o.state.won ? 'Victory' : 'Defeat');
  await page.screenshot({ path: path.join(out, 'clash-end.png') });
  await page.click('#overlay-close');
  return seen;
}

// --- party -----------------------------------------------------------------------------------
async function checkParty(o) {
  const s = o.state, d = o.decision;
  const group = (kind, index) => d.options.filter((x) => x.action.type === kind && (index === '' || x.action.index === Number(index)));
  const buttons = await page.$$eval('.action-button', (bs) => bs.map((b) => ({ kind: b.dataset.kind, index: b.dataset.index, enabled: !b.disabled })));
  assert.equal(buttons.length, 6 + d.skills.length + d.items.length, 'attack, each skill, each item, relay, nothing, flee, swap, deselect');
  for (const b of buttons)
    assert.equal(b.enabled, d.kind === 'member_turn' && group(b.kind, b.index).length > 0, `${b.kind} ${b.index} enabled only when offered (decision ${d.kind})`);
  const companion = await page.$$eval('.companion-button', (bs) => bs.map((b) => ({ kind: b.dataset.kind, enabled: !b.disabled })));
  for (const b of companion) assert.equal(b.enabled, d.kind === 'companion' && group(b.kind, '').length > 0, `companion ${b.kind} only on its turn`);
  assert.equal(await visible('#block-picker'), d.kind === 'block', 'the block picker only for a block');
  assert.equal(await page.locator('.block-button').count(), d.kind === 'block' ? group('block', '').length : 0);
  assert.equal(await page.locator('#formation .member').count(), s.members.length);
  assert.equal(await page.locator('#enemies .enemy').count(), s.enemies.length);
  for (const e of s.enemies) assert.match(await page.textContent(`.enemy[data-enemy="${e.slot}"] .position`), new RegExp(`^${e.position}`));
  assert.match(await page.textContent('#tp'), new RegExp(`^TP ${s.tp} / ${s.max_tp}`));
  const selected = await page.$$eval('#formation .member.current', (ms) => ms.map((m) => Number(m.dataset.member)));
  assert.deepEqual(selected, d.kind === 'member_turn' ? [d.member] : [], 'the selected member is marked');
  await checkCommon(o);
  checks++;
}

async function playParty() {
  let { id, o } = await startBattle('party', 'meadow_walk', 3);
  assert.equal(o.decision.kind, 'member_turn');
  await checkParty(o);
  await page.screenshot({ path: path.join(out, 'party-start.png') });
  const seen = { deselect: 0, target: 0, companion: 0, block: 0, steps: 0 };
  for (; seen.steps < 30 && !o.state.over; seen.steps++) {
    const d = o.decision;
    if (d.kind === 'block') {
      seen.block++;
      await clickAndWait('.block-button[data-level="1"]', o);
    } else if (d.kind === 'companion') {
      seen.companion++;
      await page.click('.companion-button[data-kind="companion_attack"]');
      if (await page.locator('.target-button').count() > 0) await clickAndWait('.target-button:enabled', o);
      else await changed(page, o.state_hash, 'clicked a companion attack');
    } else if (seen.deselect === 0 && d.options.some((x) => x.action.type === 'deselect')) {
      // Member selection: back, and the next member is selected.
      const before = d.member;
      seen.deselect++;
      await clickAndWait('.action-button[data-kind="deselect"]', o);
      o = await settle(id);
      assert.notEqual(o.decision.member, before, 'deselect selects another member');
      await checkParty(o);
      continue;
    } else {
      await page.click('.action-button[data-kind="attack"]');
      const attacks = d.options.filter((x) => x.action.type === 'attack');
      if (attacks.length > 1) {
        seen.target++;
        const targets = await enabledData('.target-button', 'target');
        assert.deepEqual(targets.map(Number), attacks.map((x) => x.action.target), 'the target buttons are the attack\'s targets');
        if (seen.target === 1) await page.screenshot({ path: path.join(out, 'party-target.png'), fullPage: true });
        await clickAndWait('.target-button:enabled', o);
      } else {
        await changed(page, o.state_hash, 'clicked an attack');
      }
    }
    o = await settle(id);
    await checkParty(o);
  }
  assert.ok(seen.deselect === 1 && seen.target > 0 && seen.companion > 0, `selected, acted and targeted by clicking (${JSON.stringify(seen)})`);
  await page.screenshot({ path: path.join(out, 'party.png') });

  // A new battle forgets an action waiting for its target: the same encounter and seed pose the
  // same first decision, which a kept one would still fit.
  ({ id, o } = await startBattle('party', 'meadow_walk', 3));
  assert.ok(o.decision.options.filter((x) => x.action.type === 'attack').length > 1, 'the first attack asks for a target');
  await page.click('.action-button[data-kind="attack"]');
  await page.waitForSelector('.target-button');
  ({ id, o } = await startBattle('party', 'meadow_walk', 3));
  assert.equal(await page.locator('.target-button').count(), 0, 'no action waits for a target in the new battle');
  assert.equal(await page.locator('#cancel-target').count(), 0, 'no target prompt in the new battle');
  await checkParty(o);

  // Flee by clicking until the party gets away (the swamp's chance is 60%).
  ({ id, o } = await startBattle('party', 'swamp', 4));
  for (let i = 0; i < 60 && !o.state.over; i++) {
    const d = o.decision;
    if (d.kind === 'block') await clickAndWait('.block-button[data-level="0"]', o);
    else if (d.kind === 'companion') await clickAndWait('.companion-button[data-kind="companion_pass"]', o);
    else await clickAndWait('.action-button[data-kind="flee"]', o);
    o = await settle(id);
    await checkParty(o);
  }
  assert.ok(o.state.over, 'the battle ended within 60 clicks');
  assert.equal(await page.textContent('#overlay-title'), { victory: 'Victory', defeat: 'Defeat', fled: 'Fled' }[o.state.result]);
  await page.screenshot({ path: path.join(out, 'party-end.png') });
  return { ...seen, result: o.state.result };
}

try {
  page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]');
  const clash = await playClash();
  const party = await playParty();
  assert.deepEqual(pageErrors, [], 'no script errors on the page');
  console.log(`monitor rule sets browser test: ok (${checks} control checks; clash ${JSON.stringify(clash)}; party ${JSON.stringify(party)}; screenshots in ${out})`);
  await cleanup();
} catch (e) {
  await page?.screenshot({ path: path.join(out, 'failure.png') }).catch(() => {});
  await cleanup();
  fail(`${e.stack || e}\npage errors: ${JSON.stringify(pageErrors)}`);
}
