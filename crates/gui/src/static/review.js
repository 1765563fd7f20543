// A game review as the page shows it: the review is the session's, made by the code
// `quartet review` runs (the quartet-review crate; docs/review.md), and sent whole once
// done (`review_log`). Every value is the first player's expected score (0..1); a loss
// is its mover's. The page draws: the graph of the values, the first player's area above
// the middle and the second's below, a dot on each marked decision and a tooltip (the
// move, the value after it, the engine's best) on every ply; an evaluation beside each
// move, with the mark and the engine's best beside a marked one; a summary per side
// (lichess's accuracy, the average loss, the luck, the luck-adjusted result, the marks);
// and the detail of the ply shown: a roll's luck and temperature map (the value after
// each face, gnubg's), a joint turn's two equilibrium policies with each side's loss.
// It also exports the review as an annotated record.
import { el } from './svg.js';

const WORDS = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

// A first player's expected score in percent ("62%").
export function pct(p) { return `${(100 * p).toFixed(0)}%`; }

// A change of expected score in signed percentage points ("+4.1").
function points(x) { const v = 100 * x; return `${v >= -0.05 ? '+' : '−'}${Math.abs(v).toFixed(1)}`; }

// The values of every position, start first (an `(end)` ply included).
export function values(review) { return [review.start_value, ...review.plies.map(p => p.value)]; }

// The side a ply's mover is (`p1`, `p2`), or null for both (a joint turn).
function sideOf(ply) { return ply.mover === 'first' ? 'p1' : ply.mover === 'second' ? 'p2' : null; }

// A mark's word, "blunder (a forced loss)" when the mover is lost for certain after it.
export function markWord(ply) {
  if (!ply.mark) return null;
  const lost = (ply.mover === 'first' && ply.value === 0) || (ply.mover === 'second' && ply.value === 1);
  return WORDS[ply.mark] + (ply.mark === '??' && lost ? ' (a forced loss)' : '');
}

// One ply in words for the tooltips: "12. d1d7 ?? blunder · White 34% · best e1e3".
function plyText(ply, name) {
  const parts = [`${ply.ply}. ${ply.token}${ply.mark || ''}`];
  if (ply.mark) parts[0] += ` ${markWord(ply)}`;
  parts.push(`${name('p1')} ${pct(ply.value)}`);
  if (ply.luck !== undefined && ply.node === 'chance') parts.push(`luck ${points(ply.luck)}`);
  if (ply.best && ply.best !== ply.token && !ply.forced) parts.push(`best ${ply.best}`);
  return parts.join(' · ');
}

// Draws the graph into `svg` (400 x 100 units) with a vertical line at ply `at` (the
// position shown, on the main line; null: none); a click calls `pick` with the nearest
// ply.
export function drawGraph(svg, review, name, pick, at = null) {
  svg.replaceChildren();
  const vs = values(review);
  const n = Math.max(1, vs.length - 1);
  const x = i => (i / n) * 400, y = v => (1 - v) * 100;
  const line = vs.map((v, i) => `${x(i)},${y(v)}`);
  // The first player's area: the curve above the middle; the second's: below it.
  const clamp = f => vs.map((v, i) => `${x(i)},${f(y(v), 50)}`).join(' ');
  el('polygon', { points: `0,50 ${clamp(Math.min)} 400,50`, class: 'review-area review-area-p1' }, svg);
  el('polygon', { points: `0,50 ${clamp(Math.max)} 400,50`, class: 'review-area review-area-p2' }, svg);
  el('line', { x1: 0, y1: 50, x2: 400, y2: 50, class: 'review-mid' }, svg);
  el('polyline', { points: line.join(' '), class: 'review-line' }, svg);
  if (at !== null) {
    const ax = x(Math.min(at, n));
    el('line', { x1: ax, y1: 0, x2: ax, y2: 100, class: 'review-at', 'data-ply': at }, svg);
  }
  // A column per ply for its tooltip; a dot on each marked decision.
  const w = 400 / n;
  review.plies.forEach(p => {
    const col = el('rect', { x: x(p.ply) - w / 2, y: 0, width: w, height: 100, class: 'review-hover', 'data-ply': p.ply }, svg);
    el('title', {}, col, plyText(p, name));
  });
  el('title', {}, svg.insertBefore(el('rect', { x: 0, y: 0, width: w / 2, height: 100, class: 'review-hover', 'data-ply': 0 }), svg.firstChild),
    `start · ${name('p1')} ${pct(review.start_value)}`);
  for (const p of review.plies.filter(q => q.mark)) {
    const dot = el('ellipse', { cx: x(p.ply), cy: y(p.value), rx: 3.2, ry: 3.2, class: `review-dot mark-${WORDS[p.mark]}`, 'data-ply': p.ply }, svg);
    el('title', {}, dot, plyText(p, name));
  }
  svg.onclick = e => {
    const box = svg.getBoundingClientRect();
    pick(Math.round(((e.clientX - box.left) / box.width) * n));
  };
}

