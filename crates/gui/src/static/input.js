// A person's input on the board: the side a person acts for, the tokens it may play and
// what each means on the board (the module's parse), and clicks: a source, then a target,
// then (when several tokens share both) a choice.
import { ui, mod } from './ui.js';
import { send, connected } from './socket.js';
import { el } from './svg.js';
import * as setup from './arrange.js';
import { ForcedMoves } from './forced.js';
import { shownKey } from './nav.js';

// A person's arrangement at a setup turn (arrange.js).
export const arrangement = new setup.Arrangement();
// Forced moves played by themselves when "Play forced moves" is on (forced.js).
export const forced = new ForcedMoves(token => play(token));

// At a simultaneous turn looked back at, a person declares both sides of a variation, the
// first side's then the second's: the side declaring now, or null elsewhere. The first
// side's declaration waits in `ui.firstHalf` (with the position it is for).
export function viewDeclaring() {
  const v = ui.view;
  if (!v || !v.position || v.position.node !== 'simultaneous' || !v.legal_side) return null;
  return ui.firstHalf && ui.firstHalf.at === shownKey() ? 'p2' : 'p1';
}

// The side a person acts for now: at a position looked back at, its side to move (a move
// there plays a variation) or the side declaring, when the server sent its legal moves.
export function humanSide() {
  const { view, state } = ui;
  // Not connected: no move can reach the game (issue 39 §2).
  if (!connected()) return null;
  if (view && view.position.node === 'simultaneous') return viewDeclaring();
  if (view) return view.legal.length && view.position.node === 'turn' ? view.position.to_act : null;
  const n = state && state.next;
  return n && n.kind.startsWith('human') ? n.side : null;
}

function humanTokens() {
  const { view, state } = ui;
  const declaring = viewDeclaring();
  if (declaring) return view.legal_side[declaring === 'p1' ? 0 : 1] || [];
  if (view) return view.legal;
  const n = state.next;
  if (n.kind === 'human_move') return state.legal;
  // (null: too many to list; the page builds that declaration itself, arrange.js)
  if (n.kind === 'human_declare') return state.legal_side[n.side === 'p1' ? 0 : 1] || [];
  return [];
}

// The person's tokens with what each is on the board (null: a token without squares).
export function parsedTokens() {
  const m = mod(), side = humanSide();
  const pos = ui.view ? ui.view.position : ui.state.position;
  return humanTokens().map(t => ({ t, p: m.parse(t, pos, side) }));
}

export function play(token, isVoid = false) {
  // A variation's simultaneous turn: the first side's declaration waits for the second's.
  const declaring = viewDeclaring();
  if (declaring === 'p1') {
    ui.firstHalf = { at: shownKey(), token };
    ui.sel = null; ui.selKey = null; ui.choice = null;
    ui.render();
    return;
  }
  if (declaring === 'p2') { token = `${ui.firstHalf.token}/${token}`; ui.firstHalf = null; }
  send({ t: 'move', token, void: isVoid });
  ui.moveSentAt = performance.now();
  ui.movesAtSend = ui.state.moves.length;
  ui.sel = null; ui.selKey = null; ui.choice = null;
}

// A click on board key `k`.
export function clickKey(k) {
  const { state, view } = ui;
  if (!state || !state.position || !humanSide() || (!view && state.next.kind === 'human_roll') || state.fault) return;
  if (arrangement.active) { arrangement.click(k); ui.render(); return; }
  const m = mod(), parsed = parsedTokens();
  if (ui.choice) {
    const opt = ui.choice.find(o => o.key === k);
    ui.choice = null;
    if (opt) { play(opt.token); return; }
  }
  if (ui.sel) {
    const cands = parsed.filter(x => x.p && x.p.group === ui.sel && x.p.dst === k);
    if (cands.length === 1) { play(cands[0].t); return; }
    if (cands.length > 1) { ui.choice = m.choices(cands.map(c => c.t)); ui.render(); return; }
    // A void declaration (the module's, when it has them): from the piece to any square.
    const voided = ui.voidMode && m.voidToken && k !== ui.selKey ? m.voidToken(ui.selKey, k) : null;
    if (voided) { play(voided, true); return; }
  }
  const srcs = parsed.filter(x => x.p && x.p.srcKeys.includes(k));
  const own = state.position.pieces.some(p => p.square === k && p.owner === humanSide());
  if (srcs.length) { ui.sel = srcs[0].p.group; ui.selKey = k; }
  else if (ui.voidMode && m.voidToken && own) { ui.sel = '__void'; ui.selKey = k; }
  else { ui.sel = null; ui.selKey = null; }
  ui.render();
}

