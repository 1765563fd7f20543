// A game review's picture: the first player's winning chances over the plies (from the
// engine's score of each position: `wdl` when given, else the evaluation bar's scale of the
// game), each decision marked by how much it lowered its side's chances (lichess's
// thresholds: 0.1 inaccuracy ?!, 0.2 mistake ?, 0.3 blunder ??), and a summary per side.
// A roll is no one's decision; a joint turn (both declare at once) is measured for each side
// against the value of the position before it, the value of the mixed strategy.
import { barFraction } from './panels.js';
import { el } from './svg.js';

const MARKS = [[0.3, '??', 'blunder'], [0.2, '?', 'mistake'], [0.1, '?!', 'inaccuracy']];

// The first player's winning chances after `ply` tokens, or null when not reviewed.
export function winP1(r, game) {
  if (!r) return null;
  if (r.result) return r.result === 'p1win' ? 1 : r.result === 'p2win' ? 0 : 0.5;
  if (!r.score) return null;
  const f = r.wdl ? (r.wdl[0] + r.wdl[1] / 2) / 1000 : barFraction(r.score, game);
  return r.pov === 'p1' ? f : 1 - f;
}

// The marks of the decisions: {ply, side, loss, mark, best} for each token whose side lost
// at least 0.1 of its winning chances (ply: the position after the token).
export function judge(results, actors, game) {
  const out = [];
  for (let k = 1; k < results.length; k++) {
    const a = actors[k - 1], before = winP1(results[k - 1], game), after = winP1(results[k], game);
    if (!a || a.kind === 'roll' || before === null || after === null) continue;
    const sides = a.kind === 'joint' ? ['p1', 'p2'] : [a.side || results[k - 1].pov];
    for (const side of sides) {
      const loss = side === 'p1' ? before - after : after - before;
      const m = MARKS.find(([t]) => loss >= t);
      out.push({ ply: k, side, loss: Math.max(0, loss), mark: m ? m[1] : null, word: m ? m[2] : null, best: results[k - 1].best });
    }
  }
  return out;
}

// Average loss (in percentage points of winning chances) and the counts of each mark.
export function summary(judged) {
  const by = {};
  for (const j of judged) {
    const s = by[j.side] || (by[j.side] = { n: 0, loss: 0, inaccuracy: 0, mistake: 0, blunder: 0 });
    s.n += 1; s.loss += j.loss;
    if (j.word) s[j.word] += 1;
  }
  return by;
}

// Draws the graph into `svg` (400 x 100 units); a click calls `pick` with the nearest ply.
export function drawGraph(svg, results, game, pick) {
  svg.replaceChildren();
  const n = Math.max(1, results.length - 1);
  el('line', { x1: 0, y1: 50, x2: 400, y2: 50, class: 'review-mid' }, svg);
  const pts = [];
  results.forEach((r, i) => { const w = winP1(r, game); if (w !== null) pts.push(`${(i / n) * 400},${(1 - w) * 100}`); });
  el('polyline', { points: pts.join(' '), class: 'review-line' }, svg);
  svg.onclick = e => {
    const box = svg.getBoundingClientRect();
    pick(Math.round(((e.clientX - box.left) / box.width) * n));
  };
}

// Marks the move list's items with `?!`, `?`, `??` and the engine's best move.
export function markMoves(ol, judged) {
  for (const j of judged) {
    if (!j.mark) continue;
    const li = ol.querySelector(`li[data-ply="${j.ply}"]`);
    if (!li) continue;
    li.dataset.mark = j.mark;
    li.classList.add('mark-' + j.word);
    li.title = `${j.word} (${j.side}: -${(100 * j.loss).toFixed(0)} %)${j.best ? '; best ' + j.best : ''}`;
  }
}
