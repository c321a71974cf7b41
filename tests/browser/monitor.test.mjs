// Browser test of the battlecore monitor: headless Chromium (Debian's /usr/bin/chromium) driven
// by playwright-core. It starts `battlecore serve --port 0`, plays a deckbuilder battle to its
// end by clicking, checks at every step that the enabled controls match the safe phase checks of
// the GCS guide's Battle Phases and Execution Order page against the API's own view, reloads the
// page (the same battle comes back), steps a replay backwards, and saves screenshots in --out.
//
//   node monitor.test.mjs --cli path/to/battlecore --out DIR [--encounter E] [--seed S]
//
// Exits 1 with a message on any failure, including a missing browser or package.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parseArgs, setUp } from './harness.mjs';

const args = parseArgs(process.argv.slice(2));
const out = args.out || 'browser-output';
const encounter = args.encounter || 'swamp';
const seed = Number(args.seed || 3);
const { base, browser, api, cleanup, settle: settleOn, changed, fail } = await setUp('monitor browser test', args.cli, out);

const pageErrors = [];
let page;
let checks = 0;

/// Waits until the page shows the battle as the server has it now; returns the server's view.
const settle = (id) => settleOn(page, id);

const visible = (sel) => page.locator(sel).isVisible();

/// Starts a deckbuilder battle from the form; its id.
async function newBattle(encounter, battleSeed) {
  if (await visible('#overlay-close')) await page.click('#overlay-close');
  const old = await page.textContent('#battle-id');
  await page.selectOption('#rules-select', 'deckbuilder');
  await page.selectOption('#encounter-select', encounter);
  await page.fill('#seed-input', String(battleSeed));
  await page.click('#new-battle');
  await page.waitForFunction((o) => document.getElementById('battle-id').textContent !== o || !document.getElementById('message').hidden, old);
  if (await visible('#message')) throw new Error(`no new battle (${encounter}, seed ${battleSeed}): ${await page.textContent('#message')}`);
  return page.textContent('#battle-id');
}

/// The guide's safe phase checks, against what the page shows.
async function checkControls(o) {
  const s = o.state, d = o.decision;
  const inPlayerPhase = s.phase === 'PlayerPhase';
  const readOnly = o.mode === 'replay';
  const cards = await page.$$eval('.card-button', (bs) => bs.map((b) => ({ card: Number(b.dataset.card), enabled: !b.disabled, title: b.title })));
  assert.equal(cards.length, s.hand.length, 'one button per card in hand');
  for (const c of cards) {
    const info = d.cards.find((x) => x.card === c.card);
    assert.ok(info, `card ${c.card} is in the decision's cards`);
    assert.equal(c.enabled, inPlayerPhase && info.playable && !readOnly, `card ${c.card} enabled only in PlayerPhase when playable (phase ${s.phase})`);
    if (!c.enabled) assert.ok(c.title.length > 0, `disabled card ${c.card} shows its refusal reason on hover`);
    if (!c.enabled && !readOnly && inPlayerPhase) assert.equal(c.title, info.reason);
  }
  const endTurnEnabled = await page.locator('#end-turn').isEnabled();
  assert.equal(endTurnEnabled, inPlayerPhase && d.options.some((x) => x.action.type === 'end_turn') && !readOnly, `end turn only in PlayerPhase (phase ${s.phase})`);
  assert.equal(await visible('#choice-picker'), d.waiting_for_choice, 'choice picker only while waiting for a choice');
  assert.equal(await visible('#reward-picker'), d.waiting_for_reward, 'reward picker only while waiting for a reward');
  const ended = s.over && o.eventList.some((e) => e.type === 'BattleEnded');
  assert.equal(await visible('#overlay'), ended, 'victory/defeat overlay when the battle is over and BattleEnded was raised');
  assert.equal(await page.textContent('#phase-name'), s.phase);
  assert.equal(await page.getAttribute('#graph .node.current', 'data-phase'), s.phase, 'the graph highlights the current phase');
  const rows = await page.$$eval('#history tbody tr', (trs) => trs.map((tr) => Number(tr.cells[0].textContent)));
  assert.equal(rows.length, o.transitions, 'the Phase tab lists every transition');
  if (rows.length) assert.equal(rows[0], o.transitions, 'newest transition first');
  checks++;
}

