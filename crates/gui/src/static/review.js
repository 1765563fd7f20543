// A game review's picture: the first player's winning chances over the plies (from the
// engine's score of each position: `wdl` when given, else the evaluation bar's axis of the
// game, its board module's `scale`, panels.js), each decision marked by how much it
// lowered its side's winning chances on lichess's scale (lila's winningChanceJudgements:
// the drop of 2p - 1, on -1..+1, of 0.1 is an inaccuracy ?!, 0.2 a mistake ?, 0.3 a
// blunder ??: 5, 10 and 15 points of the chance to win), and a summary per side. A move
// equal to the engine's best is never marked; a move after which the mover is lost by force
// (a mate against it, from a position that was not lost) is a blunder, named as such
// (lila's MateAdvice).
// A roll is no one's decision; a joint turn (both declare at once) is measured for each side
// against the value of the position before it, the value of the mixed strategy.
import { barFraction, scoreText } from './panels.js';
import { el } from './svg.js';

const MARKS = [[0.3, '??', 'blunder'], [0.2, '?', 'mistake'], [0.1, '?!', 'inaccuracy']];

// The first player's winning chances after `ply` tokens, or null when not reviewed.
export function winP1(r, scale) {
  if (!r) return null;
  if (r.result) return r.result === 'p1win' ? 1 : r.result === 'p2win' ? 0 : 0.5;
  if (!r.score) return null;
  const f = r.wdl ? (r.wdl[0] + r.wdl[1] / 2) / 1000 : barFraction(r.score, scale);
  return r.pov === 'p1' ? f : 1 - f;
}

// Whether `side` is lost by force at a reviewed position: the game over and lost, or the
// engine's score a mate against it.
function lostFor(r, side) {
  if (!r) return false;
  if (r.result) return r.result === (side === 'p1' ? 'p2win' : 'p1win');
  const s = r.score;
  if (!s || s.mate === undefined) return false;
  return (r.pov === side ? s.mate : -s.mate) < 0;
}

