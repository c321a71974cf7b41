// What the monitor's browser tests share: their command line, `battlecore serve --port 0`,
// headless Chromium (Debian's /usr/bin/chromium) through playwright-core, the API, and waiting
// until the page shows the battle as the server has it.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

/// `--name value` pairs of the command line.
export function parseArgs(argv) {
  return Object.fromEntries(argv.reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
}

/// Starts the server and the browser; exits 1 with a message when a piece is missing.
export async function setUp(name, cli, out) {
  const fail = (message) => {
    console.error(`${name}: FAILED: ${message}`);
    process.exit(1);
  };
  if (!cli || !existsSync(cli)) fail(`no battlecore program at '${cli}' (pass --cli)`);
  if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: run scripts/install-deps.sh (Debian package chromium)`);
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    fail(`playwright-core is not installed in tests/browser: run scripts/install-deps.sh (${e.message})`);
  }
  mkdirSync(out, { recursive: true });

  const server = spawn(cli, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let serverErr = '';
  server.stderr.on('data', (d) => { serverErr += d; });
  const base = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${text} ${serverErr}`)), 20000);
    server.stdout.on('data', (d) => {
      text += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}`); }
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}): ${serverErr}`)));
  }).catch((e) => fail(e.message));

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

  async function api(p, body) {
    const res = await fetch(base + p, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  }

  async function cleanup() {
    await browser.close().catch(() => {});
    server.kill('SIGTERM');
  }

  /// Waits until `page` shows battle `id` as the server has it now; returns the server's view
  /// with its whole event list as `eventList`.
  async function settle(page, id) {
    for (let i = 0; i < 200; i++) {
      const o = (await api(`/api/battles/${id}`)).json;
      const shown = await page.evaluate(() => ({ busy: document.body.dataset.busy, hash: document.body.dataset.hash }));
      if (shown.busy === 'false' && shown.hash === o.state_hash) {
        o.eventList = (await api(`/api/battles/${id}/events?since=0`)).json.items;
        return o;
      }
      await page.waitForTimeout(50);
    }
    throw new Error('the page did not catch up with the server');
  }

  /// Waits until `page` shows a state other than `before` (the hash before a click); on a
  /// timeout, the error says what the page shows, so a lost click and a refused action differ.
  async function changed(page, before, what) {
    const seconds = 20;  // an action takes milliseconds; this is for a slow, busy machine
    try {
      await page.waitForFunction((h) => document.body.dataset.hash !== h, before, { timeout: seconds * 1000, polling: 50 });
    } catch (e) {
      const shown = await page.evaluate(() => ({ busy: document.body.dataset.busy, message: document.getElementById('message').textContent }));
      throw new Error(`${what}: the page still shows state ${before} after ${seconds} s (busy ${shown.busy}, message '${shown.message}')`);
    }
  }

  return { base, browser, api, cleanup, settle, changed, fail };
}
