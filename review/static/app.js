// The review page of `command-safety review`. Plain JavaScript, no build
// step. Every text that comes from the decision log (commands, reasons,
// names) is set with textContent, never as HTML.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const TITLE = 'Command Safety review';
  const REVIEWER_KEY = 'command-safety.reviewer';
  const POLL_MS = 1000;

  let csrf = '';
  let defaultReviewer = '';
  let skew = 0; // server clock minus browser clock, ms
  let pendingSig = null;
  let decisionsSig = null;
  let busy = false;
  let tab = 'pending';
  const agents = new Set();

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  async function api(path, init) {
    const res = await fetch(path, Object.assign({ credentials: 'same-origin', cache: 'no-store' }, init || {}));
    let body = null;
    try { body = await res.json(); } catch (_) { body = null; }
    return { status: res.status, body };
  }

  let sayTimer = 0;
  function say(text, kind) {
    const s = $('status');
    s.textContent = text;
    s.className = 'status' + (kind ? ' ' + kind : '');
    clearTimeout(sayTimer);
    if (kind !== 'error') sayTimer = setTimeout(() => { s.textContent = ''; }, 10000);
  }

  function signedOut() {
    $('signin').hidden = false;
    $('pending').hidden = true;
    $('decisions').hidden = true;
    document.title = TITLE;
  }

  function since(iso) {
    const ms = Date.now() + skew - Date.parse(iso);
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + 's';
    if (s < 3600) return Math.floor(s / 60) + 'm';
    if (s < 86400) return Math.floor(s / 3600) + 'h';
    return Math.floor(s / 86400) + 'd';
  }

  function left(iso) {
    const s = Math.max(0, Math.round((Date.parse(iso) - Date.now() - skew) / 1000));
    if (s < 60) return s + 's';
    return Math.floor(s / 60) + 'm ' + (s % 60) + 's';
  }

  function refreshClocks() {
    for (const e of document.querySelectorAll('[data-age]')) e.textContent = since(e.dataset.age) + ' ago';
    for (const e of document.querySelectorAll('[data-until]')) e.textContent = 'an agent is waiting · ' + left(e.dataset.until) + ' left';
  }

  // commandView shows the command with the deciding part marked. Spans are
  // byte offsets into the UTF-8 text.
  function commandView(command, span) {
    const pre = el('pre', 'command');
    const code = el('code');
    pre.appendChild(code);
    const bytes = new TextEncoder().encode(command);
    const dec = new TextDecoder();
    if (Array.isArray(span) && span[0] >= 0 && span[1] > span[0] && span[1] <= bytes.length) {
      code.appendChild(document.createTextNode(dec.decode(bytes.slice(0, span[0]))));
      code.appendChild(el('mark', null, dec.decode(bytes.slice(span[0], span[1]))));
      code.appendChild(document.createTextNode(dec.decode(bytes.slice(span[1]))));
    } else {
      code.textContent = command;
    }
    return pre;
  }

  function field(dl, name, value, cls) {
    if (value === undefined || value === null || value === '') return;
    dl.appendChild(el('dt', null, name));
    const dd = el('dd', cls);
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = String(value);
    dl.appendChild(dd);
  }

  function card(e) {
    const li = el('li', 'card');
    li.dataset.id = String(e.logId);
    const head = el('div', 'head');
    head.appendChild(el('span', 'badge prompt', 'prompt'));
    head.appendChild(el('span', 'agent', e.agent + (e.mode ? ' · ' + e.mode : '')));
    const age = el('span', 'age');
    age.dataset.age = e.time;
    head.appendChild(age);
    if (e.held) {
      const h = el('span', 'held');
      h.dataset.until = e.holdUntil;
      head.appendChild(h);
    } else {
      const h = el('span', 'unheld', 'not held');
      h.title = 'No process waits on this prompt: the agent asked at its own prompt. Resolving it records your answer in the log.';
      head.appendChild(h);
    }
    head.appendChild(el('span', 'id', '#' + e.logId));
    li.appendChild(head);
    li.appendChild(commandView(e.command, e.decidedBy ? e.decidedBy.span : null));

    const dl = el('dl', 'facts');
    if (e.decidedBy) {
      const d = el('span');
      d.appendChild(el('code', null, e.decidedBy.text));
      d.appendChild(document.createTextNode(' — ' + e.decidedBy.effect));
      field(dl, 'Deciding part', d);
    }
    field(dl, 'Reason', e.reason, 'reason');
    if (Array.isArray(e.effects) && e.effects.length) {
      const ul = el('ul', 'effects');
      for (const p of e.effects) {
        const item = el('li', 'effect ' + p.decision);
        item.appendChild(el('span', 'class', p.effect));
        item.appendChild(el('code', null, p.text));
        ul.appendChild(item);
      }
      field(dl, 'Effects', ul);
    }
    field(dl, 'Cwd', e.cwd || '(unknown)', 'cwd');
    li.appendChild(dl);

    const actions = el('div', 'actions');
    const ok = el('button', 'approve', 'Approve');
    ok.type = 'button';
    ok.addEventListener('click', () => resolve(e, 'approve', li));
    const no = el('button', 'reject', 'Reject');
    no.type = 'button';
    no.addEventListener('click', () => resolve(e, 'reject', li));
    actions.appendChild(ok);
    actions.appendChild(no);
    li.appendChild(actions);
    return li;
  }

  function renderPending(data) {
    const n = data.count || 0;
    document.title = (n > 0 ? '(' + n + ') ' : '') + TITLE;
    $('pending-count').textContent = String(n);
    const sig = JSON.stringify(data.entries);
    if (sig === pendingSig) return;
    pendingSig = sig;
    const list = $('pending-list');
    list.replaceChildren(...data.entries.map(card));
    $('pending-empty').hidden = data.entries.length > 0;
    for (const e of data.entries) agents.add(e.agent);
  }

  function fmtTime(iso) {
    const d = new Date(iso);
    const pad = (x) => String(x).padStart(2, '0');
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' +
      pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  }

  function renderDecisions(data) {
    const sig = JSON.stringify(data.entries);
    if (sig === decisionsSig) return;
    decisionsSig = sig;
    const rows = data.entries.map((e) => {
      agents.add(e.agent);
      const tr = el('tr');
      tr.dataset.id = String(e.logId);
      tr.appendChild(el('td', 'time', fmtTime(e.time)));
      tr.appendChild(el('td', null)).appendChild(el('span', 'badge ' + e.decision, e.decision));
      tr.appendChild(el('td', null)).appendChild(el('span', 'status-' + e.status, e.status));
      tr.appendChild(el('td', 'agent', e.agent));
      const c = el('td', 'cmd');
      c.appendChild(el('code', null, e.command));
      c.title = e.reason || '';
      tr.appendChild(c);
      tr.appendChild(el('td', 'reviewer', e.reviewer || ''));
      return tr;
    });
    $('decisions-body').replaceChildren(...rows);
    $('decisions-empty').hidden = rows.length > 0;
    const dl = $('agents');
    dl.replaceChildren(...[...agents].sort().map((a) => { const o = el('option'); o.value = a; return o; }));
  }

  async function loadPending() {
    const r = await api('/api/pending');
    if (r.status === 401) { signedOut(); return false; }
    if (r.status !== 200 || !r.body) { say('Cannot read the pending list (' + r.status + ')', 'error'); return true; }
    skew = Date.parse(r.body.now) - Date.now();
    renderPending(r.body);
    return true;
  }

  async function loadDecisions() {
    const q = new URLSearchParams();
    const d = $('f-decision').value, s = $('f-status').value, a = $('f-agent').value.trim();
    if (d) q.set('decision', d);
    if (s) q.set('status', s);
    if (a) q.set('agent', a);
    q.set('limit', '200');
    const r = await api('/api/decisions?' + q.toString());
    if (r.status === 401) { signedOut(); return false; }
    if (r.status !== 200 || !r.body) { say('Cannot read decisions: ' + ((r.body && r.body.error) || r.status), 'error'); return true; }
    renderDecisions(r.body);
    return true;
  }

  async function tick() {
    if (busy) return;
    busy = true;
    try {
      if (await loadPending() && tab === 'decisions') await loadDecisions();
      refreshClocks();
    } catch (err) {
      say('The review server does not answer (' + err.message + ')', 'error');
    } finally {
      busy = false;
    }
  }

  async function resolve(e, outcome, li) {
    for (const b of li.querySelectorAll('button')) b.disabled = true;
    const reviewer = $('reviewer').value.trim();
    let r;
    try {
      r = await api('/api/resolve', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
        body: JSON.stringify({ id: e.logId, outcome, reviewer }),
      });
    } catch (err) {
      say('The review server does not answer (' + err.message + ')', 'error');
      for (const b of li.querySelectorAll('button')) b.disabled = false;
      return;
    }
    if (r.status === 200) {
      const x = r.body.entry;
      say('#' + x.logId + ' ' + x.status + ' by ' + x.reviewer + ': ' + x.command, 'ok');
    } else if (r.status === 409) {
      say('#' + e.logId + ' was already ' + r.body.status + (r.body.reviewer ? ' by ' + r.body.reviewer : ''), 'warn');
    } else if (r.status === 401) {
      signedOut();
      return;
    } else {
      say('Could not ' + outcome + ' #' + e.logId + ': ' + ((r.body && r.body.error) || r.status), 'error');
      for (const b of li.querySelectorAll('button')) b.disabled = false;
      return;
    }
    pendingSig = null;
    decisionsSig = null;
    tick();
  }

  function show(which) {
    tab = which;
    $('pending').hidden = which !== 'pending';
    $('decisions').hidden = which !== 'decisions';
    $('tab-pending').setAttribute('aria-selected', String(which === 'pending'));
    $('tab-decisions').setAttribute('aria-selected', String(which === 'decisions'));
    if (location.hash !== '#' + which) history.replaceState(null, '', '#' + which);
    decisionsSig = null;
    tick();
  }

  async function start() {
    $('tab-pending').addEventListener('click', () => show('pending'));
    $('tab-decisions').addEventListener('click', () => show('decisions'));
    $('filters').addEventListener('submit', (ev) => { ev.preventDefault(); decisionsSig = null; tick(); });
    for (const id of ['f-decision', 'f-status', 'f-agent']) {
      $(id).addEventListener('change', () => { decisionsSig = null; tick(); });
    }
    const input = $('reviewer');
    input.addEventListener('input', () => {
      const v = input.value.trim();
      if (v) localStorage.setItem(REVIEWER_KEY, v); else localStorage.removeItem(REVIEWER_KEY);
    });

    const r = await api('/api/session');
    if (r.status !== 200 || !r.body) { signedOut(); return; }
    csrf = r.body.csrf;
    defaultReviewer = r.body.reviewer || '';
    input.value = localStorage.getItem(REVIEWER_KEY) || defaultReviewer;
    input.placeholder = defaultReviewer || 'your name';
    show(location.hash === '#decisions' ? 'decisions' : 'pending');
    setInterval(tick, POLL_MS);
  }

  document.addEventListener('DOMContentLoaded', () => {
    start().catch((err) => say('The review server does not answer (' + err.message + ')', 'error'));
  });
})();