// Writes beside each move of the list (`ol`) its evaluation (the first player's expected
// score after it; a roll's luck), and on a marked move its mark, the engine's best and a
// tooltip (`data-note`, drawn by the style sheet; `data-mark`, `data-best`). A joint turn
// shows the worse of both sides' marks.
export function markMoves(ol, review, name) {
  for (const li of ol.querySelectorAll('li[data-note]')) {
    for (const k of ['note', 'mark', 'best']) delete li.dataset[k];
    li.classList.remove(...Object.values(WORDS).map(w => 'mark-' + w));
    li.removeAttribute('title');
  }
  if (!review) return;
  for (const p of review.plies) {
    const li = ol.querySelector(`li[data-ply="${p.ply}"]`);
    if (!li) continue;
    let note = pct(p.value);
    if (p.node === 'chance') note += ` luck ${points(sideOf(p) === 'p2' ? -p.luck : p.luck)}`;
    if (p.mark) {
      li.dataset.mark = p.mark;
      li.classList.add('mark-' + WORDS[p.mark]);
      const best = p.node === 'joint' ? null : p.best;
      if (best) li.dataset.best = best;
      note = `${p.mark}${best ? ` best ${best}` : ''} ${note}`;
    }
    li.dataset.note = note;
    li.title = plyText(p, name);
  }
}

// `x` with one decimal, never "-0.0".
function tenths(x) { const t = x.toFixed(1); return t === '-0.0' ? '0.0' : t; }

// A side's summary in words.
function sideText(s, side, name) {
  const parts = [];
  if (s.accuracy !== null && s.accuracy !== undefined) parts.push(`accuracy ${s.accuracy.toFixed(0)} %`);
  if (s.average_loss !== null && s.average_loss !== undefined) parts.push(`average loss ${tenths(100 * s.average_loss)} %`);
  parts.push(`${s.inaccuracies} inaccuracies ?!, ${s.mistakes} mistakes ?, ${s.blunders} blunders ??`);
  return `${name(side)}: ${parts.join(' · ')}`;
}

// The summary per side: [{side, text, luck}] (luck only for a game with rolls or joint
// turns: its own rolls' luck, and the result less all luck in its favour).
export function summary(review, name) {
  const lucky = review.plies.some(p => p.node === 'chance');
  return [['p1', review.sides.first], ['p2', review.sides.second]].map(([side, s]) => {
    let text = sideText(s, side, name);
    if (lucky) text += ` · luck ${points(s.luck)}`;
    if (lucky && s.luck_adjusted_result !== null && s.luck_adjusted_result !== undefined) {
      text += ` · luck-adjusted result ${s.luck_adjusted_result.toFixed(2)}`;
    }
    return { side, text };
  });
}

