// Browser test of `command-safety review` (issue 7, SPEC §10): the real
// binary serves the page over a temporary decision log; headless Debian
// Chromium, driven by playwright-core, signs in through the printed one-time
// URL and releases prompts; real `command-safety hook claude-code --hold`
// processes wait for those releases.
//
// Env: CS_BIN (the command-safety binary; unset: built with `go build`),
// CS_CHROMIUM (default /usr/bin/chromium), CS_DOCS (a directory for the
// README screenshot review.png; unset: none).
//
// Everything the binary and Chromium write goes under a fresh temporary
// directory: HOME and XDG_* point there.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-review-e2e-'));
const home = path.join(tmp, 'home');
const ws = path.join(tmp, 'ws');
const logPath = path.join(home, '.local', 'state', 'ml-ai', 'decisions.db');
const REVIEWER = 'e2e-reviewer';
const XSS = "echo '<script>alert(1)</script>' > /tmp/cs-review-e2e.html";

fs.mkdirSync(path.join(ws, '.git'), { recursive: true });
fs.mkdirSync(home, { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  USER: 'e2e-user',
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_STATE_HOME: path.join(home, '.local', 'state'),
  XDG_DATA_HOME: path.join(home, '.local', 'share'),
  XDG_CACHE_HOME: path.join(home, '.cache'),
};

let bin = process.env.CS_BIN;
let review; // the review server process
let reviewURL;
let origin;
let browser;
let page;
const dialogs = [];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cs(args, input) {
  const r = spawnSync(bin, args, { cwd: ws, env, input, encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw r.error;
  return r;
}

// seedAdvisory records a verdict through the real gate with `command-safety
// check` and returns the decision (0 allow, 1 prompt): a prompt nobody
// waits for (advisory), which the page does not offer to release.
function seedAdvisory(command) {
  const r = cs(['check', '--agent', 'claude-code', '--cwd', ws, '--workspace', ws, '--', command]);
  return r.status;
}

// seed runs command through a real hook in hold mode and returns 1 once its
// row is held (the hook keeps waiting for the page), or 0 when the hook
// allowed it at once. The page lists only rows a hook holds.
const held = [];
async function seed(command) {
  const h = hook(['--hold=10m'], command);
  held.push(h);
  for (const t0 = Date.now(); Date.now() - t0 < 10_000;) {
    const settled = await Promise.race([h.done.then(() => true), sleep(100).then(() => false)]);
    if (settled) {
      const res = await h.done;
      return res.answer?.hookSpecificOutput?.permissionDecision === 'allow' ? 0 : 2;
    }
    if (logRows().some((e) => e.command === command && e.status === 'held')) return 1;
  }
  throw new Error(`no held row for ${command}`);
}

function logRows(extra = []) {
  const r = cs(['log', '--json', '--limit', '0', ...extra]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function rowFor(command) {
  const rows = logRows().filter((e) => e.command === command);
  assert.ok(rows.length > 0, `no log row for ${command}`);
  return rows[0]; // newest first
}

async function until(what, fn, ms = 5000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < ms) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await sleep(100);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${last})`);
}

function card(command) {
  return page.locator('#pending-list > li', { has: page.locator('pre.command', { hasText: command }) });
}

// hook starts `command-safety hook claude-code ARGS` with a Bash PreToolUse
// payload for command and resolves with its exit code and output.
function hook(args, command) {
  const payload = JSON.stringify({
    session_id: 'e2e-session', cwd: ws, permission_mode: 'default', hook_event_name: 'PreToolUse',
    tool_name: 'Bash', tool_input: { command, description: 'e2e' }, tool_use_id: 'toolu_e2e',
  });
  const p = spawn(bin, ['hook', 'claude-code', ...args], { cwd: ws, env: { ...env, CLAUDE_PROJECT_DIR: ws } });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => { stdout += d; });
  p.stderr.on('data', (d) => { stderr += d; });
  const started = Date.now();
  const done = new Promise((resolve) => {
    p.on('close', (code) => {
      let answer = null;
      try { answer = JSON.parse(stdout); } catch (_) { answer = null; }
      resolve({ code, stdout, stderr, answer, ms: Date.now() - started, exitedAt: Date.now() });
    });
  });
  p.stdin.end(payload);
  return { proc: p, done };
}

before(async () => {
  if (!bin) {
    bin = path.join(tmp, 'command-safety');
    const b = spawnSync('go', ['build', '-o', bin, './cmd/command-safety'], { cwd: repo, stdio: 'inherit' });
    assert.equal(b.status, 0, 'go build failed');
  }
  // Three held prompts (the newest has markup in it) and one allow.
  assert.equal(await seed('curl https://example.com/approve-me'), 1);
  assert.equal(await seed('npm install left-pad'), 1);
  assert.equal(await seed('ls -la'), 0);
  assert.equal(await seed(XSS), 1);

  review = spawn(bin, ['review', '--log', logPath, '--reviewer', 'flag-reviewer'], { cwd: ws, env });
  let errText = '';
  review.stderr.on('data', (d) => { errText += d; });
  reviewURL = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('review printed no URL: ' + errText)), 15_000);
    review.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) { clearTimeout(timer); resolve(out.slice(0, nl)); }
    });
    review.on('exit', (code) => reject(new Error(`review exited ${code}: ${errText}`)));
  });
  assert.match(reviewURL, /^http:\/\/127\.0\.0\.1:\d+\/login\?token=[A-Za-z0-9_-]{43}$/);
  origin = new URL(reviewURL).origin;

  browser = await chromium.launch({
    executablePath: process.env.CS_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
  page = await context.newPage();
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  page.on('pageerror', (e) => dialogs.push('pageerror: ' + e.message));
});

after(async () => {
  for (const h of held) h.proc.kill('SIGTERM'); // holds nobody answered
  if (browser) await browser.close();
  if (review) review.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the one-time URL signs in and redirects to the page without the token', async () => {
  const res = await page.goto(reviewURL);
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(new URL(page.url()).search, '', 'the token stays in the address bar');
  assert.equal(res.status(), 200);
  const csp = res.headers()['content-security-policy'] || '';
  assert.match(csp, /default-src 'self'/);
  await until('the title to count 3 pending', async () => (await page.title()) === '(3) Command Safety review');
  // The token is spent: a second visit (another browser, an attacker who saw
  // the URL) gets no session.
  const again = await fetch(reviewURL, { redirect: 'manual' });
  assert.equal(again.status, 403);
  assert.equal(again.headers.get('set-cookie'), null);
  // And the API needs the session.
  assert.equal((await fetch(origin + '/api/pending')).status, 401);
});

test('pending prompts are listed newest first and command text renders as text', async () => {
  const commands = await page.locator('#pending-list pre.command').allTextContents();
  assert.deepEqual(commands, [XSS, 'npm install left-pad', 'curl https://example.com/approve-me']);
  assert.equal(await card(XSS).locator('pre.command').isVisible(), true);
  // The markup is text: no element came out of it, no dialog fired.
  assert.equal(await page.locator('#pending-list script').count(), 0);
  assert.equal(await page.locator('script').count(), 1, 'only app.js');
  await sleep(500);
  assert.deepEqual(dialogs, []);
  // The card shows the deciding part, effects, reason, agent, cwd and age.
  const c = card(XSS);
  assert.match(await c.locator('mark').textContent(), /> \/tmp\/cs-review-e2e\.html/);
  const facts = await c.locator('dl.facts').textContent();
  for (const want of ['Deciding part', 'write-outside-workspace', 'Reason', 'Effects', 'Cwd', ws]) {
    assert.ok(facts.includes(want), `card lacks ${want}: ${facts}`);
  }
  assert.match(await c.locator('.agent').textContent(), /claude-code/);
  assert.match(await c.locator('.age').textContent(), /\d+[smhd] ago/);
});

test('Approve releases the row with the reviewer name typed in the page', async () => {
  await page.locator('#reviewer').fill(REVIEWER);
  const cmd = 'curl https://example.com/approve-me';
  await card(cmd).getByRole('button', { name: 'Approve' }).click();
  await until('the approved card to leave', async () => (await card(cmd).count()) === 0);
  const row = rowFor(cmd);
  assert.equal(row.status, 'approved');
  assert.equal(row.reviewer, REVIEWER);
  await until('the title to count 2', async () => (await page.title()) === '(2) Command Safety review');
  // The name is remembered across reloads (localStorage).
  await page.reload();
  assert.equal(await page.locator('#reviewer').inputValue(), REVIEWER);
});

test('a decision made elsewhere and a new prompt show within 2 seconds', async () => {
  const id = rowFor('npm install left-pad').logId;
  const r = cs(['log', 'resolve', String(id), 'reject', '--reviewer', 'someone-else']);
  assert.equal(r.status, 0, r.stderr);
  const t0 = Date.now();
  await until('the card resolved elsewhere to leave', async () => (await card('npm install left-pad').count()) === 0, 2000);
  const fresh = 'curl https://example.com/fresh';
  assert.equal(await seed(fresh), 1);
  await until('the new prompt to show', async () => (await card(fresh).count()) === 1, 2000);
  await until('the title to count 2', async () => (await page.title()) === '(2) Command Safety review', 2000);
  assert.ok(Date.now() - t0 < 5000);
});

test('resolving a row that is no longer pending answers 409 and the page says so', async () => {
  const fresh = 'curl https://example.com/fresh';
  await until('the card', async () => (await card(fresh).count()) === 1);
  // Somebody else approves it; this page has not polled yet when it clicks.
  const id = rowFor(fresh).logId;
  cs(['log', 'resolve', String(id), 'approve', '--reviewer', 'fast-hands']);
  await card(fresh).getByRole('button', { name: 'Reject' }).click({ timeout: 1000 }).catch(() => {});
  const row = rowFor(fresh);
  assert.equal(row.status, 'approved');
  assert.equal(row.reviewer, 'fast-hands');
  // Through the API directly the answer is 409 with the state.
  const st = await page.evaluate(async (rid) => {
    const s = await (await fetch('/api/session')).json();
    const r = await fetch('/api/resolve', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf },
      body: JSON.stringify({ id: rid, outcome: 'reject' }),
    });
    return { status: r.status, body: await r.json() };
  }, id);
  assert.equal(st.status, 409);
  assert.equal(st.body.status, 'approved');
  assert.equal(st.body.reviewer, 'fast-hands');
});

test('a POST with a forged CSRF token is refused (403) even with the cookie', async () => {
  // The page's own fetch with a forged CSRF token.
  const st = await page.evaluate(async () => {
    const r = await fetch('/api/resolve', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'forged' },
      body: JSON.stringify({ id: 1, outcome: 'approve' }),
    });
    return r.status;
  });
  assert.equal(st, 403);
});

test('the decisions tab lists recent decisions with filters', async () => {
  await page.getByRole('tab', { name: 'Decisions' }).click();
  await until('rows', async () => (await page.locator('#decisions-body tr').count()) === 5);
  await page.locator('#f-status').selectOption('approved');
  await until('only approved rows', async () => {
    const st = await page.locator('#decisions-body tr td:nth-child(3)').allTextContents();
    return st.length === 2 && st.every((s) => s === 'approved');
  });
  const reviewers = await page.locator('#decisions-body td.reviewer').allTextContents();
  assert.deepEqual(reviewers.sort(), ['e2e-reviewer', 'fast-hands']);
  await page.locator('#f-status').selectOption('');
  await page.locator('#f-decision').selectOption('allow');
  await until('only the allow row', async () => {
    const cmds = await page.locator('#decisions-body td.cmd').allTextContents();
    return cmds.length === 1 && cmds[0] === 'ls -la';
  });
  await page.locator('#f-decision').selectOption('');
  await page.getByRole('tab', { name: /Pending/ }).click();
  assert.deepEqual(dialogs, []);
});

// Hold mode: real hook processes wait for the page.

test('a held hook is released by Approve on the page and answers allow', async () => {
  const cmd = 'curl https://example.com/held-approve';
  assert.equal(seedAdvisory('git push origin main'), 1); // a prompt nobody waits for: not on the page
  const h = hook(['--hold=30s'], cmd);
  await until('the held card', async () => (await card(cmd).count()) === 1, 5000);
  await until('the waiting badge', async () => (await card(cmd).locator('.held').count()) === 1, 3000);
  assert.match(await card(cmd).locator('.held').textContent(), /an agent is waiting · \d+s left/);
  if (process.env.CS_DOCS) {
    // The README image: a held command on top of prompts nobody waits for.
    await until('the clocks', async () => /left/.test(await card(cmd).locator('.held').textContent()));
    await page.locator('#status').evaluate((e) => { e.textContent = ''; });
    fs.mkdirSync(process.env.CS_DOCS, { recursive: true });
    await page.screenshot({ path: path.join(process.env.CS_DOCS, 'review.png') });
  }
  await sleep(300);
  const clicked = Date.now();
  await card(cmd).getByRole('button', { name: 'Approve' }).click();
  const res = await h.done;
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.answer?.hookSpecificOutput?.permissionDecision, 'allow', res.stdout);
  assert.ok(res.exitedAt - clicked < 2000, `released ${res.exitedAt - clicked} ms after the click`);
  const row = rowFor(cmd);
  assert.equal(row.status, 'approved');
  assert.equal(row.reviewer, REVIEWER);
});

test('a held hook is answered deny with the reviewer name on Reject', async () => {
  const cmd = 'curl https://example.com/held-reject';
  const h = hook(['--hold=30s'], cmd);
  await until('the held card', async () => (await card(cmd).count()) === 1, 5000);
  await card(cmd).getByRole('button', { name: 'Reject' }).click();
  const res = await h.done;
  assert.equal(res.code, 0, res.stderr);
  const out = res.answer?.hookSpecificOutput;
  assert.equal(out?.permissionDecision, 'deny', res.stdout);
  assert.ok(out.permissionDecisionReason.includes(REVIEWER), out.permissionDecisionReason);
  assert.equal(rowFor(cmd).status, 'rejected');
});

test('a held hook that nobody answers times out with deny', async () => {
  const cmd = 'curl https://example.com/held-timeout';
  const h = hook(['--hold=1s'], cmd);
  const res = await h.done;
  assert.equal(res.code, 0, res.stderr);
  const out = res.answer?.hookSpecificOutput;
  assert.equal(out?.permissionDecision, 'deny', res.stdout);
  assert.match(out.permissionDecisionReason, /timed out/);
  assert.ok(res.ms >= 1000 && res.ms < 10_000, `took ${res.ms} ms`);
  const row = rowFor(cmd);
  assert.equal(row.status, 'rejected');
  assert.equal(row.reviewer, 'hold-timeout');
  // It is not left on the page for a late approval.
  await sleep(1500);
  assert.equal(await card(cmd).count(), 0);
});

test('allows and refusals never wait in hold mode', async () => {
  for (const [cmd, want] of [['ls', 'allow'], ['sudo ls', 'deny']]) {
    const res = await hook(['--hold=30s'], cmd).done;
    assert.equal(res.answer?.hookSpecificOutput?.permissionDecision, want, res.stdout);
    assert.ok(res.ms < 5000, `${cmd} took ${res.ms} ms`);
  }
  assert.deepEqual(dialogs, []);
});
