// The page: one WebSocket to the server, which relays the engine. The board is drawn from
// the engine's `query position` JSON, legal targets from its `query legalmoves` lists, by
// one drawing module per game (rnb.js, duell.js, apocalypse.js, ludo.js), or by the generic
// board (generic.js) for a game without one; this file still branches on the game's name
// for Ludo's marks and sizes. The words of an end reason are the engine's (`reason_words`).
import { el, defs, arrow, polyline, captureMark } from './svg.js';
import { afterPaint } from './frame.js';
import { drawGraph, judge, markMoves, summary, ReviewExport } from './review.js';
import { tokenSquares } from './grid.js';
import * as setup from './arrange.js';
import { drawVariations, lineEnd } from './variations.js';
import { ForcedMoves, pressDefault } from './forced.js';
import * as rnb from './rnb.js';
import * as duell from './duell.js';
import * as apocalypse from './apocalypse.js';
import * as ludo from './ludo.js';
import * as generic from './generic.js';
import { Analysis, consoleLines, drawOptions, drawMoves, scoreText, barFraction } from './panels.js';

const GAMES = { rnb, duell, apocalypse, ludo };
// The board module of a game: its own, or the generic board (generic.js) for a game without
// one, or for every game when the page's address asks for it (`?board=generic`, for tests).
const ALL_GENERIC = new URLSearchParams(location.search).get('board') === 'generic';
function moduleOf(game) { return (!ALL_GENERIC && GAMES[game]) || generic; }
const $ = id => document.getElementById(id);

let ws = null;
let state = null;
// The board as last drawn: its layers, geometry and game module (for redrawing the best line).
let drawn = null;
let movesShown = null;
let setupShown = null;
let hello = null;
let flip = false;
let sel = null, selKey = null, choice = null, voidMode = false;
let removed = [];
// While stepping back through the game: the ply shown and its position; null for the game now.
let view = null;
// The board key a drag started on (a piece that can move), until the pointer is released.
let dragFrom = null;
// The review's results by ply (null: not reviewed), for the game of `reviewOf`.
let reviewed = [], reviewOf = null;
let analysis = new Analysis();
// A person's arrangement at a setup turn (arrange.js).
const arrangement = new setup.Arrangement();
// Forced moves played by themselves when "Play forced moves" is on (forced.js).
const forced = new ForcedMoves(token => play(token));
let analysisAt = '';
let clockBase = null;
let moveSentAt = null, movesAtSend = 0;

// Measurements for the tests and the README's targets.
const stats = window.guiStats = { states: 0, arrivals: [], lags: [], renders: [], replies: [], loadedAt: null, firstStateAt: null };

// The largest record the server takes (1 MiB with the message around it).
const MAX_RECORD = (1 << 20) - 64;

function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }

function sideName(side) {
  const mod = state && moduleOf(state.game);
  return mod ? mod.sides[side] : side;
}

// The socket. The session's id (from `hello`) is kept in this tab's sessionStorage, so that
// a reload or a dropped connection claims the same session (game and engine) back; a lost
// socket is opened again with a growing pause (0.25 s doubling to 8 s), showing
// "reconnecting…", unless the server refused the page.
let retryMs = 250;
function connect() {
  const id = sessionStorage.getItem('quartet-session');
  ws = new WebSocket(`ws://${location.host}/ws${id ? '?session=' + id : ''}`);
  ws.onopen = () => { $('conn').textContent = 'connected'; $('conn').classList.add('on'); retryMs = 250; };
  ws.onclose = () => {
    $('conn').classList.remove('on');
    if ($('conn').textContent === 'refused') return;
    $('conn').textContent = 'reconnecting…';
    setTimeout(connect, retryMs);
    retryMs = Math.min(2 * retryMs, 8000);
  };
  ws.onmessage = ev => handle(JSON.parse(ev.data));
}

function handle(m) {
  switch (m.t) {
    case 'hello': onHello(m); break;
    case 'state': onState(m); break;
    case 'console': consoleLines(m.lines); break;
    case 'info':
      if (!state) break;
      // A search's lines belong to the position it searched (the viewed one, when looking back).
      if (infoKey(m) !== analysisAt) analysis.reset();
      analysis.add(m);
      analysisAt = infoKey(m);
      schedule('analysis');
      break;
    case 'fault': showMessage(`engine fault: ${m.fault.detail}`); break;
    case 'error':
      showMessage(m.message, m.fatal);
      if (m.fatal) $('conn').textContent = 'refused';
      break;
    case 'note': showMessage(m.message); break;
    case 'record': if (!reviewExport.take(m)) download(m.text, m.filename); break;
    case 'review':
      reviewed[m.ply] = m;
      reviewed.length = Math.max(reviewed.length, m.total);
      $('review-progress').value = (m.ply + 1) / m.total;
      schedule();
      break;
    case 'review_end':
      $('review-progress').classList.add('hidden');
      schedule();
      break;
    case 'view':
      // A position of the main line, or of a variation (`line`), with its legal moves (a
      // move there plays a variation).
      if (state && (m.line != null || m.ply < state.moves.length)) {
        view = { ply: m.ply, line: m.line ?? null, position: m.position, legal: m.legal || [] };
        schedule();
      }
      break;
  }
}

