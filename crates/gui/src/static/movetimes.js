// The move-time chart, as lichess draws it: the time each decision took, the first
// player's bars above the middle and the second's below, from the clock readings of the
// main line (`state.clk`: each token's `[%clk ...]`, the mover's time left after it, as the
// session's clocks noted them or a loaded record carried them). A decision's time is the
// side's previous reading (the clock's start for its first) less this one plus the
// increment; a roll takes no one's time.
import { el } from './svg.js';

// Every decision's time: {ply (1-based), side, ms}, for the decisions whose time is known.
export function moveTimes(clk, actors) {
  if (!clk || !Array.isArray(clk.readings)) return [];
  const inc = clk.inc_ms || 0;
  const prev = { p1: clk.base_ms ?? null, p2: clk.base_ms ?? null };
  const out = [];
  clk.readings.forEach((readings, i) => {
    const a = actors[i];
    if (!a || a.kind === 'roll' || !readings.length) return;
    const sides = a.kind === 'joint' ? ['p1', 'p2'] : [a.side];
    readings.forEach((left, j) => {
      const side = sides[j];
      if (!side) return;
      if (prev[side] !== null) out.push({ ply: i + 1, side, ms: Math.max(0, prev[side] - left + inc) });
      prev[side] = left;
    });
  });
  return out;
}

// Seconds for people: "0.4 s", "12 s", "1:05".
function secs(ms) {
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : s < 60 ? `${Math.round(s)} s` : `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
}

// Draws the chart into `svg` (400 x 100 units) for a main line of `plies` tokens; a bar's
// tooltip names the move and its time; a click calls `pick` with the bar's ply. Returns
// the number of bars.
export function drawMoveTimes(svg, clk, actors, moves, plies, name, pick) {
  svg.replaceChildren();
  const times = moveTimes(clk, actors);
  if (!times.length) return 0;
  const n = Math.max(1, plies);
  const most = Math.max(...times.map(t => t.ms), 1);
  const w = Math.max(0.8, Math.min(8, 400 / n - 0.6));
  el('line', { x1: 0, y1: 50, x2: 400, y2: 50, class: 'review-mid' }, svg);
  for (const t of times) {
    const h = Math.max(0.5, (t.ms / most) * 48);
    const x = Math.min(400 - w, Math.max(0, ((t.ply - 0.5) / n) * 400 - w / 2));
    const bar = el('rect', {
      x, width: w, y: t.side === 'p1' ? 50 - h : 50, height: h,
      class: `movetime movetime-${t.side}`, 'data-ply': t.ply, 'data-ms': t.ms,
    }, svg);
    el('title', {}, bar, `${t.ply}. ${moves[t.ply - 1] || ''} (${name(t.side)}): ${secs(t.ms)}`);
    bar.addEventListener('click', e => { e.stopPropagation(); pick(t.ply); });
  }
  return times.length;
}