// A drag under way: the key it started on, its pointer, and the pieces drawn under the
// pointer (a copy of those on the start square, the originals faded).
let drag = null;

// The pieces drawn on the square of board key `k` (their boxes' centres inside it).
function piecesOn(svg, k) {
  const cell = svg.querySelector(`.layer-hit [data-key="${CSS.escape(k)}"]`);
  if (!cell) return [];
  const b = cell.getBBox();
  const inside = e => {
    const r = e.getBBox(), x = r.x + r.width / 2, y = r.y + r.height / 2;
    return x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
  };
  return [...svg.querySelectorAll('.layer-pieces > *')].filter(inside);
}

// The point of the board's drawing under the client point (x, y).
function boardPoint(svg, x, y) {
  const m = svg.getScreenCTM();
  return m ? new DOMPoint(x, y).matrixTransform(m.inverse()) : null;
}

// Moves the dragged pieces under the pointer at client (x, y), drawing them on the first
// move.
function follow(svg, x, y) {
  const p = boardPoint(svg, x, y);
  if (!p) return;
  if (!drag.ghost) {
    drag.start = boardPoint(svg, drag.x, drag.y);
    drag.originals = piecesOn(svg, drag.from);
    drag.ghost = el('g', { class: 'drag-ghost' }, svg);
    for (const piece of drag.originals) {
      drag.ghost.appendChild(piece.cloneNode(true));
      piece.classList.add('dragged');
    }
    // A square without a piece drawn (a hand's soldier): a ring under the pointer.
    if (!drag.originals.length) el('circle', { cx: drag.start.x, cy: drag.start.y, r: 18, class: 'drag-ring' }, drag.ghost);
  }
  drag.ghost.setAttribute('transform', `translate(${p.x - drag.start.x} ${p.y - drag.start.y})`);
}

function endDrag() {
  if (!drag) return;
  if (drag.ghost) drag.ghost.remove();
  for (const piece of drag.originals || []) piece.classList.remove('dragged');
  drag = null;
}

// The board key under the client point (x, y) of `svg`: found where the pointer is, not
// from the event's target (a touch pointer stays captured by the element it went down on).
function keyAt(svg, x, y) {
  const e = document.elementFromPoint(x, y);
  return e && svg.contains(e) && e.dataset ? e.dataset.key || null : null;
}

// The board's clicks and drags (on the SVG `svg` whose click targets are in layer `hit`).
// Drag and drop, with a mouse or a finger: a press on a piece that can move and a release
// on another square are the two clicks (a click ends where it began, so it never reaches
// these two); the piece follows the pointer meanwhile.
export function listen(svg, hit) {
  const keyOf = e => e.target && e.target.dataset && e.target.dataset.key;
  svg.onclick = e => { const k = keyOf(e); if (k) clickKey(k); };
  svg.onpointerdown = e => {
    endDrag();
    const k = keyOf(e);
    ui.dragFrom = k && hit.querySelector(`[data-key="${CSS.escape(k)}"].source`) ? k : null;
    if (ui.dragFrom) drag = { from: k, id: e.pointerId, x: e.clientX, y: e.clientY, ghost: null };
  };
  svg.onpointermove = e => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.ghost && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4) return;
    follow(svg, e.clientX, e.clientY);
  };
  svg.onpointerup = e => {
    const from = ui.dragFrom;
    ui.dragFrom = null;
    endDrag();
    const k = keyAt(svg, e.clientX, e.clientY);
    if (from && k !== from && arrangement.active) { arrangement.drop(from, k); ui.render(); return; }
    if (!from || !k || k === from) return;
    if (ui.selKey !== from) clickKey(from);
    clickKey(k);
  };
  svg.onpointercancel = () => { ui.dragFrom = null; endDrag(); };
}
