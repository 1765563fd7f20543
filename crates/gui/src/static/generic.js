// The generic board (issue 22 §8): any game drawn from `query position` alone (protocol.md
// §3.4): `width` x `height` cells and `pieces`, each with its `owner`, its `kind` and either
// a `square` (a file letter and a rank number, "a1" at p1's bottom left) or a `cell`
// ([row, col], row 0 at the top). A piece is a disc in its owner's colour with its kind's
// first letter; pieces sharing a cell are stacked with their count.
//
// Moves are read from the legal tokens, knowing nothing of their syntax beyond the board's
// square names: a token naming two or more of the board's squares is a move from its first
// to its second (tokens that share both are a choice of buttons), a token naming one square
// is played by clicking that square twice, and any other token (a pass, a token of a board
// of cells) is a button under the board.
import { el } from './svg.js';
import { Grid, CELL, MARGIN, squareName, parseSquare } from './grid.js';

// The sides' names for a game the page has no module for (ui.js, sideName).
export const sides = { p1: 'First', p2: 'Second' };
const FILL = { p1: '#fafafa', p2: '#37474f' }, INK = { p1: '#222', p2: '#fafafa' };

// Whether the position names its pieces by cells (and so its keys are "row,col").
function byCells(pos) {
  return pos.pieces.some(p => Array.isArray(p.cell)) && !pos.pieces.some(p => typeof p.square === 'string');
}

export function layout(pos, flip) {
  const G = new Grid(pos.width, pos.height, flip);
  G.cells = byCells(pos);
  // The key of file f and rank r (rank 0 at the bottom).
  G.keyAt = (f, r) => (G.cells ? `${pos.height - 1 - r},${f}` : squareName(f, r));
  return G;
}

// The key of a piece, or null when it has neither a square nor a cell.
function pieceKey(p) {
  if (typeof p.square === 'string') return p.square;
  return Array.isArray(p.cell) ? `${p.cell[0]},${p.cell[1]}` : null;
}

// The file and rank of a key on this board, or null when it is not one of its cells.
function place(G, key) {
  let f, r;
  if (G.cells) {
    const m = /^(\d+),(\d+)$/.exec(key || '');
    if (!m) return null;
    f = Number(m[2]); r = G.height - 1 - Number(m[1]);
  } else {
    const s = parseSquare(key);
    if (!s) return null;
    ({ f, r } = s);
  }
  return f >= 0 && f < G.width && r >= 0 && r < G.height ? { f, r } : null;
}

export function centre(G, key) {
  const at = place(G, key);
  if (!at) return null;
  const c = G.corner(at.f, at.r);
  return { x: c.x + CELL / 2, y: c.y + CELL / 2 };
}

// What the still part depends on besides the layout: whether keys are squares or cells.
export function boardKey(pos) { return byCells(pos) ? 'cells' : 'squares'; }

// The still part: the cells, file letters and rank numbers (for squares) and click targets.
export function drawBoard(G, pos, L) {
  for (let r = 0; r < G.height; r++) for (let f = 0; f < G.width; f++) {
    const c = G.corner(f, r), key = G.keyAt(f, r);
    el('rect', { x: c.x, y: c.y, width: CELL, height: CELL, class: (f + r) % 2 ? 'cell-light' : 'cell-dark' }, L.board);
    el('rect', { x: c.x, y: c.y, width: CELL, height: CELL, class: 'hit', 'data-key': key }, L.hit);
  }
  if (G.cells) return;
  const below = G.top + 4 + G.height * CELL + 15;
  for (let f = 0; f < G.width; f++) el('text', { x: G.corner(f, 0).x + CELL / 2, y: below, class: 'coord', 'text-anchor': 'middle' }, L.board, squareName(f, 0)[0]);
  for (let r = 0; r < G.height; r++) el('text', { x: MARGIN / 2, y: G.corner(0, r).y + CELL / 2 + 4, class: 'coord', 'text-anchor': 'middle' }, L.board, String(r + 1));
}

// The pieces, stacked per cell.
export function draw(G, pos, L) {
  const at = new Map();
  for (const p of pos.pieces) {
    const k = pieceKey(p);
    if (k === null || !centre(G, k)) continue;
    if (!at.has(k)) at.set(k, []);
    at.get(k).push(p);
  }
  for (const [k, ps] of at) {
    const c = centre(G, k), p = ps[ps.length - 1], owner = FILL[p.owner] ? p.owner : 'p1';
    const g = el('g', { 'data-piece': k, 'data-owner': p.owner, 'data-kind': p.kind ?? '' }, L.pieces);
    el('circle', { cx: c.x, cy: c.y, r: 22, fill: FILL[owner], stroke: '#222', 'stroke-width': 2, class: 'piece' }, g);
    el('text', { x: c.x, y: c.y + 6, 'text-anchor': 'middle', 'font-size': 18, 'font-weight': 700, fill: INK[owner], class: 'piece' }, g, String(p.kind ?? '').slice(0, 1).toUpperCase());
    if (ps.length > 1) el('text', { x: c.x + 20, y: c.y - 14, 'font-size': 12, 'font-weight': 700, class: 'piece stack' }, g, String(ps.length));
  }
}

// The board's squares a token names, in order (none on a board of cells).
function squaresOf(token, pos) {
  if (byCells(pos)) return [];
  return (token.match(/[a-z]\d+/g) || []).filter(s => {
    const q = parseSquare(s);
    return q.f < pos.width && q.r >= 0 && q.r < pos.height;
  });
}

export function parse(token, pos) {
  const sq = squaresOf(token, pos);
  if (sq.length >= 2) return { group: sq[0], srcKeys: [sq[0]], dst: sq[1] };
  if (sq.length === 1) return { group: `@${sq[0]}`, srcKeys: [sq[0]], dst: sq[0] };
  return null;
}

// Tokens with the same from and to squares: a button for each.
export function choices(tokens) { return tokens.map(token => ({ token, key: null, label: token })); }

export function marks(token, pos) {
  const t = parse(token, pos);
  if (!t) return [];
  return t.srcKeys[0] === t.dst ? [{ at: t.dst }] : [{ from: t.srcKeys[0], to: t.dst }];
}

export function pieceKeys(pos) {
  return pos.pieces.map(p => ({ key: pieceKey(p), owner: p.owner })).filter(p => p.key !== null);
}
