// Ludo: the 15x15 cross with the four yards (Red's and Yellow's in play), the shared track,
// the home columns, the start and star safe squares, the goal, stacked pieces, and the die.
// All cells come from the engine's geometry; keys are cells "row,col".
import { el } from './svg.js';

export const sides = { p1: 'Red', p2: 'Yellow' };
// Scores are a win chance (panels.js); the marks fit the 40-unit cells.
export const scale = 'chance';
export const markSize = { cell: 38, ring: 17, dot: 8 };
const C = 40, M = 10, PANEL = 150;
const RED = '#e53935', YELLOW = '#fdd835', GREEN = '#8bc34a', BLUE = '#64b5f6';
const PIECE = { p1: RED, p2: '#f9a825' };
const HOME = { p1: '#ffcdd2', p2: '#fff9c4' };

export function layout(pos, flip) {
  const G = { flip, w: M * 2 + 15 * C + PANEL, h: M * 2 + 15 * C };
  G.xy = (r, c) => flip ? { x: M + (14 - c) * C, y: M + (14 - r) * C } : { x: M + c * C, y: M + r * C };
  G.centre = key => {
    const [r, c] = key.split(',').map(Number);
    const p = G.xy(r, c);
    return { x: p.x + C / 2, y: p.y + C / 2 };
  };
  return G;
}

const key = rc => `${rc[0]},${rc[1]}`;

// The cell of progress p (0..56) of a side, in the engine's geometry.
export function cellOf(geo, side, p) {
  if (p <= 50) return geo.track[(geo.starts[side] + p) % 52];
  if (p <= 55) return geo.home[side][p - 51];
  return geo.goal[side];
}

function star(g, c, r, fill) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
    pts.push(`${c.x + Math.cos(a) * rr},${c.y + Math.sin(a) * rr}`);
  }
  el('polygon', { points: pts.join(' '), fill, stroke: '#555', 'stroke-width': 1 }, g);
}

function dieFace(g, x, y, s, value) {
  el('rect', { x, y, width: s, height: s, rx: 10, fill: '#fff', stroke: '#333', 'stroke-width': 2, id: 'ludo-die', 'data-value': value ?? '' }, g);
  const P = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
  for (const [dx, dy] of P[value] || []) el('circle', { cx: x + s / 2 + dx * s / 4, cy: y + s / 2 + dy * s / 4, r: s / 11, fill: '#222' }, g);
  if (!value) el('text', { x: x + s / 2, y: y + s / 2 + 8, 'text-anchor': 'middle', 'font-size': 24, fill: '#aaa' }, g, '–');
}

// What the board's still part depends on besides the layout: the engine's geometry.
export function boardKey(pos) { return JSON.stringify(pos.geometry); }

// The still part: yards, track, home columns, starts and stars, the goal, yard slots and
// the click targets.
export function drawBoard(G, pos, L) {
  const geo = pos.geometry;
  const b = L.board;
  const rect = (r, c, h, w, fill, extra = {}) => {
    const a = G.xy(r, c), z = G.xy(r + h - 1, c + w - 1);
    el('rect', { x: Math.min(a.x, z.x), y: Math.min(a.y, z.y), width: w * C, height: h * C, fill, stroke: '#555', 'stroke-width': 1, ...extra }, b);
  };
  // Yards: Red top-left, Green top-right, Yellow bottom-right, Blue bottom-left.
  for (const [r, c, fill] of [[0, 0, RED], [0, 9, GREEN], [9, 9, YELLOW], [9, 0, BLUE]]) {
    rect(r, c, 6, 6, fill);
    rect(r + 1, c + 1, 4, 4, '#fff');
  }
  // Track, home columns, starts, stars.
  const safe = new Set(geo.safe);
  const startFill = { [geo.starts.p1]: RED, [geo.starts.p2]: YELLOW, 13: GREEN, 39: BLUE };
  geo.track.forEach((rc, a) => {
    rect(rc[0], rc[1], 1, 1, startFill[a] || '#fff');
    if (safe.has(a)) star(b, G.centre(key(rc)), 12, startFill[a] ? '#fff' : '#ccc');
  });
  // Red's and Yellow's home columns in a light shade of their colour, so that a piece of
  // that colour on them stands out.
  for (const [side, fill] of [['p1', HOME.p1], ['p2', HOME.p2]]) for (const rc of geo.home[side]) rect(rc[0], rc[1], 1, 1, fill);
  // Green's and Blue's home columns are not in play: shaded.
  for (let i = 1; i <= 5; i++) { rect(i, 7, 1, 1, '#dcedc8'); rect(14 - i, 7, 1, 1, '#bbdefb'); }
  // The goal: four triangles in the centre; Red's and Yellow's goal cells hold finished pieces.
  const tl = G.xy(6, 6), br = G.xy(8, 8);
  const x0 = Math.min(tl.x, br.x), y0 = Math.min(tl.y, br.y), s = 3 * C, cx = x0 + s / 2, cy = y0 + s / 2;
  const tri = (pts, fill) => el('polygon', { points: pts.map(p => p.join(',')).join(' '), fill, stroke: '#555' }, b);
  const corners = { tl: [x0, y0], tr: [x0 + s, y0], br: [x0 + s, y0 + s], bl: [x0, y0 + s] };
  const flipT = G.flip;
  tri([corners.tl, corners.bl, [cx, cy]], flipT ? YELLOW : RED);
  tri([corners.tr, corners.br, [cx, cy]], flipT ? RED : YELLOW);
  tri([corners.tl, corners.tr, [cx, cy]], flipT ? BLUE : GREEN);
  tri([corners.bl, corners.br, [cx, cy]], flipT ? GREEN : BLUE);
  // Yard slots.
  for (const side of ['p1', 'p2']) for (const rc of geo.yards[side]) el('circle', { ...(() => { const c = G.centre(key(rc)); return { cx: c.x, cy: c.y }; })(), r: 15, fill: 'none', stroke: '#999', 'stroke-width': 2 }, b);
  // Click targets on every cell a piece can be in.
  const cells = [...geo.track, ...geo.home.p1, ...geo.home.p2, ...geo.yards.p1, ...geo.yards.p2, geo.goal.p1, geo.goal.p2];
  for (const rc of cells) {
    const a = G.xy(rc[0], rc[1]);
    el('rect', { x: a.x, y: a.y, width: C, height: C, class: 'hit', 'data-key': key(rc) }, L.hit);
  }
}

