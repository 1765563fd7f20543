// Duell: dice that show their top face as pips and their north and east faces as numbers
// on the edges facing rank 8 and file i; the key pieces; both key squares; the paths of a
// selected die (a token encodes its path: straight, or L with the first leg's direction).
import { el } from './svg.js';
import { Grid, CELL, tokenSquares, parseSquare, squareName } from './grid.js';

export const sides = { p1: 'White', p2: 'Black' };

export function layout(pos, flip) { return new Grid(pos.width, pos.height, flip); }

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function die(g, c, p, flip) {
  const s = 46, white = p.owner === 'p1';
  const body = white ? '#fafafa' : '#37474f', ink = white ? '#222' : '#fafafa';
  const key = p.kind === 'key';
  el('rect', { x: c.x - s / 2, y: c.y - s / 2, width: s, height: s, rx: 8, fill: key ? (white ? '#ffe082' : '#8d6e00') : body, stroke: white ? '#555' : '#000', 'stroke-width': 2, class: 'piece' }, g);
  if (key) {
    // A key: bow, shaft and bit.
    el('circle', { cx: c.x - 8, cy: c.y, r: 7, fill: 'none', stroke: ink, 'stroke-width': 3, class: 'piece' }, g);
    el('path', { d: `M${c.x - 1},${c.y} H${c.x + 14} M${c.x + 9},${c.y} V${c.y + 7} M${c.x + 14},${c.y} V${c.y + 7}`, stroke: ink, 'stroke-width': 3, fill: 'none', class: 'piece' }, g);
    return;
  }
  for (const [dx, dy] of PIPS[p.top] || []) el('circle', { cx: c.x + dx * 10, cy: c.y + dy * 10, r: 4.2, fill: ink, class: 'piece' }, g);
  // North face on the edge towards rank 8, east face on the edge towards file i.
  const ny = flip ? c.y + s / 2 - 1 : c.y - s / 2 + 1, ex = flip ? c.x - s / 2 + 1 : c.x + s / 2 - 1;
  const badge = (x, y, n, cls) => {
    el('circle', { cx: x, cy: y, r: 8, fill: '#1565c0', stroke: '#fff', 'stroke-width': 1.5, class: 'piece ' + cls }, g);
    el('text', { x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 700, fill: '#fff', class: 'piece ' + cls }, g, String(n));
  };
  badge(c.x, ny, p.north, 'face-north');
  badge(ex, c.y, p.east, 'face-east');
}

// What the board's still part depends on besides the layout.
export function boardKey(pos) { return JSON.stringify(pos.key_squares); }

// The still part: squares, coordinates, click targets, both key squares.
export function drawBoard(G, pos, L) {
  G.drawSquares(L.board, L.hit);
  for (const [side, sq] of Object.entries(pos.key_squares)) {
    const c = G.centre(sq);
    el('rect', { x: c.x - CELL / 2 + 3, y: c.y - CELL / 2 + 3, width: CELL - 6, height: CELL - 6, fill: 'none', stroke: side === 'p1' ? '#b8860b' : '#5d4037', 'stroke-width': 3, 'stroke-dasharray': '7 4', class: 'key-square' }, L.board);
    // A keyhole.
    el('circle', { cx: c.x, cy: c.y - 5, r: 6, fill: 'rgba(0,0,0,.18)' }, L.board);
    el('path', { d: `M${c.x - 4},${c.y - 2} L${c.x + 4},${c.y - 2} L${c.x + 6},${c.y + 12} L${c.x - 6},${c.y + 12} Z`, fill: 'rgba(0,0,0,.18)' }, L.board);
  }
}

// The dice.
export function draw(G, pos, L) {
  for (const p of pos.pieces) {
    const c = G.centre(p.square);
    const g = el('g', { 'data-piece': p.square, 'data-top': p.top, 'data-north': p.north, 'data-east': p.east }, L.pieces);
    die(g, c, p, G.flip);
  }
}

export function centre(G, key) { return G.centre(key); }

export function parse(token) {
  const t = tokenSquares(token);
  return t && t.from ? { group: t.from, srcKeys: [t.from], dst: t.to } : null;
}

// The squares a token's path turns at: none for a straight move, the corner for an L.
function corner(t) {
  if (!t.dir) return null;
  const a = parseSquare(t.from), b = parseSquare(t.to);
  return (t.dir === 'n' || t.dir === 's') ? squareName(a.f, b.r) : squareName(b.f, a.r);
}

// The path of a token as squares: from, [corner], to.
export function path(token) {
  const t = tokenSquares(token);
  if (!t) return [];
  const k = corner(t);
  return k ? [t.from, k, t.to] : [t.from, t.to];
}

const DIR = { n: 'north', s: 'south', e: 'east', w: 'west' };

// Two L paths to one square are two moves: choose by the corner square or a button.
export function choices(tokens) {
  return tokens.map(tok => {
    const t = tokenSquares(tok), k = corner(t);
    return { token: tok, key: k, label: t.dir ? `${DIR[t.dir]} first (via ${k})` : 'straight' };
  });
}

// The marks of a token: its from and to squares, and for an L the corner its arrow turns
// at (`via`), so that the last move and the best-line arrows follow the die's real path.
export function marks(token) {
  const t = tokenSquares(token);
  if (!t || !t.from) return [];
  const k = corner(t);
  return [{ from: t.from, to: t.to, via: k ? [k] : [] }];
}

export function pieceKeys(pos) { return pos.pieces.map(p => ({ key: p.square, owner: p.owner })); }
