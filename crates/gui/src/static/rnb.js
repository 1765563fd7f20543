// R&B: the 6x6 board with the two sun squares, South's soldiers as squares and North's as
// circles (red and black), the kings, and both hands during placement.
import { el } from './svg.js';
import { Grid, MARGIN, tokenSquares } from './grid.js';

const HAND = 58;
const COLOUR = { red: '#c62828', black: '#212121' };

export const sides = { p1: 'South', p2: 'North' };

// The grid with room for the hands; the hands' pieces are keys `hand:<side>:<letter>`.
export function layout(pos, flip) {
  const G = new Grid(pos.width, pos.height, flip, HAND, HAND);
  G.keys = {};
  for (const spot of handSpots(G)) G.keys[spot.key] = spot.c;
  return G;
}

// Where each hand piece is: the side drawn at the top of the board has its hand above it.
function handSpots(G) {
  const topSide = G.flip ? 'p1' : 'p2', spots = [];
  for (const side of ['p1', 'p2']) {
    const y = side === topSide ? HAND / 2 + 2 : G.h - HAND / 2 - 2;
    [['red', 'R'], ['black', 'B']].forEach(([colour, letter], i) => {
      spots.push({ side, colour, key: `hand:${side}:${letter}`, c: { x: MARGIN + 110 * (i + 1), y } });
    });
  }
  return spots;
}

function soldier(g, c, owner, colour, size = 40) {
  const fill = COLOUR[colour];
  if (owner === 'p1') el('rect', { x: c.x - size / 2, y: c.y - size / 2, width: size, height: size, rx: 5, fill, stroke: '#fff', 'stroke-width': 2, class: 'piece' }, g);
  else el('circle', { cx: c.x, cy: c.y, r: size / 2, fill, stroke: '#fff', 'stroke-width': 2, class: 'piece' }, g);
}

function king(g, c, owner) {
  const s = 46;
  if (owner === 'p1') el('rect', { x: c.x - s / 2, y: c.y - s / 2, width: s, height: s, rx: 6, fill: '#f9d65c', stroke: '#6d4c00', 'stroke-width': 3, class: 'piece' }, g);
  else el('circle', { cx: c.x, cy: c.y, r: s / 2, fill: '#f9d65c', stroke: '#6d4c00', 'stroke-width': 3, class: 'piece' }, g);
  const x = c.x, y = c.y + 4;
  el('path', { d: `M${x - 13},${y + 7} L${x - 14},${y - 9} L${x - 6},${y - 2} L${x},${y - 13} L${x + 6},${y - 2} L${x + 14},${y - 9} L${x + 13},${y + 7} Z`, fill: '#6d4c00', class: 'piece' }, g);
}

function sun(g, c) {
  for (let i = 0; i < 12; i++) {
    const a = i * Math.PI / 6;
    el('line', { x1: c.x + Math.cos(a) * 14, y1: c.y + Math.sin(a) * 14, x2: c.x + Math.cos(a) * 31, y2: c.y + Math.sin(a) * 31, stroke: '#f57f17', 'stroke-width': 3, 'stroke-linecap': 'round' }, g);
  }
  el('circle', { cx: c.x, cy: c.y, r: 11, fill: '#ffb300' }, g);
}

// What the board's still part depends on besides the layout: the bases and, while the
// pieces are placed, the placement zones.
export function boardKey(pos) { return JSON.stringify([pos.bases, pos.phase === 'placement' ? pos.zones : null]); }

// The still part: squares (shaded by zone while placing), the sun squares, the hands' names
// and click targets.
export function drawBoard(G, pos, L, ctx) {
  const zones = pos.phase === 'placement' ? pos.zones : null;
  const shade = name => {
    if (!zones) return null;
    const rank = parseInt(name.slice(1), 10);
    if (zones.p1.includes(rank)) return 'rgba(30,136,229,.12)';
    if (zones.p2.includes(rank)) return 'rgba(229,57,53,.10)';
    return null;
  };
  G.drawSquares(L.board, L.hit, shade);
  for (const s of Object.values(pos.bases)) sun(L.board, G.centre(s));
  for (const spot of handSpots(G)) {
    const { x, y } = spot.c;
    if (spot.colour === 'red') el('text', { x: MARGIN, y: y + 5, class: 'coord', 'font-size': 13 }, L.board, ctx.sideName(spot.side));
    el('rect', { x: x - 22, y: y - 22, width: 70, height: 44, class: 'hit', 'data-key': spot.key }, L.hit);
  }
}

// The pieces on the board and in the hands, with each hand's counts.
export function draw(G, pos, L) {
  for (const p of pos.pieces) {
    const c = G.centre(p.square);
    if (p.kind === 'king') king(L.pieces, c, p.owner); else soldier(L.pieces, c, p.owner, p.colour);
  }
  for (const spot of handSpots(G)) {
    const n = pos.hands[spot.side][spot.colour], { x, y } = spot.c;
    const g = el('g', { opacity: n > 0 ? 1 : 0.25 }, L.pieces);
    soldier(g, spot.c, spot.side, spot.colour, 34);
    el('text', { x: x + 24, y: y + 5, 'font-size': 15 }, L.info, `×${n}`);
  }
}

export function centre(G, key) { return G.keys[key] || G.centre(key); }

export function parse(token, pos, side) {
  const t = tokenSquares(token);
  if (!t) return null;
  if (!t.from) { const k = `hand:${side}:${t.piece}`; return { group: k, srcKeys: [k], dst: t.to }; }
  return { group: t.from, srcKeys: [t.from], dst: t.to };
}

export function marks(token) {
  const t = tokenSquares(token);
  if (!t) return [];
  return t.from ? [{ from: t.from, to: t.to }] : [{ at: t.to }];
}

export function pieceKeys(pos) { return pos.pieces.map(p => ({ key: p.square, owner: p.owner })); }
