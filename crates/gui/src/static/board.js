// The board: drawn by the game's module (or the generic one) from the position shown, with
// the last move, captures, a simultaneous turn's reveal, a person's selection and targets,
// and the analysis's best lines.
import { el, defs, arrow, polyline, captureMark } from './svg.js';
import { ui, $, mod, isGeneric, sideName, markSize } from './ui.js';
import * as setup from './arrange.js';
import { shownPly, shownKey } from './nav.js';
import { arrangement, humanSide, parsedTokens, listen } from './input.js';
import { extraRoll } from './status.js';
import { lineTokens } from './variations.js';

// The board's layers, bottom to top. The still ones (the squares and the click targets)
// are kept from one drawing to the next while the game, the layout and the module's
// boardKey stay the same; the others are drawn anew each time.
const LAYERS = ['board', 'info', 'pv-marks', 'marks', 'pieces', 'over', 'pv', 'hit'];
const STILL = new Set(['board', 'hit']);
let still = null;

// Pieces of position `before` that are not in `after` any more, leaving out the squares
// the movers of `token` left (each half of a joint token `<p1>/<p2>` read as its side's).
function goneSince(before, after, token) {
  const m = mod(), fromKeys = new Set();
  token.split('/').forEach((tok, half) => {
    const side = before.node === 'simultaneous' ? ['p1', 'p2'][half] : before.node === 'turn' ? before.to_act : null;
    const t = m.parse(tok, before, side);
    if (t) t.srcKeys.forEach(k => fromKeys.add(k));
  });
  const now = new Set(m.pieceKeys(after).map(p => `${p.key}|${p.owner}`));
  return m.pieceKeys(before).filter(p => !now.has(`${p.key}|${p.owner}`) && !fromKeys.has(p.key)).map(p => p.key);
}

// The positions seen (the states' and the views'), by the tokens to them, so that the
// captures of the token before the position shown are marked, while stepping through the
// game too. Cleared when full.
const seen = new Map();
const MAX_SEEN = 4096;
const seenKey = tokens => `${ui.state.game}|${ui.state.start_fen}|${tokens.join(' ')}`;
export function keep(tokens, position) {
  if (!position) return;
  if (seen.size >= MAX_SEEN) seen.clear();
  seen.set(seenKey(tokens), position);
}

// The tokens to the position shown: the game's, or the line looked at up to its ply.
export function shownTokens() {
  const { state, view } = ui;
  if (!view) return state.moves;
  return (view.line === null ? state.moves : lineTokens(state, view.line) || []).slice(0, view.ply);
}

// The squares of the pieces the last token to position `pos` (the one shown) captured.
function captures(pos) {
  const tokens = shownTokens();
  const before = tokens.length ? seen.get(seenKey(tokens.slice(0, -1))) : null;
  return before ? goneSince(before, pos, tokens[tokens.length - 1]) : [];
}

// The last move to the position shown among its last three tokens (a roll or two may
// follow it), as [token, side], or null: the main line's by who acted for it; a
// variation's past its fork by the side to act at the position before it (the page has
// it: each view sends the position before the one shown).
function lastMove() {
  const { state, view } = ui, ply = shownPly(), tokens = shownTokens();
  const fork = view && view.line !== null && state.variations[view.line] ? state.variations[view.line].fork : Infinity;
  for (let j = ply - 1; j >= Math.max(0, ply - 3); j--) {
    if (j < fork) {
      const a = state.actors[j];
      if (a && a.kind === 'move') return [tokens[j], a.side];
      continue;
    }
    const before = seen.get(seenKey(tokens.slice(0, j)));
    if (!before) return null;
    if (before.node === 'turn') return [tokens[j], before.to_act];
  }
  return null;
}

