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

// An arrow from a to b (centres), through the points `via` when the move turns (a Duell L:
// its corner), so that it is drawn along the move's real path; kind: last | pv | w | b |
// void. Its ends are pulled in a little (at most 14 and 20 units, less on a short leg, so a
// one-square arrow keeps a shaft beside its head, drawn above the pieces by the caller's
// layer). A straight arrow is a line, a turning one a polyline, both with the kind's head.
export function arrow(parent, a, b, kind, opacity = 1, via = []) {
  const pts = [a, ...via, b];
  const pull = (p, q, most, part) => {
    const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1, d = Math.min(most, len * part);
    return { x: p.x + dx / len * d, y: p.y + dy / len * d };
  };
  const start = pull(pts[0], pts[1], 14, 1 / 8), end = pull(pts[pts.length - 1], pts[pts.length - 2], 20, 1 / 5);
  const attrs = { class: 'arrow ' + kind, 'marker-end': `url(#head-${kind})`, opacity };
  if (pts.length === 2) return el('line', { x1: start.x, y1: start.y, x2: end.x, y2: end.y, ...attrs }, parent);
  const line = [start, ...via, end].map(p => `${p.x},${p.y}`).join(' ');
  return el('polyline', { points: line, 'stroke-linejoin': 'round', ...attrs }, parent);
}

// A polyline through points (for paths of a die).
export function polyline(parent, pts, cls) {
  return el('polyline', { points: pts.map(p => `${p.x},${p.y}`).join(' '), class: cls }, parent);
}

// The mark of a captured piece: its square before the move (`square`, centre c, size s)
// tinted and outlined in red, drawn in a layer under the pieces, so that the piece that
// captured there stands on it uncovered, and a square the capture emptied (a custodial
// capture, an Apocalypse mover lost in a collision) shows where the piece was.
export function captureMark(parent, c, s, square) {
  const g = el('g', { class: 'removed-mark capture-mark', 'data-square': square }, parent);
  el('rect', {
    x: c.x - s / 2 + 2, y: c.y - s / 2 + 2, width: s - 4, height: s - 4, rx: 4,
    fill: 'rgba(211, 47, 47, .28)', stroke: '#d32f2f', 'stroke-width': 3, 'pointer-events': 'none',
  }, g);
  return g;
}
