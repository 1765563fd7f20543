// Small helpers for building SVG.
export const NS = 'http://www.w3.org/2000/svg';

// Creates an SVG element with attributes, appends it to parent, sets text.
export function el(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// Arrow marker definitions, once per board drawing.
export function defs(svg) {
  const d = el('defs', {}, svg);
  for (const [id, colour] of [['last', '#e67e22'], ['pv', '#2e7d32'], ['w', '#1976d2'], ['b', '#424242'], ['void', '#d32f2f']]) {
    const m = el('marker', { id: 'head-' + id, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' }, d);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: colour }, m);
  }
}

// An arrow from a to b (centres), shortened at both ends; kind: last | pv | w | b | void.
export function arrow(parent, a, b, kind, opacity = 1) {
  const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
  const s = Math.min(14, len / 4), e = Math.min(20, len / 3);
  const p = el('line', {
    x1: a.x + dx / len * s, y1: a.y + dy / len * s, x2: b.x - dx / len * e, y2: b.y - dy / len * e,
    class: 'arrow ' + kind, 'marker-end': `url(#head-${kind})`, opacity,
  }, parent);
  return p;
}

// A polyline through points (for paths of a die).
export function polyline(parent, pts, cls) {
  return el('polyline', { points: pts.map(p => `${p.x},${p.y}`).join(' '), class: cls }, parent);
}

// A red cross at c (a piece that has just gone).
export function cross(parent, c, r) {
  const g = el('g', { class: 'removed-mark' }, parent);
  el('line', { x1: c.x - r, y1: c.y - r, x2: c.x + r, y2: c.y + r, class: 'removed' }, g);
  el('line', { x1: c.x - r, y1: c.y + r, x2: c.x + r, y2: c.y - r, class: 'removed' }, g);
  return g;
}
