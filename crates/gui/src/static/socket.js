// The socket to the server. The session's id (from `hello`) is kept in this tab's
// sessionStorage, so that a reload or a dropped connection claims the same session (game
// and engine) back. The page says at once when it is not connected (issue 39 §1.2): a
// socket closing or closed is given up without waiting for its close to be answered, and a
// quiet socket is asked (`ping`) and given up when the server does not answer. A lost
// socket is opened again with a growing pause (0.25 s doubling to 8 s), showing
// "reconnecting…", unless the server refused the page or another tab took the session
// over: then it waits for Play here. While it is not connected the page is `offline` (the
// board takes no move).
import { ui, $ } from './ui.js';

let ws = null;
let handler = null;
let retryMs = 250, retryTimer = null;
// 'connecting', 'connected', 'reconnecting', 'refused' or 'taken'.
let state = 'connecting';
// When the server was last heard, and when a ping was sent unanswered (0: none).
let heard = 0, pinged = 0;
const QUIET_MS = 10000, PONG_WAIT_MS = 5000;

const WORDS = { connecting: 'connecting…', connected: 'connected', reconnecting: 'reconnecting…', refused: 'refused', taken: 'in another tab' };

function show() {
  const badge = $('conn'), on = state === 'connected';
  if (badge.textContent !== WORDS[state]) badge.textContent = WORDS[state];
  badge.classList.toggle('on', on);
  document.body.classList.toggle('offline', !on);
  $('play-here').classList.toggle('hidden', state !== 'taken');
  ui.schedule();
}

// Whether the page is connected to its session.
export function connected() { return state === 'connected'; }

// The connection's state in words ('reconnecting…', 'in another tab'...).
export function connectionWords() { return WORDS[state]; }

// Sends `obj`; false when the page is not connected: then nothing is sent, and the page
// says so (nothing is dropped in silence).
export function send(obj) {
  if (!ws || ws.readyState !== 1 || state !== 'connected') {
    const box = $('message');
    box.textContent = `Not connected (${WORDS[state]}): nothing was sent.`;
    box.classList.remove('hidden');
    return false;
  }
  ws.send(JSON.stringify(obj));
  return true;
}

// The socket now (for the browser tests, which drop it).
export function socket() { return ws; }

// Opens the socket; each message from the server goes to `handle`.
export function connect(handle) {
  handler = handle;
  open();
  setInterval(watch, 100);
}

function open() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const id = sessionStorage.getItem('quartet-session');
  const s = new WebSocket(`ws://${location.host}/ws${id ? '?session=' + id : ''}`);
  ws = s;
  s.onopen = () => {
    if (ws !== s) return;
    state = 'connected';
    retryMs = 250;
    heard = performance.now();
    pinged = 0;
    show();
  };
  s.onclose = () => { if (ws === s) lost(); };
  s.onmessage = ev => {
    if (ws !== s) return;
    heard = performance.now();
    pinged = 0;
    const m = JSON.parse(ev.data);
    if (m.t === 'pong') return;
    if (m.t === 'taken') state = 'taken';
    if (m.t === 'error' && m.fatal) state = 'refused';
    handler(m);
  };
}

// The socket is gone (closed, closing, or silent): said at once, and another opened unless
// the server refused the page or another tab has the session.
function lost() {
  const old = ws;
  ws = null;
  if (old) {
    old.onopen = old.onclose = old.onmessage = null;
    if (old.readyState < 2) old.close();
  }
  if (state !== 'refused' && state !== 'taken') {
    state = 'reconnecting';
    retryTimer = setTimeout(open, retryMs);
    retryMs = Math.min(2 * retryMs, 8000);
  }
  show();
}

// Every 0.1 s: a socket closing or closed is lost; a quiet one is asked, and lost when it
// does not answer.
function watch() {
  if (!ws) return;
  if (ws.readyState >= 2) { lost(); return; }
  if (ws.readyState !== 1) return;
  const now = performance.now();
  if (pinged && now - pinged > PONG_WAIT_MS) { lost(); return; }
  if (!pinged && now - heard > QUIET_MS) {
    pinged = now;
    ws.send('{"t":"ping"}');
  }
}

// Play here: this tab takes its session back from the tab that took it.
export function playHere() {
  state = 'reconnecting';
  retryMs = 250;
  show();
  open();
}

// Keeps the session's id for a reload.
export function remember(session) { if (session) sessionStorage.setItem('quartet-session', session); }
