// A square board of files a.. and ranks 1.. (R&B, Duell, Apocalypse), drawn from p1's side
// or flipped. Keys of squares are their names ("d1").
import { el } from './svg.js';

export const CELL = 64;
export const MARGIN = 22;

export function parseSquare(s) {
  const m = /^([a-z])(\d+)$/.exec(s || '');
  return m ? { f: m[1].charCodeAt(0) - 97, r: parseInt(m[2], 10) - 1 } : null;
}
export function squareName(f, r) { return String.fromCharCode(97 + f) + (r + 1); }

// The squares of a grid token: "d1d7", "a1e2n", "d4d5@b2", "R@a2" (a placement: no from).
export function tokenSquares(token) {
  let m = /^([a-z]\d)([a-z]\d)([nsew]?)(?:@([a-z]\d))?$/.exec(token);
  if (m) return { from: m[1], to: m[2], dir: m[3] || null, drop: m[4] || null };
  m = /^([A-Za-z])@([a-z]\d)$/.exec(token);
  if (m) return { from: null, piece: m[1].toUpperCase(), to: m[2] };
  return null;
}

export class Grid {
  // width x height squares; extra space above (top) and below (bottom) for hands etc.
  constructor(width, height, flip, top = 0, bottom = 0, right = 0) {
    Object.assign(this, { width, height, flip, top, bottom, right });
    this.w = MARGIN + width * CELL + 8 + right;
    this.h = top + height * CELL + MARGIN + 8 + bottom;
  }
  // Top-left corner of a square.
  corner(f, r) {
    const col = this.flip ? this.width - 1 - f : f;
    const row = this.flip ? r : this.height - 1 - r;
    return { x: MARGIN + col * CELL, y: this.top + 4 + row * CELL };
  }
  centre(square) {
    const s = parseSquare(square);
    if (!s) return null;
    const c = this.corner(s.f, s.r);
    return { x: c.x + CELL / 2, y: c.y + CELL / 2 };
  }
  // Squares, coordinates, and a transparent click target per square (class hit, data-key).
  drawSquares(layer, hitLayer, shade = null) {
    for (let r = 0; r < this.height; r++) for (let f = 0; f < this.width; f++) {
      const c = this.corner(f, r), name = squareName(f, r);
      el('rect', { x: c.x, y: c.y, width: CELL, height: CELL, class: (f + r) % 2 ? 'cell-light' : 'cell-dark' }, layer);
      const extra = shade && shade(name);
      if (extra) el('rect', { x: c.x, y: c.y, width: CELL, height: CELL, fill: extra }, layer);
      el('rect', { x: c.x, y: c.y, width: CELL, height: CELL, class: 'hit', 'data-key': name, 'data-square': name }, hitLayer);
    }
    const below = this.top + 4 + this.height * CELL + 15;
    for (let f = 0; f < this.width; f++) {
      el('text', { x: this.corner(f, 0).x + CELL / 2, y: below, class: 'coord', 'text-anchor': 'middle' }, layer, String.fromCharCode(97 + f));
    }
    for (let r = 0; r < this.height; r++) {
      el('text', { x: 8, y: this.corner(0, r).y + CELL / 2 + 4, class: 'coord', 'text-anchor': 'middle' }, layer, String(r + 1));
    }
  }
}
