// The page: one WebSocket to the server, which relays the engine (socket.js). The board is
// drawn from the engine's `query position` JSON and its legal moves (board.js, input.js)
// by the game's board module (<game>.js, listed in ui.js), or by the generic
// board (generic.js) for a game without one; what is a game's own is in its module, and
// this page names no game. The words of an end reason are the engine's (`reason_words`).
// This file takes the server's messages and draws once per animation frame.
import { ui, $, sideName, scale } from './ui.js';
import { connect, send, remember, socket } from './socket.js';
import { afterPaint } from './frame.js';
import { ReviewExport } from './review.js';
import { Analysis, consoleLines } from './panels.js';
import { renderOptions } from './options.js';
import { infoKey, shownKey } from './nav.js';
import { arrangement, forced, humanSide } from './input.js';
import { renderBoard, renderPv, keep, shownTokens } from './board.js';
import { renderStatus, renderActions, renderReveal } from './status.js';
import { renderPanels, evalBar, tickClocks } from './sidebar.js';
import { wire, showMessage, download } from './controls.js';

ui.analysis = new Analysis();

// Measurements for the tests and the README's targets.
const stats = window.guiStats = { states: 0, arrivals: [], lags: [], renders: [], replies: [], loadedAt: null, firstStateAt: null };

function handle(m) {
  const { state } = ui;
  switch (m.t) {
    case 'hello': onHello(m); break;
    case 'state': onState(m); break;
    case 'console': consoleLines(m.lines); break;
    case 'info':
      if (!state) break;
      // A search's lines belong to the position it searched (the viewed one, when looking back).
      if (infoKey(m) !== ui.analysisAt) ui.analysis.reset();
      ui.analysis.add(m);
      ui.analysisAt = infoKey(m);
      schedule('analysis');
      break;
    case 'fault': showMessage(`engine fault: ${m.fault.detail}`); break;
    case 'error': showMessage(m.message, m.fatal); break;
    case 'taken': showMessage(`This game is now open in another tab: Play here takes it back.`, true); break;
    case 'note': showMessage(m.message); break;
    case 'record': if (!ui.reviewExport.take(m)) download(m.text, m.filename); break;
    case 'review_log':
      // The review kept with the session (done, a reload, or a main line changed under
      // it): `quartet review --json`'s game, or null while it is made.
      ui.review = m.review;
      schedule();
      break;
    case 'temperature':
      // The map of the position shown when it was asked (sidebar.js shows it there only).
      ui.temperature = { key: ui.temperatureAsked, map: m.map };
      schedule();
      break;
    case 'review_end':
      $('review-progress').classList.add('hidden');
      schedule();
      break;
    case 'view':
      // A position of the main line, or of a variation (`line`), with its legal moves (a
      // move there plays a variation).
      if (ui.aim && ui.aim.ply === m.ply && ui.aim.line === (m.line ?? null)) ui.aim = null;
      if (state && (m.line != null || m.ply < state.moves.length)) {
        ui.view = { ply: m.ply, line: m.line ?? null, position: m.position, legal: m.legal || [], legal_side: m.legal_side || null };
        keep(shownTokens(), m.position);
        // The position before it, for the marks of the last token's captures.
        if (m.before && m.ply > 0) keep(shownTokens().slice(0, -1), m.before);
        schedule();
      }
      break;
  }
}

function onHello(m) {
  ui.hello = m;
  remember(m.session);
  // The pid is for the console pane (its first line names it), not the header.
  $('engine-name').textContent = `${m.name}${m.author ? ' by ' + m.author : ''}`;
  $('engine-name').dataset.pid = m.pid ?? '';
  const sel = $('game');
  const current = sel.value;
  sel.innerHTML = '';
  for (const g of m.games) { const o = document.createElement('option'); o.value = o.textContent = g; sel.appendChild(o); }
  if (current) sel.value = current;
  ui.helloCount += 1;
  schedule();
}