// The detail of ply `k` (the token that led to the position shown) into `box`: a roll's
// luck and temperature map, a joint turn's two policies, a decision's loss and the best.
export function drawDetail(box, review, k, name) {
  box.replaceChildren();
  const p = review && review.plies[k - 1];
  if (!p) return;
  const head = document.createElement('div');
  head.className = 'detail-head';
  head.textContent = plyText(p, name);
  box.append(head);
  if (p.node === 'chance' && p.outcomes) {
    const side = sideOf(p) || 'p1';
    const cap = document.createElement('div');
    cap.className = 'detail-note';
    cap.textContent = `${name(side)}'s roll: luck ${points(side === 'p1' ? p.luck : -p.luck)}`;
    box.append(cap);
    drawMap(box, p.outcomes, side, p.token, name);
  } else if (p.node === 'joint' && p.first && p.second) {
    for (const [side, part] of [['p1', p.first], ['p2', p.second]]) {
      const t = document.createElement('table');
      t.className = 'policy-table';
      t.dataset.side = side;
      const cap = t.createCaption();
      cap.textContent = `${name(side)} declared ${part.declaration}: loss ${(100 * part.loss).toFixed(1)} %${part.mark ? ` ${part.mark}` : ''}`;
      const hr = t.insertRow();
      for (const h of ['declaration', 'probability', `value for ${name(side)}`]) { const th = document.createElement('th'); th.textContent = h; hr.append(th); }
      // The mixed declarations and the one played; the others (never played at the
      // equilibrium) counted in a last row.
      const shown = part.policy.filter(d => d.probability > 0 || d.token === part.declaration);
      for (const d of shown) {
        const r = t.insertRow();
        if (d.token === part.declaration) r.className = 'played';
        const v = d.value === undefined ? '–' : pct(side === 'p1' ? d.value : 1 - d.value);
        for (const c of [d.token, pct(d.probability), v]) r.insertCell().textContent = c;
      }
      const rest = part.policy.length - shown.length;
      if (rest > 0) {
        const r = t.insertRow();
        r.className = 'policy-rest';
        const c = r.insertCell();
        c.colSpan = 3;
        c.textContent = `and ${rest} more at 0%`;
      }
      box.append(t);
    }
  } else if (p.loss !== undefined) {
    const d = document.createElement('div');
    d.className = 'detail-note';
    d.textContent = `loss ${(100 * p.loss).toFixed(1)} %${p.best && p.best !== p.token ? `; the engine's choice ${p.best}` : ''}`;
    box.append(d);
  }
}

// gnubg's temperature map into `box`: the value of each outcome (`{token, weight,
// value}`, the first player's value after it) for `side`, the side that rolls, coloured
// from its worst (blue) to its best (red), `played` outlined, and the average over the
// outcomes (the value before the roll).
export function drawMap(box, outcomes, side, played, name) {
  const view = v => (side === 'p1' ? v : 1 - v);
  const mean = outcomes.reduce((a, o) => a + o.weight * o.value, 0) / outcomes.reduce((a, o) => a + o.weight, 0);
  const cap = document.createElement('div');
  cap.className = 'detail-note';
  cap.textContent = `before the roll ${pct(view(mean))} for ${name(side)} on average; after each face:`;
  const map = document.createElement('div');
  map.className = 'temperature-map';
  const lo = Math.min(...outcomes.map(o => view(o.value))), hi = Math.max(...outcomes.map(o => view(o.value)));
  for (const o of outcomes) {
    const cell = document.createElement('div');
    const v = view(o.value);
    const heat = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    cell.className = 'temperature' + (o.token === played ? ' played' : '');
    cell.dataset.token = o.token;
    cell.dataset.value = v;
    cell.style.background = `hsl(${Math.round(220 - 220 * heat)}, 70%, ${Math.round(88 - 18 * heat)}%)`;
    cell.textContent = `${o.token} ${pct(v)}`;
    cell.title = `${o.token}: ${pct(v)} for ${name(side)} (${points(v - view(mean))} against the average)`;
    map.append(cell);
  }
  box.append(cap, map);
}

// lichess's reading of an expected score as an evaluation in pawns: the eval whose
// winning chances (2 / (1 + exp(-0.00368208 cp)) - 1, on -1..+1) are the score's, cut at
// +-20 (a certain result).
export function evalPawns(p) {
  const w = Math.max(-1, Math.min(1, 2 * p - 1));
  const cp = Math.abs(w) >= 0.99999 ? Math.sign(w) * 2000 : Math.log((1 + w) / (1 - w)) / 0.00368208;
  const pawns = Math.max(-20, Math.min(20, cp / 100));
  return (Math.round(pawns * 100) / 100).toFixed(2);
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

// The move list of a record: its tokens, the comment after each (without braces; one that
// goes over lines has its words joined by spaces, so `[%clk 0:00:09]` is whole where the
// writer broke the line after `[%clk`), and its result.
function moveList(body) {
  const tokens = [], comments = [];
  const re = /\{([^}]*)\}|(\S+)/g;
  let m;
  while ((m = re.exec(body))) {
    if (m[1] !== undefined) { if (tokens.length) comments[tokens.length - 1] = ((comments[tokens.length - 1] || '') + ' ' + m[1].replace(/\s+/g, ' ')).trim(); } else tokens.push(m[2]);
  }
  return { tokens, comments, result: tokens.pop() };
}

