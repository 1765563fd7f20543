// Apocalypse: the 5x5 board with knights and pawns, and both sides' penalty points.
import { el, arrow, captureMark } from './svg.js';
import { Grid, MARGIN, CELL, tokenSquares, parseSquare } from './grid.js';

export const sides = { p1: 'White', p2: 'Black' };
// Scores are expected outcomes, 10000 a certain win (panels.js).
export const scale = 'value';
const PANEL = 120;

export function layout(pos, flip) { return new Grid(pos.width, pos.height, flip, 0, 0, PANEL); }

function knight(g, c, white) {
  const fill = white ? '#fafafa' : '#263238', stroke = white ? '#333' : '#000';
  const x = c.x, y = c.y;
  el('path', {
    d: `M${x - 15},${y + 20} L${x + 17},${y + 20} L${x + 13},${y + 4} C${x + 16},${y - 10} ${x + 6},${y - 21} ${x - 3},${y - 21} L${x - 6},${y - 26} L${x - 9},${y - 18} C${x - 15},${y - 13} ${x - 21},${y - 3} ${x - 20},${y + 3} L${x - 13},${y + 6} L${x - 4},${y - 1} C${x - 4},${y + 7} ${x - 13},${y + 11} ${x - 15},${y + 20} Z`,
    fill, stroke, 'stroke-width': 2.5, 'stroke-linejoin': 'round', class: 'piece',
  }, g);
  el('circle', { cx: x - 6, cy: y - 11, r: 2.2, fill: white ? '#333' : '#eee', class: 'piece' }, g);
}

function pawn(g, c, white) {
  const fill = white ? '#fafafa' : '#263238', stroke = white ? '#333' : '#000';
  el('path', { d: `M${c.x - 15},${c.y + 19} L${c.x + 15},${c.y + 19} L${c.x + 8},${c.y + 2} L${c.x - 8},${c.y + 2} Z`, fill, stroke, 'stroke-width': 2.5, class: 'piece' }, g);
  el('circle', { cx: c.x, cy: c.y - 7, r: 10, fill, stroke, 'stroke-width': 2.5, class: 'piece' }, g);
}

// What the board's still part depends on besides the layout: nothing.
export function boardKey() { return ''; }

// The still part: squares, coordinates, click targets.
export function drawBoard(G, pos, L) { G.drawSquares(L.board, L.hit); }

// The pieces and the penalty points.
export function draw(G, pos, L, ctx) {
  for (const p of pos.pieces) {
    const g = el('g', { 'data-piece': p.square, 'data-kind': p.kind, 'data-owner': p.owner }, L.pieces);
    (p.kind === 'knight' ? knight : pawn)(g, G.centre(p.square), p.owner === 'p1');
  }
  // Penalty points: two slots per side, filled per point.
  const x = MARGIN + G.width * CELL + 18;
  const rows = G.flip ? ['p1', 'p2'] : ['p2', 'p1'];
  rows.forEach((side, i) => {
    const y = 40 + i * (G.height * CELL - 80);
    el('text', { x, y, 'font-size': 13 }, L.info, `${ctx.sideName(side)} penalties`);
    for (let k = 0; k < 2; k++) {
      el('circle', { cx: x + 12 + k * 28, cy: y + 22, r: 10, fill: k < pos.penalties[side] ? '#d32f2f' : '#fff', stroke: '#d32f2f', 'stroke-width': 2, class: 'penalty', 'data-side': side, 'data-filled': k < pos.penalties[side] }, L.info);
    }
  });
  el('text', { x, y: G.height * CELL / 2 + 8, 'font-size': 12, fill: '#666' }, L.info, `no progress ${pos.no_progress}/50`);
}

export function centre(G, key) { return G.centre(key); }

export function parse(token) {
  const t = tokenSquares(token);
  return t && t.from ? { group: t.from, srcKeys: [t.from], dst: t.to } : null;
}

// Several tokens to one square are redeploys: choose the redeploy square.
export function choices(tokens) {
  return tokens.map(tok => {
    const t = tokenSquares(tok);
    return { token: tok, key: t.drop, label: t.drop ? `redeploy to ${t.drop}` : tok };
  });
}

export function marks(token) {
  const t = tokenSquares(token);
  return t && t.from ? [{ from: t.from, to: t.to }] : [];
}

export function pieceKeys(pos) { return pos.pieces.map(p => ({ key: p.square, owner: p.owner, kind: p.kind })); }

// A void declaration (rules: a well-formed illegal move, +1 penalty point) from square
// `from` to square `to` of the board, or null when `to` is not one.
export function voidToken(from, to) {
  const s = parseSquare(to);
  return s && s.f < 5 && s.r < 5 ? from + to : null;
}

// The squares (before the turn) of the movers of legal declarations that did not survive it.
function revealDeaths(state) {
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

// The turn revealed on the board: both declarations' arrows (a void one in red, a
// redeploy's second leg fainter) and the movers lost in it.
export function revealMarks(L, state, centre, size) {
  const r = state.reveal;
  [[r.w, 'w', 0], [r.b, 'b', 1]].forEach(([tok, kind, idx]) => {
    const t = tokenSquares(tok);
    if (t && t.from) arrow(L.over, centre(t.from), centre(t.to), r.void[idx] ? 'void' : kind).classList.add('reveal-' + kind);
    if (t && t.drop) arrow(L.over, centre(t.to), centre(t.drop), r.void[idx] ? 'void' : kind, 0.6);
  });
  for (const k of revealDeaths(state)) captureMark(L.marks, centre(k), size, k).classList.add('died');
}

// The turn revealed in words: both declarations, void ones, a collision, a swap,
// promotions, redeploys and captures.
export function revealText(state, sideName) {
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