function onState(s) {
  stats.arrivals.push(Date.now() - s.sent_ms);
  window.guiLastState = s; // for the browser tests: the server's state as received
  // and the position looked back at, once drawn (a view is drawn on the next frame)
  window.guiView = () => ui.drawnView && ui.drawnView.position.fen;
  window.guiSocket = socket; // and the socket, to drop it
  const old = ui.state;
  const sameGame = old && old.game === s.game && old.start_fen === s.start_fen;
  if (!sameGame) ui.flip = s.players[0] === 'engine' && s.players[1] === 'human';
  // A new game, a start from a position or another game: the old analysis is of nothing here.
  if (!sameGame || (s.moves.length === 0 && old.moves.length > 0)) {
    ui.analysis.reset();
    ui.analysisAt = -1;
  }
  // The review is the session's (it sends it when done, and again when the main line
  // changes under it): none, none here.
  if (!s.review) ui.review = null;
  if (!old || old.moves.length !== s.moves.length || JSON.stringify(old.next) !== JSON.stringify(s.next)) {
    ui.sel = null; ui.selKey = null; ui.choice = null;
  }
  // Looking back stays where it is while the game goes on, until its game changes.
  const v = ui.view;
  if (v && (!sameGame || !s.viewing || (v.line === null && v.ply >= s.moves.length))) ui.view = null;
  if (!sameGame || !s.viewing) ui.aim = null;
  ui.state = s;
  keep(s.moves, s.position);
  if (s.before && s.moves.length) keep(s.moves.slice(0, -1), s.before);
  // The clocks as each ply was reached: a take back forgets those after it.
  if (!sameGame) ui.clocksAt = [];
  ui.clocksAt.length = Math.min(ui.clocksAt.length, s.moves.length + 1);
  if (s.clocks && ui.clocksAt[s.moves.length] === undefined) ui.clocksAt[s.moves.length] = s.clocks.left.slice();
  ui.clockBase = s.clocks ? { left: s.clocks.left.slice(), running: s.clocks.running.slice(), at: performance.now() } : null;
  stateDrawn = false;
  schedule();
}

// Drawing happens once per animation frame with the newest state and analysis, so that
// messages never queue behind drawing (engine games at 100 ms a move, bursts of info lines).
// An info line redraws only the analysis (the panel, the bar, the best line on the board),
// at most every ANALYSIS_EVERY ms, so that a search's lines leave the page (and the CPU,
// which the engine needs) free for the engine's move when it comes.
const ANALYSIS_EVERY = 100;
let scheduled = false, stateDrawn = true, boardDirty = false;
let analysisDrawnAt = -Infinity, analysisTimer = null;
function schedule(part = 'state') {
  if (part === 'state') boardDirty = true;
  if (part === 'analysis' && !boardDirty && !scheduled) {
    const wait = analysisDrawnAt + ANALYSIS_EVERY - performance.now();
    if (wait > 0) {
      if (analysisTimer === null) analysisTimer = setTimeout(() => { analysisTimer = null; schedule('analysis'); }, wait);
      return;
    }
  }
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    const t0 = performance.now();
    if (boardDirty) render(); else renderAnalysis();
    analysisDrawnAt = performance.now();
    boardDirty = false;
    if (!stateDrawn) {
      stateDrawn = true;
      measure(t0);
    }
  });
}

// The state's arrival, drawing and (after a person's move) the reply's time, in guiStats.
function measure(t0) {
  const { state } = ui;
  stats.states++;
  stats.lags.push(Date.now() - state.sent_ms);
  stats.renders.push(performance.now() - t0);
  if (stats.firstStateAt === null) stats.firstStateAt = performance.now();
  if (ui.moveSentAt !== null && state.moves.length > ui.movesAtSend && humanSide() && !state.thinking) {
    const sent = ui.moveSentAt;
    const reply = { ms: performance.now() - sent, painted_ms: null, engine_ms: state.reply_ms, limit: state.limit };
    stats.replies.push(reply);
    afterPaint(() => { reply.painted_ms = performance.now() - sent; });
    ui.moveSentAt = null;
  }
}

function render() {
  const { state, view } = ui;
  if (!state) return;
  ui.drawnView = view;
  arrangement.sync(state, state.fault || state.over ? null : humanSide());
  renderBoard();
  renderStatus();
  renderActions();
  renderReveal();
  renderPanels();
  renderOptions((name, value) => send({ t: 'set_option', name, value }));
  renderAnalysis();
  tickClocks();
  forced.follow(state, !!view);
  forced.check(state, !!view, $('auto-forced').checked);
}

// The analysis alone: its panel, the evaluation bar and the best line on the board. The
// panel shows the lines of the position shown only: cleared when another is shown (a view
// changed, a move made), until that one's lines come.
function renderAnalysis() {
  if (!ui.state) return;
  if (ui.analysisAt !== shownKey()) { ui.analysis.reset(); ui.analysisAt = shownKey(); }
  const note = ui.state.analyse && ui.state.analysis_note;
  ui.analysis.note(note || null);
  renderPv();
  ui.analysis.draw(scale(), sideName, ui.analysisAt);
  evalBar();
}

ui.render = render;
ui.schedule = schedule;
window.guiRender = render; // for the browser tests: draw now
// For the browser tests: the review the page holds.
window.guiReview = () => ui.review;
ui.reviewExport = new ReviewExport(() => send({ t: 'record' }), download, showMessage,
  () => ({ review: ui.review, name: sideName, per: ui.state.review && ui.state.review.per }));
wire();
setInterval(tickClocks, 100);
connect(handle);
window.addEventListener('load', () => { stats.loadedAt = performance.now(); });