// Shows a message for 8 s, or until the page is reloaded when `lasting`.
function showMessage(text, lasting) {
  const box = $('message');
  box.textContent = text;
  box.classList.remove('hidden');
  clearTimeout(showMessage.timer);
  if (!lasting) showMessage.timer = setTimeout(() => box.classList.add('hidden'), 8000);
}

function onHello(m) {
  hello = m;
  if (m.session) sessionStorage.setItem('quartet-session', m.session);
  // The pid is for the console pane (its first line names it), not the header.
  $('engine-name').textContent = `${m.name}${m.author ? ' by ' + m.author : ''}`;
  $('engine-name').dataset.pid = m.pid ?? '';
  const sel = $('game');
  const current = sel.value;
  sel.innerHTML = '';
  for (const g of m.games) { const o = document.createElement('option'); o.value = o.textContent = g; sel.appendChild(o); }
  if (current) sel.value = current;
  drawOptions(m.options, (name, value) => send({ t: 'set_option', name, value }));
}

function onState(s) {
  stats.arrivals.push(Date.now() - s.sent_ms);
  window.guiLastState = s; // for the browser tests: the server's state as received
  window.guiView = () => view && view.position.fen; // and the position looked back at
  window.guiSocket = () => ws; // and the socket, to drop it
  const old = state;
  const sameGame = old && old.game === s.game && old.start_fen === s.start_fen;
  if (!sameGame) flip = s.players[0] === 'engine' && s.players[1] === 'human';
  // A new game, a start from a position or another game: the old analysis is of nothing here.
  if (!sameGame || (s.moves.length === 0 && old.moves.length > 0)) {
    analysis.reset();
    analysisAt = -1;
  }
  // A review belongs to the moves it saw: a new game or a take back before them drops it.
  const key = `${s.game} ${s.start_fen}`;
  if (reviewOf !== key || s.moves.length < reviewed.length - 1) { reviewed = []; reviewOf = key; }
  // Pieces gone since the previous position (captures), when one token was added.
  removed = [];
  if (sameGame && old.position && s.position && s.moves.length === old.moves.length + 1) {
    removed = goneSince(old, s);
  } else if (sameGame && old && s.moves.length === old.moves.length) {
    removed = state.removedKeep || [];
  }
  s.removedKeep = removed;
  if (s.thinking && (!old || !old.thinking)) analysis.reset();
  if (!old || old.moves.length !== s.moves.length || JSON.stringify(old.next) !== JSON.stringify(s.next)) {
    sel = null; selKey = null; choice = null;
  }
  // Looking back stays where it is while the game goes on, until its game changes.
  if (view && (!sameGame || !s.viewing || (view.line === null && view.ply >= s.moves.length))) view = null;
  state = s;
  clockBase = s.clocks ? { left: s.clocks.left.slice(), running: s.clocks.running.slice(), at: performance.now() } : null;
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
      stats.states++;
      stats.lags.push(Date.now() - state.sent_ms);
      stats.renders.push(performance.now() - t0);
      if (stats.firstStateAt === null) stats.firstStateAt = performance.now();
      if (moveSentAt !== null && state.moves.length > movesAtSend && humanSide() && !state.thinking) {
        const sent = moveSentAt;
        const reply = { ms: performance.now() - sent, painted_ms: null, engine_ms: state.reply_ms, limit: state.limit };
        stats.replies.push(reply);
        afterPaint(() => { reply.painted_ms = performance.now() - sent; });
        moveSentAt = null;
      }
    }
  });
}

// Pieces of the previous position that are not there any more, leaving out the squares the
// last token's movers left.
function goneSince(old, s) {
  const mod = moduleOf(s.game);
  const i = s.moves.length - 1, actor = s.actors[i];
  const fromKeys = new Set();
  for (const tok of s.moves[i].split('/')) {
    const side = actor.kind === 'move' ? actor.side : null;
    const t = s.game === 'ludo' ? (side ? ludo.parse(tok, old.position, side) : null) : tokenSquares(tok);
    if (t && s.game === 'ludo') t.srcKeys.forEach(k => fromKeys.add(k));
    else if (t && t.from) fromKeys.add(t.from);
  }
  const now = new Set(mod.pieceKeys(s.position).map(p => `${p.key}|${p.owner}`));
  return mod.pieceKeys(old.position).filter(p => !now.has(`${p.key}|${p.owner}`) && !fromKeys.has(p.key)).map(p => p.key);
}