// The pieces, stacked per cell, and the die with the sixes of this turn.
export function draw(G, pos, L, ctx) {
  const b = L.info;
  // Pieces, stacked per cell.
  const byCell = new Map();
  for (const p of pos.pieces) {
    const k = key(p.cell);
    if (!byCell.has(k)) byCell.set(k, []);
    byCell.get(k).push(p);
  }
  for (const [k, ps] of byCell) {
    const c = G.centre(k);
    ps.forEach((p, i) => {
      const off = ps.length > 1 ? (i - (ps.length - 1) / 2) * 6 : 0;
      el('circle', { cx: c.x + off, cy: c.y - off / 2, r: 13, fill: PIECE[p.owner], stroke: '#222', 'stroke-width': 2, class: 'piece', 'data-owner': p.owner, 'data-progress': p.progress ?? 'b' }, L.pieces);
    });
    if (ps.length > 1 && ps[0].zone !== 'base') {
      el('text', { x: c.x + 13, y: c.y - 9, 'font-size': 12, 'font-weight': 700, fill: '#000', class: 'piece stack' }, L.pieces, String(ps.length));
    }
  }
  // The die and the sixes of this turn.
  const px = M + 15 * C + 16;
  el('text', { x: px, y: 40, 'font-size': 14 }, b, pos.to_act ? `${ctx.sideName(pos.to_act)}'s turn` : '');
  dieFace(b, px, 56, 64, pos.die);
  el('text', { x: px, y: 148, 'font-size': 13, id: 'sixes', 'data-sixes': pos.sixes }, b, `sixes this turn: ${pos.sixes}`);
  if (pos.die === 6 && pos.sixes === 3) el('text', { x: px, y: 168, 'font-size': 12, fill: '#c62828' }, b, 'third six: void');
  if (ctx.extraRoll) el('text', { x: px, y: 188, 'font-size': 13, fill: '#2e7d32', id: 'extra-roll' }, b, 'extra roll!');
}

export function centre(G, k) { return G.centre(k); }

// A roll of the die (`r1`..`r6`): a chance outcome, not a decision.
export function isChance(token) { return /^r[1-6]$/.test(token); }

// A move token read in the frame of `side` (progress 0..56 of its pieces): `b-<to>` enters
// a piece from the base, `<from>-<to>` moves one; null for another token or no side.
export function parse(token, pos, side) {
  if (!side) return null;
  const geo = pos.geometry;
  let m = /^b-(\d+)$/.exec(token);
  if (m) {
    const base = pos.pieces.filter(p => p.owner === side && p.zone === 'base').map(p => key(p.cell));
    return { group: 'b', srcKeys: base, dst: key(cellOf(geo, side, parseInt(m[1], 10))) };
  }
  m = /^(\d+)-(\d+)$/.exec(token);
  if (m) {
    const from = key(cellOf(geo, side, parseInt(m[1], 10)));
    return { group: m[1], srcKeys: [from], dst: key(cellOf(geo, side, parseInt(m[2], 10))) };
  }
  return null;
}

// The last move's cells, read with the mover's frame.
export function marks(token, pos, side) {
  const t = parse(token, pos, side);
  if (!t) return [];
  return t.group === 'b' ? [{ at: t.dst }] : [{ from: t.srcKeys[0], to: t.dst }];
}

export function pieceKeys(pos) {
  return pos.pieces.filter(p => p.zone === 'track').map(p => ({ key: key(p.cell), owner: p.owner }));
}