export function renderBoard() {
  const { state, view } = ui;
  // At a setup turn: the arrangement being made, or a person's declared one.
  const now = arrangement.active ? arrangement.preview() : setup.declaredPreview(state) || state.position;
  const pos = view ? view.position : now, svg = $('board');
  ui.drawn = null;
  if (!pos) { svg.replaceChildren(); still = null; return; }
  const m = mod(), size = markSize();
  const G = m.layout(pos, ui.flip);
  const ctx = { sideName, extraRoll: extraRoll() };
  const key = [state.game, ui.flip, G.w, G.h, m.boardKey(pos)].join('|');
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
    m.drawBoard(G, pos, L, ctx);
    still = { key, L };
  }
  svg.dataset.game = state.game;
  svg.dataset.board = isGeneric(m) ? 'generic' : state.game;
  svg.dataset.flipped = ui.flip;
  m.draw(G, pos, L, ctx);
  const centre = k => m.centre(G, k);
  const cellMark = (k, cls, layer = L.marks) => {
    const c = centre(k);
    if (!c) return;
    el('rect', { x: c.x - size.cell / 2, y: c.y - size.cell / 2, width: size.cell, height: size.cell, class: cls }, layer);
  };
  ui.drawn = { L, m, pos, centre, cellMark };
  // The last move (a joint turn is shown by the reveal), in a variation too.
  const last = lastMove();
  if (last) {
    for (const mk of m.marks(last[0], pos, last[1])) {
      if (mk.at) { cellMark(mk.at, 'last-mark'); continue; }
      cellMark(mk.from, 'last-mark'); cellMark(mk.to, 'last-mark');
      arrow(L.over, centre(mk.from), centre(mk.to), 'last', 0.8, (mk.via || []).map(centre)).classList.add('last-move');
    }
  }
  if (state.reveal && m.revealMarks && !view) m.revealMarks(L, state, centre, size.cell);
  for (const k of captures(view ? view.position : state.position)) captureMark(L.marks, centre(k), size.cell, k);
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
    const sc = ui.selKey && centre(ui.selKey);
    if (sc) {
      el('circle', { cx: sc.x, cy: sc.y, r: size.ring, class: 'sel-ring' }, L.marks);
      for (const x of parsed.filter(x => x.p && x.p.group === ui.sel)) {
        const d = centre(x.p.dst);
        if (m.path) polyline(L.marks, m.path(x.t).map(centre), 'path');
        if (d) el('circle', { cx: d.x, cy: d.y, r: size.dot, class: 'target-dot' }, L.marks);
        const hit = L.hit.querySelector(`[data-key="${x.p.dst}"]`);
        if (hit) hit.classList.add('target');
      }
    }
    for (const o of ui.choice || []) {
      const c = o.key && centre(o.key);
      if (!c) continue;
      el('circle', { cx: c.x, cy: c.y, r: 24, class: 'choice-ring' }, L.marks);
      const hit = L.hit.querySelector(`[data-key="${o.key}"]`);
      if (hit) hit.classList.add('choice');
    }
  }
  listen(svg, L.hit);
}

// The best line of the running analysis or search, while it belongs to this position, in
// its own two layers of the board (redrawn without the rest for each info line).
export function renderPv() {
  if (!ui.drawn) return;
  const { L, m, pos, centre, cellMark } = ui.drawn;
  L.pv.replaceChildren();
  L['pv-marks'].replaceChildren();
  if (ui.analysisAt !== shownKey()) return;
  // The first move of each MultiPV line, ranked by colour and strength (line 1 boldest).
  const best = ui.analysis.best(), pvSide = best ? best.pov : null;
  ui.analysis.firstMoves(m.isChance).slice(0, 5).forEach((tok, j) => {
    const mk = m.marks(tok, pos, pvSide)[0];
    if (mk && mk.from) {
      const a = arrow(L.pv, centre(mk.from), centre(mk.to), 'pv', [0.9, 0.75, 0.6, 0.5, 0.45][j], (mk.via || []).map(centre));
      a.classList.add('pv-arrow', `pv-rank-${j + 1}`);
    } else if (mk && mk.at) cellMark(mk.at, 'last-mark', L['pv-marks']);
  });
}
