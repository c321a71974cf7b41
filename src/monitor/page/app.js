// The monitor page: talks to the JSON API (docs/monitor.md), keeps the event log and the
// transition history up to date by polling with "since" counters, and hands the state to the
// panel of the battle's rule set: window.BattlecorePanels[overview.rules] (deckbuilder.js, clash.js,
// party.js), or
// the generic panel below (state as JSON, one button per legal option) for a rule set without one.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 800;
  const STORAGE_KEY = 'battlecore.monitor.battle';

  const app = {
    rules: [],          // GET /api/rules
    graphs: new Map(),  // rules -> its phase graph JSON
    id: null,
    overview: null,
    events: [],
    history: [],
    hiddenTypes: new Set(),
    overlayDismissed: false,
    pollTimer: null,
    shown: null,        // the last reply drawn, so that an unchanged one is not drawn again
  };

  // --- requests ----------------------------------------------------------------------------
  /// A reply's JSON. A seed goes up to 2^64 - 1, past what a number holds exactly here, so a
  /// "seed" is read as its digits (the server takes a seed as a string too).
  const parseReply = (text) => JSON.parse(text, (key, value, context) =>
    (key === 'seed' && typeof value === 'number' && context && context.source ? context.source : value));

  /// Sends a request; the reply as `json` and as the `text` it came in (a replay file is passed on
  /// as it is, its numbers untouched). A string body is sent as it is.
  let inflight = 0;
  async function api(method, path, body) {
    inflight++;
    document.body.dataset.busy = 'true';
    try {
      const res = await fetch(path, {
        method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)),
      });
      const text = await res.text();
      let json;
      try { json = parseReply(text); } catch { json = { error: 'bad_reply', message: `HTTP ${res.status}` }; }
      return { ok: res.ok, status: res.status, json, text };
    } finally {
      inflight--;
      if (inflight === 0) document.body.dataset.busy = 'false';
    }
  }

  function say(text) {
    const m = $('message');
    m.textContent = text || '';
    m.hidden = !text;
  }

  // --- the battle --------------------------------------------------------------------------
  function remember(id) {
    app.id = id;
    if (id) {
      localStorage.setItem(STORAGE_KEY, id);
      if (location.hash !== `#battle=${id}`) history.replaceState(null, '', `#battle=${id}`);
    } else {
      localStorage.removeItem(STORAGE_KEY);
      history.replaceState(null, '', location.pathname);
    }
  }

  function resetLogs() {
    app.events = [];
    app.history = [];
    app.shown = null;
    app.overlayDismissed = false;
  }

  async function open(id) {
    resetLogs();
    // A selection made in the last battle (a card waiting for its target, an open pile) is not
    // this one's.
    for (const panel of Object.values(window.BattlecorePanels)) if (panel.reset) panel.reset();
    remember(id);
    await refresh();
    // The form shows the battle's rules, encounter and seed.
    const o = app.overview;
    if (o && o.id === id) {
      $('rules-select').value = o.rules;
      fillEncounters();
      $('encounter-select').value = o.encounter;
      $('seed-input').value = o.seed;
    }
  }

  /// Brings the page up to the server's view of the battle. One pass runs at a time: a call made
  /// while one runs gets one more pass after it, rather than a request of its own, as two replies
  /// to the same "since" would both be appended (the log twice over, or a gap for good).
  let refreshing = null;
  let refreshAgain = false;
  function refresh() {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      try {
        do {
          refreshAgain = false;
          await fetchChanges();
        } while (refreshAgain);
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  /// One pass of refresh(): fetches what changed since the logs held and renders it.
  async function fetchChanges() {
    if (!app.id) return;
    const id = app.id;
    const since = { events: app.events.length, history: app.history.length };
    const r = await api('GET', `/api/battles/${id}?events_since=${since.events}&history_since=${since.history}`);
    // The answer to another question (another battle opened, the logs started again): ask again.
    if (id !== app.id || since.events !== app.events.length || since.history !== app.history.length) {
      refreshAgain = true;
      return;
    }
    if (!r.ok) {
      if (r.status === 404) { say(`Battle ${id} is gone (the server was restarted?). Start a new one.`); remember(null); app.overview = null; render(); }
      else say(r.json.message);
      return;
    }
    const o = r.json;
    // A replay that stepped back has fewer events than we hold: start the logs again.
    if (o.transitions < app.history.length || o.events < app.events.length) {
      resetLogs();
      refreshAgain = true;
      return;
    }
    app.overview = o;
    app.events.push(...o.event_log.items);
    app.history.push(...o.history.items);
    if (o.event_log.next < o.event_log.total || o.history.next < o.history.total) {
      refreshAgain = true;
      return;
    }
    // Redraw only when the reply differs from the one shown: a redraw replaces the buttons, and
    // a click whose press and release straddle it reaches neither the old button nor the new.
    const shown = JSON.stringify([app.events.length, app.history.length, { ...o, event_log: undefined, history: undefined }]);
    if (shown === app.shown) return;
    app.shown = shown;
    render();
  }

  /// Sends an action of battle `id`, then brings the page up to date. One action at a time: until
  /// the page has drawn the reply, its controls are those of the state before the action, and a
  /// second click on them (a double click on End turn) would act on a state that is gone; it is
  /// dropped. So is a click on the board of a battle no longer open: until a new battle's first
  /// reply is drawn, the board shown is the last one's.
  let acting = false;
  async function submit(action, id) {
    if (acting || id !== app.id) return;
    acting = true;
    try {
      const r = await api('POST', `/api/battles/${id}/actions`, { action });
      if (!r.ok) say(`${r.json.error}: ${r.json.message}`);
      else say('');
      await refresh();
    } finally {
      acting = false;
    }
  }

  async function detail(name) {
    const r = await api('GET', `/api/battles/${app.id}/detail/${name}`);
    return r.ok ? r.json : null;
  }

  /// The graph view of `rules`, drawn from its table (fetched once per rule set).
  let shownGraph = null;
  async function graphFor(rules) {
    if (!app.graphs.has(rules)) {
      const r = await api('GET', `/api/rules/${rules}/graph`);
      if (!r.ok) return null;
      app.graphs.set(rules, r.json);
    }
    if (!shownGraph || shownGraph.rules !== rules) shownGraph = BattlecoreGraph.render($('graph'), app.graphs.get(rules));
    return shownGraph;
  }

  // --- rendering ---------------------------------------------------------------------------
  async function render() {
    const o = app.overview;
    $('battle-id').textContent = o ? o.id : 'none';
    $('phase-name').textContent = o ? o.state.phase : 'None';
    $('turn-number').textContent = o ? o.state.turn : '0';
    $('save-replay').disabled = !o;
    $('replay-this').disabled = !o || o.mode === 'replay';
    $('mode-badge').hidden = !o || o.mode !== 'replay';
    $('replay-bar').hidden = !o || o.mode !== 'replay';
    if (!o) {
      $('panel').replaceChildren(Object.assign(document.createElement('p'), { className: 'empty', textContent: 'Start a battle, or load a replay.' }));
      $('overlay').hidden = true;
      return;
    }
    if (o.mode === 'replay') {
      $('replay-step').textContent = o.replay.step;
      $('replay-steps').textContent = o.replay.steps;
      $('replay-first').disabled = $('replay-back').disabled = o.replay.step === 0;
      $('replay-forward').disabled = $('replay-last').disabled = o.replay.step === o.replay.steps;
    }
    const g = await graphFor(o.rules);
    if (g) g.update(o.state.phase, app.history[app.history.length - 1]);
    renderHistory();
    renderEvents();
    const panel = window.BattlecorePanels[o.rules] || genericPanel;
    const ctx = { submit: (action) => submit(action, o.id), detail, readOnly: o.mode === 'replay', rerender: () => panel.render($('panel'), app.overview, ctx) };
    panel.render($('panel'), o, ctx);
    const end = (panel.ended || genericPanel.ended)(o, app.events);
    $('overlay').hidden = !end || app.overlayDismissed;
    $('overlay').classList.toggle('passive', o.mode === 'replay');
    if (end) {
      $('overlay-title').textContent = end.title || (end.won ? 'Victory' : 'Defeat');
      $('overlay-text').textContent = end.text || '';
      document.querySelector('.overlay-box').className = 'overlay-box ' + (end.won ? 'won' : 'lost');
    }
    document.body.dataset.hash = o.state_hash;
    document.body.dataset.phase = o.state.phase;
  }

  function renderHistory() {
    const rows = app.history.slice(-1000).reverse().map((t) => {
      const tr = document.createElement('tr');
      for (const v of [t.sequence, t.turn, t.from, t.trigger, t.to]) tr.appendChild(Object.assign(document.createElement('td'), { textContent: v }));
      return tr;
    });
    $('history').tBodies[0].replaceChildren(...rows);
  }

  function eventText(e) {
    const parts = Object.entries(e).filter(([k]) => k !== 'type' && k !== 'seq').map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`);
    return `#${e.seq} ${e.type} ${parts.join(' ')}`;
  }

  function renderEvents() {
    const types = [...new Set(app.events.map((e) => e.type))].sort();
    const filters = $('event-filters');
    // One box per type in this battle's log: a type seen only in the last battle loses its box
    // (a type unticked there stays hidden when it comes back).
    const have = [...filters.querySelectorAll('input')].map((i) => i.dataset.type);
    if (have.join('\n') !== types.join('\n')) {
      filters.replaceChildren(...types.map((t) => {
        const input = Object.assign(document.createElement('input'), { type: 'checkbox', checked: !app.hiddenTypes.has(t) });
        input.dataset.type = t;
        input.addEventListener('change', () => {
          if (input.checked) app.hiddenTypes.delete(t); else app.hiddenTypes.add(t);
          renderEvents();
        });
        const label = document.createElement('label');
        label.append(input, ` ${t}`);
        return label;
      }));
    }
    const items = app.events.slice(-800).reverse().map((e) => {
      const li = Object.assign(document.createElement('li'), { textContent: eventText(e), value: e.seq });
      li.dataset.type = e.type;
      if (app.hiddenTypes.has(e.type)) li.className = 'hidden';
      return li;
    });
    $('event-log').replaceChildren(...items);
  }

  /// Any rule set without a panel of its own: its state as JSON and one button per option.
  const genericPanel = {
    render(root, o, ctx) {
      const pre = Object.assign(document.createElement('pre'), { textContent: JSON.stringify(o.state, null, 2) });
      const buttons = o.decision.options.map((opt) => {
        const b = Object.assign(document.createElement('button'), { type: 'button', className: 'option-button', textContent: opt.label, disabled: ctx.readOnly });
        b.addEventListener('click', () => ctx.submit(opt.action));
        return b;
      });
      const div = Object.assign(document.createElement('div'), { className: 'controls' });
      div.append(...buttons);
      root.replaceChildren(div, pre);
    },
    ended(o) { return o.state.over ? { won: o.state.won === true } : null; },
  };

  // --- controls ----------------------------------------------------------------------------
  function fillEncounters() {
    const r = app.rules.find((x) => x.rules === $('rules-select').value);
    $('encounter-select').replaceChildren(...(r ? r.encounters : []).map((e) =>
      Object.assign(document.createElement('option'), { value: e.id, textContent: `${e.id}: ${e.name}`, selected: e.id === r.default_encounter })));
  }

  /// Moves the replay to `step`. One seek at a time, in the order clicked: a click while one is on
  /// its way moves on from the step last asked for, not from the step still drawn (a double click
  /// on "one step back" goes back two), and the page then asks for the last step wanted.
  let wantedStep = null;
  let seeking = null;
  function seek(step) {
    const o = app.overview;
    if (!o || o.mode !== 'replay') return;
    wantedStep = Math.max(0, Math.min(o.replay.steps, step));
    if (seeking) return;
    const id = o.id;
    seeking = (async () => {
      try {
        for (;;) {
          const asked = wantedStep;
          const r = await api('POST', `/api/battles/${id}/seek`, { step: asked });
          if (!r.ok) say(r.json.message);
          await refresh();
          if (!r.ok || wantedStep === asked || id !== app.id) break;
        }
      } finally {
        wantedStep = null;
        seeking = null;
      }
    })();
  }
  /// The step a relative move starts from: the one last asked for while a seek is on its way.
  const replayStep = () => (wantedStep ?? app.overview.replay.step);

  async function loadReplay(text) {
    const r = await api('POST', '/api/replays', text);
    if (!r.ok) { say(`${r.json.error}: ${r.json.message}`); return; }
    say('');
    await open(r.json.id);
  }

  function wire() {
    $('rules-select').addEventListener('change', fillEncounters);
    $('new-battle-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      // The seed as its digits: a number here is exact only up to 2^53.
      const seed = $('seed-input').value.trim() || '1';
      const r = await api('POST', '/api/battles', { rules: $('rules-select').value, encounter: $('encounter-select').value, seed });
      if (!r.ok) { say(`${r.json.error}: ${r.json.message}`); return; }
      say('');
      await open(r.json.id);
    });
    $('replay-first').addEventListener('click', () => seek(0));
    $('replay-back').addEventListener('click', () => seek(replayStep() - 1));
    $('replay-forward').addEventListener('click', () => seek(replayStep() + 1));
    $('replay-last').addEventListener('click', () => seek(app.overview.replay.steps));
    // The replay file goes on as the server wrote it: read here, its seed could change.
    $('replay-this').addEventListener('click', async () => {
      const replay = await api('GET', `/api/battles/${app.id}/replay`);
      if (replay.ok) await loadReplay(replay.text);
      else say(`${replay.json.error}: ${replay.json.message}`);
    });
    $('save-replay').addEventListener('click', async () => {
      const replay = await api('GET', `/api/battles/${app.id}/replay`);
      if (!replay.ok) { say(`${replay.json.error}: ${replay.json.message}`); return; }
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([replay.text], { type: 'application/json' }));
      a.download = `battlecore-${app.overview.rules}-${app.id}.json`;
      a.click();
    });
    $('load-replay-file').addEventListener('change', async (ev) => {
      const file = ev.target.files[0];
      if (file) await loadReplay(await file.text());
      ev.target.value = '';
    });
    $('overlay-close').addEventListener('click', () => { app.overlayDismissed = true; $('overlay').hidden = true; });
    for (const b of document.querySelectorAll('.tabs button')) {
      b.addEventListener('click', () => {
        for (const other of document.querySelectorAll('.tabs button')) {
          other.classList.toggle('active', other === b);
          $(other.dataset.tab).hidden = other !== b;
        }
      });
    }
  }

  async function start() {
    wire();
    const r = await api('GET', '/api/rules');
    app.rules = r.ok ? r.json.rules : [];
    $('rules-select').replaceChildren(...app.rules.map((x) => Object.assign(document.createElement('option'), { value: x.rules, textContent: x.rules })));
    fillEncounters();
    // A reload resumes the same battle: the id is in the URL hash, else in localStorage.
    const fromHash = /^#battle=([A-Za-z0-9-]+)$/.exec(location.hash);
    const id = fromHash ? fromHash[1] : localStorage.getItem(STORAGE_KEY);
    if (id) await open(id);
    else render();
    app.pollTimer = setInterval(() => {
      if (app.id && inflight === 0) refresh().catch(() => say('The server does not answer; retrying.'));
    }, POLL_MS);
    document.body.dataset.ready = 'true';
  }

  start();
})();