// The review as an annotated record: `record` (the server's record of the game: tags, a
// blank line, its tokens with their clock comments, and its result) with an Annotator
// tag, the start's value in a comment before the first token, and after each token its
// mark and a comment with `[%eval x]` (lichess's reading of the value, evalPawns), its
// `[%clk ...]` when it had one, the value for the first player, a roll's luck and, for a
// marked move, the mark's word, its side's loss and the engine's best. `quartet replay`
// skips comments and marks. `name(side)`: a side's name; `per`: the review's search ("1500
// nodes"), or null. Throws an Error when the record is not the reviewed game's.
export function annotate(record, review, name, per = null) {
  const cut = record.indexOf('\n\n');
  if (cut < 0) throw new Error('the record has no move list');
  const { tokens, comments, result } = moveList(record.slice(cut + 2));
  const plies = review.plies.filter(p => p.token !== '(end)');
  if (tokens.length !== plies.length) {
    throw new Error(`the record has ${tokens.length} tokens, the review ${plies.length}`);
  }
  const words = [];
  const comment = text => words.push(...`{${text}}`.split(' '));
  comment(`[%eval ${evalPawns(review.start_value)}] start: ${name('p1')} ${pct(review.start_value)}`);
  plies.forEach((p, i) => {
    words.push(tokens[i] + (p.mark || ''));
    const notes = [`[%eval ${evalPawns(p.value)}]`];
    const clk = (comments[i] || '').match(/\[%clk [^\]]*\]/g);
    if (clk) notes.push(...clk);
    let text = `${name('p1')} ${pct(p.value)}`;
    if (p.node === 'chance') text += `, luck ${points(p.luck)}`;
    const marked = p.node === 'joint' ? [['p1', p.first], ['p2', p.second]].filter(([, s]) => s && s.mark)
      : p.mark ? [[sideOf(p), p]] : [];
    for (const [side, s] of marked) {
      const best = p.node === 'joint' ? '' : p.best ? `, best ${p.best}` : '';
      text += `; ${p.node === 'joint' ? WORDS[s.mark] : markWord(p)} by ${name(side)} (-${(100 * s.loss).toFixed(0)}%)${best}`;
    }
    comment(`${notes.join(' ')} ${text}`);
  });
  const end = review.plies.find(p => p.token === '(end)');
  if (end && end.mark) comment(`the end: ${markWord(end)} by ${name(sideOf(end))} (-${(100 * end.loss).toFixed(0)}%)`);
  words.push(result);
  const by = per ? `, ${per} a search` : '';
  return `${record.slice(0, cut).trimEnd()}\n[Annotator "Quartet review${by}"]\n\n${wrap(words)}\n\n`;
}

// The Export review control: a button after Review game, shown when a review is done,
// that asks the server for the game's record (`ask()`) and, when it comes (`take`), hands
// the annotated record to `download(text, filename)` (or `fail(message)` when it cannot be
// made). `current()` gives { review, name, per } at the time of the export.
export class ReviewExport {
  constructor(ask, download, fail, current) {
    // pending: when the record was asked for (an answer 10 s later is a plain download).
    Object.assign(this, { ask, download, fail, current, pending: null });
    const button = document.getElementById('review');
    this.button = document.createElement('button');
    this.button.id = 'export-review';
    this.button.textContent = 'Export review';
    this.button.title = 'The record with the review: [%eval] and the values in comments, marks ?! ? ?? and the best moves';
    this.button.classList.add('hidden');
    this.button.addEventListener('click', () => { this.pending = performance.now(); this.ask(); });
    button.after(this.button);
  }

  // Shows the button when `on` (a review is done).
  show(on) { this.button.classList.toggle('hidden', !on); }

  // A `record` message: true when it was the export's (annotated and downloaded).
  take(m) {
    const asked = this.pending;
    this.pending = null;
    if (asked === null || performance.now() - asked > 10000) return false;
    const c = this.current();
    try {
      if (!c.review) throw new Error('no review');
      this.download(annotate(m.text, c.review, c.name, c.per), m.filename.replace(/\.pgn$/, '-review.pgn'));
    } catch (e) {
      this.fail(`Export review: ${e.message}`);
    }
    return true;
  }
}