// Shows the position after `ply` tokens of the main line (the game now at its last ply) or
// of variation `line` (the one looked at unless given).
function goTo(ply, line = view ? view.line : null) {
  if (!state) return;
  const end = line === null ? null : lineEnd(state, line);
  if (end !== null) { send({ t: 'view', ply: Math.max(0, Math.min(ply, end)), line }); return; }
  ply = Math.max(0, Math.min(ply, state.moves.length));
  if (ply === state.moves.length) { view = null; schedule(); }
  send({ t: 'view', ply });
}

function shownPly() { return view ? view.ply : (state ? state.moves.length : 0); }

// The position shown as the analysis names it: the variation (if any) and the ply.
function shownKey() { return `${view && view.line !== null ? view.line : ''}:${shownPly()}`; }
function infoKey(m) { return `${m.line ?? ''}:${m.ply}`; }

// The side a person acts for now: at a position looked back at, its side to move (a move
// there plays a variation), when the server sent its legal moves.
function humanSide() {
  if (view) return view.legal.length && view.position.node === 'turn' ? view.position.to_act : null;
  const n = state && state.next;
  return n && n.kind.startsWith('human') ? n.side : null;
}

function humanTokens() {
  if (view) return view.legal;
  const n = state.next;
  if (n.kind === 'human_move') return state.legal;
  // (null: too many to list; the page builds that declaration itself, arrange.js)
  if (n.kind === 'human_declare') return state.legal_side[n.side === 'p1' ? 0 : 1] || [];
  return [];
}

function parsedTokens() {
  const mod = moduleOf(state.game), side = humanSide();
  const pos = view ? view.position : state.position;
  return humanTokens().map(t => ({ t, p: mod.parse(t, pos, side) }));
}

function play(token, isVoid = false) {
  send({ t: 'move', token, void: isVoid });
  moveSentAt = performance.now();
  movesAtSend = state.moves.length;
  sel = null; selKey = null; choice = null;
}

function clickKey(k) {
  if (!state || !state.position || !humanSide() || (!view && state.next.kind === 'human_roll') || state.fault) return;
  if (arrangement.active) { arrangement.click(k); render(); return; }
  const parsed = parsedTokens();
  if (choice) {
    const opt = choice.find(o => o.key === k);
    choice = null;
    if (opt) { play(opt.token); return; }
  }
  if (sel) {
    const cands = parsed.filter(x => x.p && x.p.group === sel && x.p.dst === k);
    if (cands.length === 1) { play(cands[0].t); return; }
    if (cands.length > 1) { choice = moduleOf(state.game).choices(cands.map(c => c.t)); render(); return; }
    if (voidMode && state.game === 'apocalypse' && /^[a-e][1-5]$/.test(k) && k !== selKey) {
      play(selKey + k, true);
      return;
    }
  }
  const srcs = parsed.filter(x => x.p && x.p.srcKeys.includes(k));
  const own = state.position.pieces.some(p => p.square === k && p.owner === humanSide());
  if (srcs.length) { sel = srcs[0].p.group; selKey = k; }
  else if (voidMode && state.game === 'apocalypse' && own) { sel = '__void'; selKey = k; }
  else { sel = null; selKey = null; }
  render();
}

function render() {
  if (!state) return;
  arrangement.sync(state, state.fault || state.over ? null : humanSide());
  renderBoard();
  renderStatus();
  renderActions();
  renderReveal();
  renderPanels();
  renderAnalysis();
  tickClocks();
  forced.follow(state, !!view);
  forced.check(state, !!view, $('auto-forced').checked);
}

// The analysis alone: its panel, the evaluation bar and the best line on the board.
function renderAnalysis() {
  if (!state) return;
  renderPv();
  analysis.draw(state.game, sideName);
  evalBar();
}

// The board's layers, bottom to top. The still ones (the squares and the click targets)
// are kept from one drawing to the next while the game, the layout and the module's
// boardKey stay the same; the others are drawn anew each time.
const LAYERS = ['board', 'info', 'pv-marks', 'marks', 'pieces', 'over', 'pv', 'hit'];
const STILL = new Set(['board', 'hit']);
let still = null;