try {
  page = await browser.newPage({ viewport: { width: 1180, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]');

  // --- the header's controls are reached by the keyboard --------------------------------
  // Listening before the keys are pressed: the file chooser is caught only once playwright listens.
  const chooser = page.waitForEvent('filechooser', { timeout: 10000 });
  const reached = [];
  for (let i = 0; i < 12 && !reached.includes('load-replay-file'); i++) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => document.activeElement.id));
  }
  assert.ok(reached.includes('load-replay-file'), `Tab reaches Load replay (it reached ${reached.join(', ')})`);
  await page.keyboard.press('Enter');
  assert.ok(await chooser, 'Enter on Load replay opens the file chooser');

  // --- start a battle by clicking ---------------------------------------------------------
  await page.selectOption('#rules-select', 'deckbuilder');
  await page.selectOption('#encounter-select', encounter);
  await page.fill('#seed-input', String(seed));
  await page.click('#new-battle');
  await page.waitForFunction(() => document.getElementById('battle-id').textContent !== 'none');
  const id = await page.textContent('#battle-id');
  assert.match(page.url(), new RegExp(`#battle=${id}$`), 'the battle id is in the URL');
  let o = await settle(id);
  assert.equal(o.state.phase, 'PlayerPhase');
  await checkControls(o);
  await page.screenshot({ path: path.join(out, 'deckbuilder-start.png') });

  // --- the event filter hides a type ------------------------------------------------------
  await page.click('.tabs button[data-tab="events-tab"]');
  const drawn = page.locator('#event-filters input[data-type="CardDrawn"]');
  await drawn.uncheck();
  assert.equal(await page.locator('#event-log li[data-type="CardDrawn"]:visible').count(), 0, 'filtered events are hidden');
  assert.ok(await page.locator('#event-log li[data-type="BattleStarted"]:visible').count() === 1);
  await drawn.check();
  assert.ok(await page.locator('#event-log li[data-type="CardDrawn"]:visible').count() > 0);
  await page.click('.tabs button[data-tab="phase-tab"]');

  // --- the pile contents on demand --------------------------------------------------------
  await page.click('.pile-button[data-pile="draw_pile"]');
  await page.waitForFunction(() => document.getElementById('pile-contents')?.textContent.startsWith('draw pile:'));

  // --- play to the end by clicking --------------------------------------------------------
  const seen = { choice: false, reward: false, target: false, cards: 0, turns: 0 };
  for (let step = 0; step < 300; step++) {
    o = await settle(id);
    await checkControls(o);
    if (await visible('#overlay')) break;
    const before = o.state_hash;
    let clicked;
    if (await visible('#reward-picker')) {
      if (!seen.reward) await page.screenshot({ path: path.join(out, 'deckbuilder-reward.png') });
      seen.reward = true;
      clicked = 'a reward';
      await page.locator('.reward-option').first().click();
    } else if (await visible('#choice-picker')) {
      if (!seen.choice) await page.screenshot({ path: path.join(out, 'deckbuilder-choice.png') });
      seen.choice = true;
      clicked = 'a choice';
      await page.locator('.choice-option').first().click();
    } else {
      const enabled = page.locator('.card-button:enabled');
      const n = await enabled.count();
      if (n > 0) {
        const card = enabled.nth(step % n);
        clicked = `card ${await card.getAttribute('data-card')}`;
        await card.click();
        seen.cards++;
        if (await page.locator('.target-button').count() > 0) {
          seen.target = true;
          clicked += ' and a target';
          await page.locator('.target-button:enabled').first().click();
        }
      } else {
        seen.turns++;
        clicked = 'End turn';
        await page.click('#end-turn');
      }
    }
    await changed(page, before, `step ${step}, clicked ${clicked}`);
  }
  o = await settle(id);
  await checkControls(o);
  assert.ok(o.state.over, 'the battle ended within 300 clicks');
  assert.ok(await visible('#overlay'), 'the overlay is shown');
  const title = await page.textContent('#overlay-title');
  assert.equal(title, o.state.won ? 'Victory' : 'Defeat');
  if (o.state.won) assert.ok(seen.reward, 'a won battle with a reward pool showed the reward picker');
  assert.ok(seen.cards > 0 && seen.turns > 0, 'cards were played and turns ended');
  await page.screenshot({ path: path.join(out, 'deckbuilder-end.png') });

  // --- a reload resumes the same battle ---------------------------------------------------
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.textContent('#battle-id'), id, 'the reload shows the same battle');
  o = await settle(id);
  await checkControls(o);
  // Also without the hash: localStorage remembers it.
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.textContent('#battle-id'), id, 'localStorage brings the battle back');

  // --- a replay stepped backwards ---------------------------------------------------------
  await page.click('#overlay-close');
  await page.click('#replay-this');
  await page.waitForSelector('#replay-bar:not([hidden])');
  const rid = await page.textContent('#battle-id');
  assert.notEqual(rid, id);
  let r = await settle(rid);
  const steps = r.replay.steps;
  assert.equal(r.replay.step, steps);
  // The step buttons are named by what they do, not by their arrows.
  for (const name of ['first step', 'one step back', 'one step forward', 'last step'])
    assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, `a button named '${name}'`);
  assert.equal(r.state_hash, o.state_hash, 'the replay ends where the battle ended');
  for (let k = 1; k <= 3; k++) {
    await page.click('#replay-back');
    await page.waitForFunction((s) => document.getElementById('replay-step').textContent === String(s), steps - k);
    r = await settle(rid);
    assert.equal(r.replay.step, steps - k);
    await checkControls(r);
    // The same battle rebuilt directly from the first steps-k actions.
    const file = (await api(`/api/battles/${id}/replay`)).json;
    const rebuilt = await api('/api/replays', { ...file, step: steps - k });
    assert.equal(rebuilt.status, 201);
    assert.equal(r.state_hash, rebuilt.json.state_hash, `step ${steps - k} is the battle after its first ${steps - k} actions`);
  }
  // A double click on "one step back" while the first step loads goes back two, one seek after
  // the other.
  const seekOf = (url) => url.pathname === `/api/battles/${rid}/seek`;
  const asked = [];
  await page.route(seekOf, async (route) => { asked.push(route.request().postDataJSON().step); await page.waitForTimeout(300); await route.continue(); });
  await page.click('#replay-back');
  await page.click('#replay-back');
  await page.waitForFunction((s) => document.getElementById('replay-step').textContent === String(s), steps - 5);
  r = await settle(rid);
  await page.unroute(seekOf);
  assert.deepEqual(asked, [steps - 4, steps - 5], 'a double click on one step back asks for two steps back, in order');
  assert.equal(r.replay.step, steps - 5);
  await checkControls(r);
  await page.click('#replay-forward');
  await page.waitForFunction((s) => document.getElementById('replay-step').textContent === String(s), steps - 4);
  await page.click('#replay-first');
  await page.waitForFunction(() => document.getElementById('replay-step').textContent === '0');
  r = await settle(rid);
  await checkControls(r);
  assert.equal(r.state.phase, 'PlayerPhase');
  assert.equal(r.state.turn, 1);
  assert.equal(await page.locator('.card-button:enabled').count(), 0, 'a replay is read-only');
  await page.click('#replay-forward');
  await page.waitForFunction(() => document.getElementById('replay-step').textContent === '1');
  r = await settle(rid);
  await checkControls(r);
  await page.screenshot({ path: path.join(out, 'deckbuilder-replay.png') });

  // --- Save replay writes what `battlecore replay` checks, and Load replay reads it --------
  await page.evaluate((battle) => { location.hash = `#battle=${battle}`; }, id);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await settle(id);
  await page.click('#overlay-close');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-replay')]);
  const file = path.join(out, 'deckbuilder-replay.json');
  await download.saveAs(file);
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(saved.format, 'battlecore-replay');
  assert.equal(saved.final_state_hash, o.state_hash, 'the saved replay ends where the battle ended');
  const checked = spawnSync(args.cli, ['replay', file], { encoding: 'utf8' });
  assert.equal(checked.status, 0, `battlecore replay reads the saved file: ${checked.stdout}${checked.stderr}`);
  assert.match(checked.stdout, /replay matches/);
  await page.setInputFiles('#load-replay-file', file);
  await page.waitForFunction((old) => document.getElementById('battle-id').textContent !== old, id);
  const fid = await page.textContent('#battle-id');
  r = await settle(fid);
  assert.equal(r.mode, 'replay');
  assert.equal(r.replay.step, saved.actions.length);
  assert.equal(r.state_hash, saved.final_state_hash, 'the loaded file ends where the battle ended');
  await checkControls(r);

  // --- a poll in flight while an action is sent ------------------------------------------
  // The next poll is held until the action's reply is in: both asked from the same counts, and
  // the page must not append what both bring.
  // The event filters list this battle's event types: the ended battle's BattleEnded box goes
  // with it.
  const filterTypes = () => page.$$eval('#event-filters input', (is) => is.map((i) => i.dataset.type));
  assert.ok((await filterTypes()).includes('BattleEnded'), 'the ended battle has a BattleEnded box');
  let pid = await newBattle('w1', 2);
  o = await settle(pid);
  assert.deepEqual(await filterTypes(), [...new Set(o.eventList.map((e) => e.type))].sort(), 'one box per event type of the new battle');
  const pollOf = (battle) => (url) => url.pathname === `/api/battles/${battle}` && url.searchParams.has('events_since');
  let heldPoll = null;
  let polls = 0;
  const pollHeld = new Promise((resolve) => {
    page.route(pollOf(pid), async (route) => {
      if (heldPoll === null) { heldPoll = route; resolve(); return; }
      polls++;
      await route.continue();
    });
  });
  await pollHeld;
  const acted = page.waitForResponse((res) => res.url().endsWith(`/api/battles/${pid}/actions`));
  await page.click('#end-turn');
  await acted;
  await page.waitForTimeout(400);  // time for a second request, had the page sent one
  await heldPoll.continue();
  await changed(page, o.state_hash, 'End turn while a poll was held');
  o = await settle(pid);
  await page.unroute(pollOf(pid));
  await checkControls(o);
  const seqs = await page.$$eval('#event-log li', (lis) => lis.map((li) => li.value));
  assert.equal(seqs.length, o.events, `the event log holds every event once (${polls} requests after the held one)`);
  assert.equal(new Set(seqs).size, seqs.length, 'no event is listed twice');

  // --- a new battle forgets the last one's selection -------------------------------------
  // The same encounter and seed deal the same hand, so a selection kept would still fit it.
  pid = await newBattle('sludge_pair', 1);
  o = await settle(pid);
  const targeted = o.decision.cards.find((c) => c.playable && o.decision.options.filter((x) => x.action.type === 'play_card' && x.action.card === c.card).length > 1);
  assert.ok(targeted, 'a card of the opening hand asks for a target');
  await page.click(`.card-button[data-card="${targeted.card}"]`);
  await page.waitForSelector('.target-button');
  await page.click('.pile-button[data-pile="draw_pile"]');
  await page.waitForFunction(() => document.getElementById('pile-contents')?.textContent.startsWith('draw pile:'));
  const next = await newBattle('sludge_pair', 1);
  assert.notEqual(next, pid);
  o = await settle(next);
  await page.waitForTimeout(300);  // a pile fetched for the new battle would show by now
  assert.equal(await page.locator('.target-button').count(), 0, 'no card waits for a target in the new battle');
  assert.equal(await page.locator('.card-button.selected').count(), 0, 'no card is selected in the new battle');
  assert.equal(await page.textContent('#pile-contents'), '', 'no pile is open in the new battle');
  await checkControls(o);

  // --- a pile closed before its contents arrive ------------------------------------------
  const pileOf = (url) => url.pathname === `/api/battles/${next}/detail/draw_pile`;
  await page.route(pileOf, async (route) => { await page.waitForTimeout(300); await route.continue(); });
  await page.click('.pile-button[data-pile="draw_pile"]');
  await page.click('.pile-button[data-pile="draw_pile"]');
  await page.waitForTimeout(600);  // the held contents have come by now
  await page.unroute(pileOf);
  assert.deepEqual(pageErrors, [], 'a pile closed before its contents came raises no script error');
  assert.equal(await page.textContent('#pile-contents'), '', 'the closed pile stays closed');

  // --- the draw pile's cards known to lie on top ------------------------------------------
  // The server lists them first and counts them (known_on_top): the panel names them apart. The
  // bundled pack has no Innate card to leave on top, so the reply is made here.
  const knownOnTop = {
    pile: 'draw_pile', known_on_top: 2,
    cards: [{ card: 3, card_id: 'bash', name: 'Bash' }, { card: 7, card_id: 'defend', name: 'Defend' },
      { card: 0, card_id: 'strike', name: 'Strike' }],
  };
  await page.route(pileOf, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(knownOnTop) }));
  await page.click('.pile-button[data-pile="draw_pile"]');
  await page.waitForFunction(() => document.getElementById('pile-contents')?.textContent === 'draw pile: on top Bash, Defend; below Strike');
  await page.unroute(pileOf);
  await page.click('.pile-button[data-pile="draw_pile"]');
  assert.equal(await page.textContent('#pile-contents'), '', 'the pile is closed again');

  // --- a second click while an action is on its way is dropped ---------------------------
  // Until the reply is drawn the buttons are those of the state before the action: a double
  // click on End turn must not end the next turn too.
  o = await settle(next);
  const actionOf = (url) => url.pathname === `/api/battles/${next}/actions`;
  let sent = 0;
  await page.route(actionOf, async (route) => { sent++; await page.waitForTimeout(300); await route.continue(); });
  await page.click('#end-turn');
  await page.click('#end-turn');
  await changed(page, o.state_hash, 'End turn clicked twice');
  await page.waitForTimeout(400);  // time for a second action to reach the server, had it been sent
  const twice = await settle(next);
  await page.unroute(actionOf);
  assert.equal(sent, 1, 'one action sent for a double click');
  assert.equal(twice.actions, o.actions + 1, 'a double click on End turn ends one turn');
  await checkControls(twice);

  // --- the last battle's board while a new one loads ------------------------------------
  // Until the new battle's first reply is drawn, the board shown is the last battle's: a click
  // on it must act on neither (it was sent to the new battle, where the same hand is dealt).
  assert.ok(await page.locator('#end-turn').isEnabled(), 'End turn is offered in the last battle');
  const loadOf = (url) => /^\/api\/battles\/[^/]+$/.test(url.pathname) && url.pathname !== `/api/battles/${next}`;
  let heldLoad = null;
  const loadHeld = new Promise((resolve) => page.route(loadOf, (route) => {
    if (heldLoad) return route.continue();
    heldLoad = route;
    resolve();
  }));
  let posted = 0;
  const countPosts = (request) => { if (request.method() === 'POST' && request.url().endsWith('/actions')) posted++; };
  page.on('request', countPosts);
  await page.click('#new-battle');
  await loadHeld;
  await page.click('#end-turn');
  await page.waitForTimeout(300);  // time for the action to leave, had it been sent
  await heldLoad.continue();
  await page.waitForFunction((old) => document.getElementById('battle-id').textContent !== old, next);
  const loaded = await page.textContent('#battle-id');
  await page.unroute(loadOf);
  page.off('request', countPosts);
  assert.equal(posted, 0, 'no action is sent from the last battle\'s board');
  assert.equal((await settle(loaded)).actions, 0, 'the new battle took no action');
  assert.equal((await api(`/api/battles/${next}`)).json.actions, twice.actions, 'the last battle took none either');

  // --- the largest seed, through the form, a reload and a replay -------------------------
  const top = '18446744073709551615';
  const tid = await newBattle('w1', top);
  o = await settle(tid);
  const seedText = async (battle) => /"seed":(\d+)/.exec(await (await fetch(`${base}/api/battles/${battle}`)).text())[1];
  assert.equal(await seedText(tid), top, 'the battle has the seed typed');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('#seed-input'), top, 'the form shows the battle\'s seed');
  await page.click('#replay-this');
  await page.waitForSelector('#replay-bar:not([hidden])');
  const trid = await page.textContent('#battle-id');
  r = await settle(trid);
  assert.equal(await seedText(trid), top, 'the replay has the battle\'s seed');
  assert.equal(r.state_hash, o.state_hash);

  assert.deepEqual(pageErrors, [], 'no script errors on the page');
  console.log(`monitor browser test: ok (${checks} control checks; ${seen.cards} cards played, ${seen.turns} turns ended, ` +
    `choice ${seen.choice}, reward ${seen.reward}, target ${seen.target}; ${o.state.won ? 'won' : 'lost'}; replay of ${steps} steps; screenshots in ${out})`);
  await cleanup();
} catch (e) {
  await page?.screenshot({ path: path.join(out, 'failure.png') }).catch(() => {});
  await cleanup();
  fail(`${e.stack || e}\npage errors: ${JSON.stringify(pageErrors)}`);
}
