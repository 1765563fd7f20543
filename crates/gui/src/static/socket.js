// The socket to the server. The session's id (from `hello`) is kept in this tab's
// sessionStorage, so that a reload or a dropped connection claims the same session (game
// and engine) back; a lost socket is opened again with a growing pause (0.25 s doubling to
// 8 s), showing "reconnecting…", unless the server refused the page.
import { $ } from './ui.js';

let ws = null;
let retryMs = 250;

export function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }

// The socket now (for the browser tests, which drop it).
export function socket() { return ws; }

// Opens the socket; each message from the server goes to `handle`.
export function connect(handle) {
  const id = sessionStorage.getItem('quartet-session');
  ws = new WebSocket(`ws://${location.host}/ws${id ? '?session=' + id : ''}`);
  ws.onopen = () => { $('conn').textContent = 'connected'; $('conn').classList.add('on'); retryMs = 250; };
  ws.onclose = () => {
    $('conn').classList.remove('on');
    if ($('conn').textContent === 'refused') return;
    $('conn').textContent = 'reconnecting…';
    setTimeout(() => connect(handle), retryMs);
    retryMs = Math.min(2 * retryMs, 8000);
  };
  ws.onmessage = ev => handle(JSON.parse(ev.data));
}

// Keeps the session's id for a reload.
export function remember(session) { if (session) sessionStorage.setItem('quartet-session', session); }