function renderBoard() {
  // At a setup turn: the arrangement being made, or a person's declared one.
  const now = arrangement.active ? arrangement.preview() : setup.declaredPreview(state) || state.position;
  const pos = view ? view.position : now, svg = $('board');
  drawn = null;
  if (!pos) { svg.replaceChildren(); still = null; return; }
  const mod = moduleOf(state.game);
  const G = mod.layout(pos, flip);
  const ctx = { sideName, extraRoll: extraRoll() };
  const key = [state.game, flip, G.w, G.h, mod.boardKey(pos)].join('|');
  let L;
  if (still && still.key === key) {
    L = still.L;
    for (const name of LAYERS) if (!STILL.has(name)) L[name].replaceChildren();
    for (const h of L.hit.querySelectorAll('.source, .target, .choice')) h.classList.remove('source', 'target', 'choice');
  } else {
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${G.w} ${G.h}`);
    svg.setAttribute('width', G.w);
    svg.setAttribute('height', G.h);
    svg.style.setProperty('--aspect', G.w / G.h);
    defs(svg);
    L = {};
    for (const name of LAYERS) L[name] = el('g', { class: 'layer-' + name }, svg);
    mod.drawBoard(G, pos, L, ctx);
    still = { key, L };
  }
  svg.dataset.game = state.game;
  svg.dataset.board = mod === generic ? 'generic' : state.game;
  svg.dataset.flipped = flip;
  mod.draw(G, pos, L, ctx);
  const centre = k => mod.centre(G, k);
  const cellMark = (k, cls, layer = L.marks) => {
    const c = centre(k);
    if (!c) return;
    const s = state.game === 'ludo' ? 38 : 60;
    el('rect', { x: c.x - s / 2, y: c.y - s / 2, width: s, height: s, class: cls }, layer);
  };
  drawn = { L, mod, pos, centre, cellMark };
  // The last move (a joint turn is shown by the reveal).
  const ply = shownPly();
  const i = state.actors.slice(0, ply).map(a => a.kind).lastIndexOf('move');
  if (i >= 0 && i >= ply - 3 && !(view && view.line !== null)) {
    const tok = state.moves[i], side = state.actors[i].side;
    const marks = state.game === 'ludo' ? ludo.marksFor(tok, pos, side) : mod.marks(tok, pos, side);
    for (const m of marks) {
      if (m.at) { cellMark(m.at, 'last-mark'); continue; }
      cellMark(m.from, 'last-mark'); cellMark(m.to, 'last-mark');
      arrow(L.over, centre(m.from), centre(m.to), 'last', 0.8, (m.via || []).map(centre)).classList.add('last-move');
    }
  }
  if (state.reveal && state.game === 'apocalypse' && !view) {
    const r = state.reveal;
    [[r.w, 'w', 0], [r.b, 'b', 1]].forEach(([tok, kind, idx]) => {
      const t = tokenSquares(tok);
      if (t && t.from) arrow(L.over, centre(t.from), centre(t.to), r.void[idx] ? 'void' : kind).classList.add('reveal-' + kind);
      if (t && t.drop) arrow(L.over, centre(t.to), centre(t.drop), r.void[idx] ? 'void' : kind, 0.6);
    });
    for (const k of revealDeaths()) captureMark(L.marks, centre(k), 60, k).classList.add('died');
  }
  if (!view) for (const k of removed) captureMark(L.marks, centre(k), state.game === 'ludo' ? 38 : 60, k);
  // Selection, targets, choices.
  if (arrangement.active) {
    const targets = new Set(arrangement.targets()), sources = new Set(arrangement.sources());
    for (const h of L.hit.querySelectorAll('[data-key]')) {
      if (sources.has(h.dataset.key)) h.classList.add('source');
      if (targets.has(h.dataset.key)) h.classList.add('target');
    }
    const letter = arrangement.nextLetter(), c = letter && centre(arrangement.handKey(letter));
    if (c) el('circle', { cx: c.x, cy: c.y, r: 24, class: 'sel-ring' }, L.marks);
  } else if (humanSide() && !state.fault) {
    const parsed = parsedTokens();
    const sources = new Set(parsed.flatMap(x => (x.p ? x.p.srcKeys : [])));
    for (const h of L.hit.querySelectorAll('[data-key]')) if (sources.has(h.dataset.key)) h.classList.add('source');
    if (selKey) {
      const c = centre(selKey);
      el('circle', { cx: c.x, cy: c.y, r: state.game === 'ludo' ? 17 : 28, class: 'sel-ring' }, L.marks);
      const mine = parsed.filter(x => x.p && x.p.group === sel);
      for (const x of mine) {
        const d = centre(x.p.dst);
        if (mod.path) polyline(L.marks, mod.path(x.t).map(centre), 'path');
        el('circle', { cx: d.x, cy: d.y, r: state.game === 'ludo' ? 8 : 12, class: 'target-dot' }, L.marks);
        const hit = L.hit.querySelector(`[data-key="${x.p.dst}"]`);
        if (hit) hit.classList.add('target');
      }
    }
    if (choice) {
      for (const o of choice) if (o.key) {
        const c = centre(o.key);
        el('circle', { cx: c.x, cy: c.y, r: 24, class: 'choice-ring' }, L.marks);
        const hit = L.hit.querySelector(`[data-key="${o.key}"]`);
        if (hit) hit.classList.add('choice');
      }
    }
  }
  const keyOf = e => e.target && e.target.dataset && e.target.dataset.key;
  svg.onclick = e => { const k = keyOf(e); if (k) clickKey(k); };
  // Drag and drop: a press on a piece that can move and a release on another square are
  // the two clicks (a click ends where it began, so it never reaches these two).
  svg.onpointerdown = e => {
    const k = keyOf(e);
    dragFrom = k && L.hit.querySelector(`[data-key="${k}"].source`) ? k : null;
  };
  svg.onpointerup = e => {
    const k = keyOf(e), from = dragFrom;
    dragFrom = null;
    if (from && k !== from && arrangement.active) { arrangement.drop(from, k); render(); return; }
    if (!from || !k || k === from) return;
    if (selKey !== from) clickKey(from);
    clickKey(k);
  };
}

// The best line of the running analysis or search, while it belongs to this position, in
// its own two layers of the board (redrawn without the rest for each info line).
function renderPv() {
  if (!drawn) return;
  const { L, mod, pos, centre, cellMark } = drawn;
  L.pv.replaceChildren();
  L['pv-marks'].replaceChildren();
  if (analysisAt !== shownKey()) return;
  // The first move of each MultiPV line, ranked by colour and strength (line 1 boldest).
  const pvSide = analysis.best() ? analysis.best().pov : null;
  analysis.firstMoves().slice(0, 5).forEach((tok, j) => {
    const m = state.game === 'ludo' ? (pvSide ? ludo.marksFor(tok, pos, pvSide)[0] : null) : mod.marks(tok, pos, pvSide)[0];
    if (m && m.from) {
      const a = arrow(L.pv, centre(m.from), centre(m.to), 'pv', [0.9, 0.75, 0.6, 0.5, 0.45][j], (m.via || []).map(centre));
      a.classList.add('pv-arrow', `pv-rank-${j + 1}`);
    } else if (m && m.at) cellMark(m.at, 'last-mark', L['pv-marks']);
  });
}

// Apocalypse: the squares (before the turn) of the movers of legal declarations that did
// not survive it.
function revealDeaths() {
  const r = state.reveal, out = [];
  const after = state.position.pieces;
  [[r.w, 'p1', 0], [r.b, 'p2', 1]].forEach(([tok, side, idx]) => {
    const t = tokenSquares(tok);
    if (r.void[idx] || !t || !t.from) return;
    const end = t.drop || t.to;
    if (!after.some(p => p.owner === side && p.square === end)) out.push(t.from);
  });
  return out;
}

function revealText() {
  const r = state.reveal, before = r.before.pieces, after = state.position.pieces;
  const names = ['p1', 'p2'].map(sideName);
  const parts = [`${names[0]} declared ${r.w}, ${names[1]} declared ${r.b}.`];
  const tw = tokenSquares(r.w), tb = tokenSquares(r.b);
  r.void.forEach((v, i) => { if (v) parts.push(`${names[i]}'s declaration is void: +1 penalty point.`); });
  const legal = [tw && !r.void[0] ? tw : null, tb && !r.void[1] ? tb : null];
  if (legal[0] && legal[1] && legal[0].to === legal[1].to) {
    const left = after.filter(p => p.square === legal[0].to);
    parts.push(`Collision on ${legal[0].to}: ${left.length ? `the ${sideName(left[0].owner)} ${left[0].kind} stays` : 'both are removed'}.`);
  }
  if (legal[0] && legal[1] && legal[0].from === legal[1].to && legal[1].from === legal[0].to) parts.push('Swap: the two pieces pass each other unharmed.');
  legal.forEach((t, i) => {
    if (!t) return;
    const side = i ? 'p2' : 'p1';
    const moved = before.find(p => p.square === t.from && p.owner === side);
    const now = after.find(p => p.square === (t.drop || t.to) && p.owner === side);
    if (moved && moved.kind === 'pawn' && now && now.kind === 'knight') parts.push(`${names[i]}'s pawn promotes to a knight on ${t.to}.`);
    if (t.drop) parts.push(now ? `${names[i]}'s pawn redeploys from ${t.to} to ${t.drop}.` : `${names[i]}'s redeploy to ${t.drop} fails: the pawn is removed.`);
  });
  const gone = before.filter(p => !after.some(q => q.square === p.square && q.owner === p.owner) &&
    !legal.some(t => t && t.from === p.square));
  if (gone.length) parts.push('Captured: ' + gone.map(p => `${sideName(p.owner)} ${p.kind} on ${p.square}`).join(', ') + '.');
  return parts.join(' ');
}

function renderReveal() {
  const box = $('reveal');
  if (setup.isSetupReveal(state.reveal) && state.position) {
    box.textContent = setup.revealText(state, sideName);
    box.classList.remove('hidden');
  } else if (state.reveal && state.game === 'apocalypse' && state.position) {
    box.textContent = revealText();
    box.classList.remove('hidden');
  } else box.classList.add('hidden');
}

function extraRoll() {
  if (state.game !== 'ludo' || !state.position || state.position.node !== 'chance') return false;
  const a = state.actors[state.actors.length - 1];
  return !!a && a.kind === 'move' && a.side === state.position.to_act;
}

function renderStatus() {
  const st = $('status');
  st.className = '';
  const pos = state.position;
  let text = '';
  const humans = state.players.filter(p => p === 'human').length;
  if (state.over) {
    const r = state.over.result;
    const who = r === 'draw' ? 'Draw' : `${sideName(r === 'p1win' ? 'p1' : 'p2')} wins`;
    text = `Game over: ${who} (${state.over.words || state.over.reason || ''})`;
    st.className = 'over';
  } else if (state.fault) {
    text = `Stopped: engine ${state.fault.kind}${state.fault.side ? ` playing ${sideName(state.fault.side)}` : ''}`;
  } else if (state.thinking && state.thinking.purpose.kind !== 'analysis') {
    text = `${sideName(state.thinking.purpose.side)} (engine) is thinking…`;
  } else if (pos) {
    const n = state.next, you = humans === 1 ? ' (you)' : '';
    if (n.kind === 'human_move') text = `${sideName(n.side)} to move${you}`;
    else if (n.kind === 'human_roll') text = `${sideName(n.side)} to roll${you}`;
    else if (n.kind === 'human_declare' && arrangement.active) text = `${sideName(n.side)} arranges its soldiers in secret${you}`;
    else if (n.kind === 'human_declare') text = `${sideName(n.side)} declares a move in secret${you}`;
    else if (n.kind === 'engine_roll') text = `${sideName(n.side)} (engine) rolls`;
    else if (n.kind.startsWith('engine')) text = `${sideName(n.side)} (engine) to act`;
    if (pos.node === 'simultaneous') {
      ['p1', 'p2'].forEach((s, i) => { const d = state.declared[i]; if (d) text += ` · ${sideName(s)} has declared${d !== 'hidden' ? ` ${d} (hidden)` : ' (hidden)'}`; });
    }
    if (extraRoll()) text += ' · extra roll';
  }
  if (state.paused && !state.over) text += ' · paused';
  st.textContent = text;
  st.dataset.next = state.next.kind;
}

function renderActions() {
  const box = $('actions');
  box.innerHTML = '';
  const add = (label, fn, attrs = {}) => {
    const b = document.createElement('button');
    b.textContent = label;
    Object.assign(b.dataset, attrs);
    if (attrs.id) b.id = attrs.id;
    b.addEventListener('click', fn);
    box.appendChild(b);
    return b;
  };
  // At a position looked back at: a move without a square (a pass), or a choice.
  if (view && !state.fault) {
    if (view.position.node === 'chance' && view.legal.length) add('Roll the die', () => send({ t: 'roll' }), { id: 'roll' });
    else for (const x of parsedTokens()) if (!x.p) add(x.t === 'pass' ? 'Pass' : x.t, () => play(x.t), { token: x.t });
    if (choice) for (const o of choice) add(o.label, () => play(o.token), { token: o.token });
    markDefault(box);
    return;
  }
  if (state.fault || state.over) return;
  const n = state.next;
  if (arrangement.active) { setup.drawControls(box, arrangement, render, tok => play(tok)); markDefault(box); return; }
  if (n.kind === 'human_roll') add('Roll the die', () => send({ t: 'roll' }), { id: 'roll' });
  if (n.kind === 'human_move' || n.kind === 'human_declare') {
    for (const x of parsedTokens()) if (!x.p) add(x.t === 'pass' ? 'Pass' : x.t, () => play(x.t), { token: x.t });
  }
  if (choice) for (const o of choice) add(o.label, () => play(o.token), { token: o.token });
  markDefault(box);
  if (n.kind === 'human_declare') {
    const lab = document.createElement('label');
    lab.innerHTML = '<input type="checkbox" id="void-mode"> allow void declarations';
    lab.querySelector('input').checked = voidMode;
    lab.querySelector('input').addEventListener('change', e => { voidMode = e.target.checked; render(); });
    box.appendChild(lab);
    if (voidMode) add('Declare nothing (0000)', () => play('0000', true), { id: 'declare-0000' });
  }
}

// The button Enter presses (forced.js): Ready, the first of a choice, a lone move button
// (a pass), or the roll.
function markDefault(box) {
  const ready = box.querySelector('#arrange-ready');
  const tokens = [...box.querySelectorAll('button[data-token]')];
  const b = ready || (choice && tokens[0]) || (tokens.length === 1 && tokens[0]) || box.querySelector('#roll');
  if (b) b.classList.add('default');
}

function renderPanels() {
  // The move list is rebuilt only when it changed (its scrolling needs a layout).
  const moves = `${shownKey()}:${state.moves.join(' ')}:${JSON.stringify(state.variations)}`;
  if (moves !== movesShown) {
    const inLine = view && view.line !== null;
    drawMoves(state.moves, inLine ? -1 : shownPly(), p => goTo(p, null));
    const tok = drawVariations($('moves'), state.variations, { line: inLine ? view.line : null, ply: shownPly() },
      (line, ply) => goTo(ply, line), line => send({ t: 'promote', line }), line => send({ t: 'delete_line', line }));
    if (tok) afterPaint(() => tok.scrollIntoView({ block: 'nearest' }));
    movesShown = moves;
  }
  renderReview();
  $('nav-text').textContent = !view ? '' : view.line !== null
    ? `variation ${view.line + 1}, after ${view.ply} · End: the game now`
    : `after ${view.ply} of ${state.moves.length} · End: the game now`;
  const fen = $('fen');
  if (document.activeElement !== fen && state.position) fen.value = state.position.fen;
  const seed = $('seed');
  if (document.activeElement !== seed) seed.value = state.seed;
  // The setup selects follow the session only when its game or players change, so that a
  // person's choice there survives the states an engine game sends until they act on it.
  const setup = `${state.game} ${state.players.join(' ')}`;
  if (setup !== setupShown) {
    setupShown = setup;
    if (document.activeElement !== $('game')) $('game').value = state.game;
    for (const [i, id] of ['p1', 'p2'].entries()) if (document.activeElement !== $(id)) $(id).value = state.players[i];
  }
  for (const s of document.querySelectorAll('.side-name')) s.textContent = sideName(s.dataset.side);
  $('pause').checked = state.paused;
  $('analyse').checked = state.analyse;
  const f = $('fault');
  if (state.fault) {
    $('fault-text').textContent = `Engine ${state.fault.kind}: ${state.fault.detail}. The game so far is kept.`;
    f.classList.remove('hidden');
  } else f.classList.add('hidden');
  $('clocks').classList.toggle('hidden', !state.clocks);
}

// The review's graph, marks on the move list and summary per side.
function renderReview() {
  const running = state.review !== null && state.review !== undefined;
  $('review').textContent = running ? 'Cancel review' : 'Review game';
  $('review-progress').classList.toggle('hidden', !running);
  const done = reviewed.filter(Boolean);
  $('review-graph').classList.toggle('hidden', done.length < 2);
  reviewExport.show(done.length >= 2 && !running);
  if (done.length < 2) { $('review-summary').textContent = ''; return; }
  drawGraph($('review-graph'), reviewed, state.game, goTo);
  const judged = judge(reviewed, state.actors, state.game);
  markMoves($('moves'), judged);
  const by = summary(judged);
  $('review-summary').replaceChildren(...Object.entries(by).map(([side, s]) => {
    const d = document.createElement('div');
    d.className = 'review-side';
    d.dataset.side = side;
    d.textContent = `${sideName(side)}: average loss ${(100 * s.loss / s.n).toFixed(1)} % · ` +
      `${s.inaccuracy} inaccuracies ?!, ${s.mistake} mistakes ?, ${s.blunder} blunders ??`;
    return d;
  }));
}

function evalBar() {
  const best = analysis.best();
  const fill = $('evalfill'), text = $('evaltext');
  if (!state || !best || !best.score || analysisAt !== shownKey()) { fill.style.height = '50%'; text.textContent = ''; return; }
  const humans = ['p1', 'p2'].filter((s, i) => state.players[i] === 'human');
  const viewer = humans.length === 1 ? humans[0] : (flip ? 'p2' : 'p1');
  const sign = best.pov === viewer ? 1 : -1;
  const score = best.score.mate !== undefined ? { mate: sign * best.score.mate } : { cp: sign * best.score.cp };
  fill.style.height = `${(barFraction(score, state.game) * 100).toFixed(1)}%`;
  text.textContent = scoreText(score, state.game);
  $('evalbar').dataset.viewer = viewer;
}

function tickClocks() {
  if (!clockBase) return;
  const dt = performance.now() - clockBase.at;
  for (const span of document.querySelectorAll('.clock')) {
    const i = span.dataset.side === 'p1' ? 0 : 1;
    const ms = clockBase.left[i] - (clockBase.running[i] ? dt : 0);
    const s = Math.max(0, ms) / 1000;
    span.textContent = `${sideName(span.dataset.side)} ${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
    span.classList.toggle('running', clockBase.running[i]);
  }
}

function download(text, filename) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function limitFromInputs() {
  const kind = $('limit-kind').value, v = Number($('limit-value').value);
  if (kind === 'movetime') return { t: 'limit', kind, ms: Math.round(v) };
  if (kind === 'depth') return { t: 'limit', kind, depth: Math.round(v) };
  if (kind === 'nodes') return { t: 'limit', kind, nodes: Math.round(v) };
  return { t: 'limit', kind, base_ms: Math.round(v * 1000), inc_ms: Math.round(Number($('limit-inc').value) * 1000) };
}

function wire() {
  $('new-game').addEventListener('click', () => {
    const seed = $('seed').value === '' ? null : Number($('seed').value);
    const p1 = $('p1').value, p2 = $('p2').value;
    flip = p1 === 'engine' && p2 === 'human';
    send({ t: 'new_game', game: $('game').value, p1, p2, seed });
  });
  $('apply-players').addEventListener('click', () => send({ t: 'players', p1: $('p1').value, p2: $('p2').value }));
  $('flip').addEventListener('click', () => { flip = !flip; render(); });
  $('takeback').addEventListener('click', () => send({ t: 'takeback' }));
  $('move-now').addEventListener('click', () => send({ t: 'move_now' }));
  $('pause').addEventListener('change', e => send({ t: 'pause', on: e.target.checked }));
  $('analyse').addEventListener('change', e => send({ t: 'analyse', on: e.target.checked }));
  // The setting is the person's, kept in this browser.
  $('auto-forced').checked = localStorage.getItem('quartet-auto-forced') === 'true';
  $('auto-forced').addEventListener('change', e => { localStorage.setItem('quartet-auto-forced', e.target.checked); render(); });
  $('restart').addEventListener('click', () => send({ t: 'restart' }));
  $('resign').addEventListener('click', () => send({ t: 'resign' }));
  $('review').addEventListener('click', () => {
    const running = state && state.review !== null && state.review !== undefined;
    if (running) { send({ t: 'review', nodes: 0 }); return; }
    reviewed = [];
    $('review-progress').value = 0;
    send({ t: 'review', nodes: Number($('review-nodes').value) || 20000 });
  });
  $('nav-first').addEventListener('click', () => goTo(0));
  $('nav-prev').addEventListener('click', () => goTo(shownPly() - 1));
  $('nav-next').addEventListener('click', () => goTo(shownPly() + 1));
  $('nav-last').addEventListener('click', () => goTo(Infinity, null));
  document.addEventListener('keydown', e => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    // Enter confirms the default choice (not the button that happens to have the focus).
    if (e.key === 'Enter' && pressDefault($('actions'))) { e.preventDefault(); return; }
    const to = { ArrowLeft: shownPly() - 1, ArrowRight: shownPly() + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goTo(to, e.key === 'End' ? null : undefined);
  });
  $('download').addEventListener('click', () => send({ t: 'record' }));
  $('load').addEventListener('change', e => {
    const file = e.target.files[0];
    if (!file) return;
    // The server reads at most 1 MiB in a message (src/gui/request.rs, MAX_REQUEST).
    if (file.size > MAX_RECORD) {
      showMessage(`${file.name} is ${file.size} bytes: a record may have at most ${MAX_RECORD} (1 MiB)`);
      e.target.value = '';
      return;
    }
    file.text().then(text => send({ t: 'load', text }));
    e.target.value = '';
    e.target.value = '';
  });
  $('copy-fen').addEventListener('click', () => {
    const fen = $('fen');
    if (navigator.clipboard) navigator.clipboard.writeText(fen.value).catch(() => {});
    fen.select();
  });
  $('set-fen').addEventListener('click', () => send({
    t: 'new_game', game: state.game, p1: state.players[0], p2: state.players[1], fen: $('fen').value,
    seed: $('seed').value === '' ? null : Number($('seed').value),
  }));
  $('limit-kind').addEventListener('change', () => {
    const k = $('limit-kind').value;
    $('limit-inc').classList.toggle('hidden', k !== 'clock');
    $('limit-value').value = { movetime: 1000, depth: 6, nodes: 100000, clock: 60 }[k];
  });
  $('set-limit').addEventListener('click', () => send(limitFromInputs()));
  $('delay').addEventListener('input', () => { $('delay-text').textContent = `${$('delay').value} ms`; });
  $('delay').addEventListener('change', () => send({ t: 'speed', delay_ms: Number($('delay').value) }));
  setInterval(tickClocks, 100);
}

const reviewExport = new ReviewExport(() => send({ t: 'record' }), download, showMessage,
  () => ({ results: reviewed, actors: state.actors, game: state.game, name: sideName }));
wire();
connect();
window.addEventListener('load', () => { stats.loadedAt = performance.now(); });