// The marks of the decisions: {ply, side, loss, mark, word, best} for each decision (ply:
// the position after its token; loss: the drop of its side's chance to win, 0..1). `moves`:
// the tokens (a move equal to the engine's best there loses nothing).
export function judge(results, actors, scale, moves = []) {
  const out = [];
  for (let k = 1; k < results.length; k++) {
    const a = actors[k - 1], before = winP1(results[k - 1], scale), after = winP1(results[k], scale);
    if (!a || a.kind === 'roll' || before === null || after === null) continue;
    const sides = a.kind === 'joint' ? ['p1', 'p2'] : [a.side || results[k - 1].pov];
    for (const [i, side] of sides.entries()) {
      // The best move is the searched side's (at a joint turn the search is White's).
      const best = side === results[k - 1].pov ? results[k - 1].best : null;
      const token = a.kind === 'joint' ? String(moves[k - 1] || '').split('/')[i] : moves[k - 1];
      const asBest = !!best && token === best;
      const loss = asBest ? 0 : Math.max(0, side === 'p1' ? before - after : after - before);
      const forced = !asBest && lostFor(results[k], side) && !lostFor(results[k - 1], side);
      // On -1..+1 the drop is twice the chance's (up to rounding).
      const m = forced ? MARKS[0] : MARKS.find(([t]) => 2 * loss >= t - 1e-9);
      const word = m ? (forced ? `${m[2]} (a forced loss)` : m[2]) : null;
      out.push({ ply: k, side, loss, mark: m ? m[1] : null, word, best });
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
    if (j.mark) s[MARKS[severity(j.mark)][2]] += 1;
  }
  return by;
}

// Draws the graph into `svg` (400 x 100 units) with a vertical line at ply `at` (the
// position shown, when it is on the main line; null: none); a click calls `pick` with the
// nearest ply.
export function drawGraph(svg, results, scale, pick, at = null) {
  svg.replaceChildren();
  const n = Math.max(1, results.length - 1);
  el('line', { x1: 0, y1: 50, x2: 400, y2: 50, class: 'review-mid' }, svg);
  if (at !== null) {
    const x = (Math.min(at, n) / n) * 400;
    el('line', { x1: x, y1: 0, x2: x, y2: 100, class: 'review-at', 'data-ply': at }, svg);
  }
  const pts = [];
  results.forEach((r, i) => { const w = winP1(r, scale); if (w !== null) pts.push(`${(i / n) * 400},${(1 - w) * 100}`); });
  el('polyline', { points: pts.join(' '), class: 'review-line' }, svg);
  svg.onclick = e => {
    const box = svg.getBoundingClientRect();
    pick(Math.round(((e.clientX - box.left) / box.width) * n));
  };
}

// The index in MARKS of a mark (0: the worst), or MARKS.length for none.
function severity(mark) {
  const i = MARKS.findIndex(m => m[1] === mark);
  return i < 0 ? MARKS.length : i;
}

// Marks the move list's items with `?!`, `?`, `??` and the engine's best move, shown beside
// the mark (`data-best`, drawn by the style sheet) and in the tooltip with the loss (at a
// joint turn the worse of both sides' marks, as the export writes it).
export function markMoves(ol, judged) {
  for (const li of ol.querySelectorAll('li[data-mark]')) {
    delete li.dataset.mark;
    delete li.dataset.best;
    li.classList.remove(...MARKS.map(m => 'mark-' + m[2]));
    li.removeAttribute('title');
  }
  for (const j of judged) {
    if (!j.mark) continue;
    const li = ol.querySelector(`li[data-ply="${j.ply}"]`);
    if (!li || severity(li.dataset.mark) < severity(j.mark)) continue;
    li.dataset.mark = j.mark;
    li.classList.add('mark-' + MARKS[severity(j.mark)][2]);
    if (j.best) li.dataset.best = j.best;
    else delete li.dataset.best;
    li.title = `${j.word} (${j.side}: -${(100 * j.loss).toFixed(0)} %)${j.best ? '; best ' + j.best : ''}`;
  }
}

// The evaluation of a reviewed position for a record's comment, from the first player's
// side: their winning chances and the engine's score ("White 62% (+0.35)"; the score is
// left out when it is itself a percentage, Ludo's), or who won.
function evalText(r, scale, name) {
  if (r.result) return r.result === 'draw' ? 'draw' : `${name(r.result === 'p1win' ? 'p1' : 'p2')} wins`;
  const w = winP1(r, scale);
  if (w === null) return null;
  const s = r.score, own = r.pov === 'p1';
  const p1 = scoreText(s.mate !== undefined ? { mate: own ? s.mate : -s.mate } : { cp: own ? s.cp : -s.cp }, scale);
  return `${name('p1')} ${(100 * w).toFixed(0)}%${p1.includes('%') ? '' : ` (${p1})`}`;
}

// Words joined into lines of at most 79 characters (a longer word stands alone).
function wrap(words) {
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 79) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

// The review as an annotated record: `record` (the server's record of the game: tags, a
// blank line, its tokens and its result) with an Annotator tag, the start position's
// evaluation in a comment before the first token, and after each token its mark (the worse
// of both sides' at a joint turn) and a comment with the evaluation after it and, for a
// marked move, the mark's word, its side's loss and the engine's best move. Comments and
// marks are PGN's `{...}` and `?!`, `?`, `??`, which `quartet replay` skips. `results`,
// `actors`: as for judge(); `name(side)`: a side's name; `per`: the review's search a
// position ("1500 nodes", "500 ms"), or null. Throws an Error when the record is not the
// reviewed game's.
export function annotate(record, results, actors, scale, name, per = null) {
  const cut = record.indexOf('\n\n');
  if (cut < 0) throw new Error('the record has no move list');
  const tokens = record.slice(cut + 2).split(/\s+/).filter(Boolean);
  const result = tokens.pop();
  if (tokens.length !== actors.length) {
    throw new Error(`the record has ${tokens.length} tokens, the game ${actors.length}`);
  }
  const judged = judge(results, actors, scale, tokens.map(t => t.replace(/[?!]+$/, '')));
  const words = [];
  const comment = text => words.push(...`{${text}}`.split(' '));
  const start = results[0] && evalText(results[0], scale, name);
  if (start) comment(`start: ${start}`);
  tokens.forEach((tok, i) => {
    const here = judged.filter(j => j.ply === i + 1 && j.mark).sort((a, b) => severity(a.mark) - severity(b.mark));
    words.push(tok + (here.length ? here[0].mark : ''));
    const notes = [results[i + 1] && evalText(results[i + 1], scale, name)].filter(Boolean);
    for (const j of here) {
      notes.push(`${j.word} by ${name(j.side)} (-${(100 * j.loss).toFixed(0)}%)${j.best ? `, best ${j.best}` : ''}`);
    }
    if (notes.length) comment(notes.join('; '));
  });
  words.push(result);
  const by = per ? `, ${per} a position` : '';
  return `${record.slice(0, cut).trimEnd()}\n[Annotator "Quartet review${by}"]\n\n${wrap(words)}\n\n`;
}

// The Export review control: a button after Review game, shown when a review has results,
// that asks the server for the game's record (`ask()`) and, when it comes (`take`), hands
// the annotated record to `download(text, filename)` (or `fail(message)` when it cannot be
// made). `current()` gives { results, actors, scale, name } at the time of the export.
export class ReviewExport {
  constructor(ask, download, fail, current) {
    // pending: when the record was asked for (an answer 10 s later is a plain download).
    Object.assign(this, { ask, download, fail, current, pending: null, per: null });
    const review = document.getElementById('review');
    this.button = document.createElement('button');
    this.button.id = 'export-review';
    this.button.textContent = 'Export review';
    this.button.title = 'The record with the review: evaluations in comments, marks ?! ? ?? and the best moves';
    this.button.classList.add('hidden');
    this.button.addEventListener('click', () => { this.pending = performance.now(); this.ask(); });
    review.after(this.button);
    // The search of a review, noted when it starts (the fields may change afterwards).
    review.addEventListener('click', () => {
      if (review.textContent !== 'Review game') return;
      const n = Number(document.getElementById('review-nodes').value);
      this.per = n ? `${n} ${document.getElementById('review-per').value}` : null;
    });
  }

  // Shows the button when `on` (a review has results).
  show(on) { this.button.classList.toggle('hidden', !on); }

  // A `record` message: true when it was the export's (annotated and downloaded).
  take(m) {
    const asked = this.pending;
    this.pending = null;
    if (asked === null || performance.now() - asked > 10000) return false;
    const c = this.current();
    try {
      const text = annotate(m.text, c.results, c.actors, c.scale, c.name, c.per || this.per);
      this.download(text, m.filename.replace(/\.pgn$/, '-review.pgn'));
    } catch (e) {
      this.fail(`Export review: ${e.message}`);
    }
    return true;
  }
}
