// The side panels: engine console, analysis (search lines, MultiPV, policy bars, win
// probability), the move list.

import { afterPaint } from './frame.js';

const $ = id => document.getElementById(id);
const MAX_CONSOLE = 600;
let pending = [];

// Console lines are added once per animation frame, so that a burst of engine output never
// delays the board.
export function consoleLines(lines) {
  if (!pending.length) requestAnimationFrame(flushConsole);
  pending.push(...lines);
}

function flushConsole() {
  const pre = $('console');
  const lines = pending.slice(-MAX_CONSOLE);
  pending = [];
  const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
  const frag = document.createDocumentFragment();
  for (const [dir, line] of lines) {
    const div = document.createElement('div');
    div.className = dir === '<' ? 'out' : dir === '!' ? 'err' : dir === '#' ? 'note' : 'in';
    div.textContent = `${dir} ${line}`;
    frag.appendChild(div);
  }
  pre.appendChild(frag);
  let extra = pre.childElementCount - MAX_CONSOLE;
  while (extra-- > 0) pre.firstElementChild.remove();
  if (atEnd) pre.scrollTop = pre.scrollHeight;
}

// A score as text on its axis (a board module's `scale`): `chance`, the centipawn-like
// units mapped to a win chance (Ludo); `value`, an expected outcome, 10000 a certain win
// (Apocalypse); else centipawns.
export function scoreText(score, scale) {
  if (!score) return '';
  if (score.mate !== undefined) return `mate ${score.mate}`;
  const v = score.cp;
  if (scale === 'chance') return `${((v / 10000 + 1) * 50).toFixed(1)} %`;
  // (A small negative value reads 0.000, not -0.000.)
  if (scale === 'value') return (v / 10000).toFixed(3).replace(/^-(0\.0+)$/, '$1');
  return (v > 0 ? '+' : '') + (v / 100).toFixed(2);
}

// Fraction 0..1 of the bar for a score from the viewer's side, on its axis.
export function barFraction(score, scale) {
  if (!score) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  const v = score.cp;
  if (scale === 'chance' || scale === 'value') return Math.max(0, Math.min(1, (v / 10000 + 1) / 2));
  return 1 / (1 + Math.exp(-v / 300));
}

export class Analysis {
  constructor() { this.reset(); }
  reset() {
    this.lines = new Map();
    this.policy = null;
    this.text = null;
    this.why = null;
    this.dirty = false;
    $('pv-table').tBodies[0].innerHTML = '';
    $('policy').innerHTML = '';
    $('search-line').textContent = '';
    $('winprob').textContent = '';
    delete $('analysis-body').dataset.at;
  }
  // Why no analysis runs at the position shown (the server's words), or null.
  note(why) {
    if (why === this.why) return;
    this.why = why;
    this.dirty = true;
  }
  // One parsed info message (drawn by draw()).
  add(msg) {
    const info = msg.info;
    if (info.kind === 'policy') this.policy = { pov: msg.pov, entries: info.entries };
    else if (info.kind === 'text') this.text = info.text;
    else { this.lines.set(info.multipv, { ...info, pov: msg.pov }); this.text = null; }
    this.dirty = true;
  }
  // Draws the lines, of the position `at` (nav.js shownKey), with scores on axis `scale`
  // (scoreText).
  draw(scale, sideName, at) {
    if (!this.dirty) return;
    this.dirty = false;
    if (this.policy) this.drawPolicy(sideName);
    const best = this.lines.get(1);
    if (!best) { $('search-line').textContent = this.why || this.text || ''; return; }
    $('analysis-body').dataset.at = at;
    const nps = best.nps ? `${(best.nps / 1000).toFixed(0)} kn/s` : '';
    $('search-line').textContent = this.text || `depth ${best.depth ?? '-'}  score ${scoreText(best.score, scale)} (${sideName(best.pov)})  nodes ${best.nodes ?? '-'}  ${nps}`;
    // A win probability: the engine's `wdl`, or the score on a win chance's axis.
    if ((best.wdl || scale === 'chance') && best.score && best.score.cp !== undefined) {
      const p = best.wdl ? best.wdl[0] / 10 : (best.score.cp / 10000 + 1) * 50;
      $('winprob').textContent = `${sideName(best.pov)} wins with probability ${p.toFixed(1)} %`;
    }
    const body = $('pv-table').tBodies[0];
    body.innerHTML = '';
    for (const k of [...this.lines.keys()].sort((a, b) => a - b)) {
      const l = this.lines.get(k);
      const tr = document.createElement('tr');
      for (const [v, cls] of [[k], [l.depth ?? ''], [scoreText(l.score, scale)], [l.nodes ?? ''], [l.nps ?? ''], [l.pv.join(' '), 'pv']]) {
        const td = document.createElement('td');
        td.textContent = v;
        if (cls) td.className = cls;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }
  drawPolicy(sideName) {
    const box = $('policy');
    box.innerHTML = '';
    const h = document.createElement('div');
    h.textContent = `${sideName(this.policy.pov)}'s mixed strategy`;
    box.appendChild(h);
    for (const [tok, p] of this.policy.entries.slice(0, 16)) {
      const row = document.createElement('div');
      row.className = 'pbar';
      row.dataset.token = tok;
      row.innerHTML = `<span class="tok"></span><span class="track"><span class="fill"></span></span><span class="p"></span>`;
      row.querySelector('.tok').textContent = tok;
      row.querySelector('.fill').style.width = `${(p * 100).toFixed(1)}%`;
      row.querySelector('.fill').style.display = 'block';
      row.querySelector('.p').textContent = `${(p * 100).toFixed(1)} %`;
      box.appendChild(row);
    }
  }
  // The best line's tokens, for drawing on the board.
  pv() { const l = this.lines.get(1); return l ? l.pv : []; }
  // The first decision of each line, best line first: the first token that `isChance`
  // (a board module's, when it has one) does not call a chance outcome (a roll).
  firstMoves(isChance = () => false) {
    return [...this.lines.keys()].sort((a, b) => a - b)
      .map(k => (this.lines.get(k).pv || []).find(t => !isChance(t)))
      .filter(Boolean);
  }
  best() { return this.lines.get(1) || null; }
}

// Where each token of the move list goes, by who acted for it (`actors`): a row per move
// number with a column per side (the first player's move starts a row, the second's ends
// it), a row per joint turn (one item across both columns) and a row per roll and the move
// after it (Ludo's turn). Returns [{ cells: [index or null, ...] }] per row, a cell `null`
// where a side has no move in that row; a joint turn's row has one cell.
export function moveRows(actors, n) {
  const rows = [];
  let open = null; // the row a next token may still join, and how: 'p2' or 'move'
  for (let i = 0; i < n; i++) {
    const a = actors[i] || { kind: 'unknown' };
    if (a.kind === 'joint') { rows.push({ cells: [i] }); open = null; continue; }
    if (a.kind === 'roll') { open = { cells: [i, null], join: 'move', side: a.side }; rows.push(open); continue; }
    const joins = open && (open.join === 'move' ? a.side === open.side || a.kind === 'unknown'
      : a.side !== 'p1');
    if (joins) { open.cells[1] = i; open = null; continue; }
    if (a.kind === 'move' && a.side === 'p2') { rows.push({ cells: [null, i] }); open = null; continue; }
    open = { cells: [i, null], join: 'p2' };
    rows.push(open);
  }
  return rows;
}

// The move list (`moveRows`): each row numbered (a row that starts with a roll names the
// side whose turn it is, `sideName(side)`), a roll greyed; `current` (tokens played up to
// the position shown) marks its last token, and a click on a token calls `pick` with the
// ply after it.
export function drawMoves(moves, actors, current, pick, sideName) {
  const ol = $('moves');
  ol.innerHTML = '';
  moveRows(actors, moves.length).forEach((r, k) => {
    const row = document.createElement('div');
    row.className = 'move-row';
    const num = document.createElement('span');
    num.className = 'move-num';
    num.textContent = `${k + 1}.`;
    const first = r.cells[0] === null ? null : actors[r.cells[0]];
    if (first && first.kind === 'roll') {
      const side = document.createElement('span');
      side.className = 'move-side';
      side.dataset.side = first.side;
      side.textContent = sideName(first.side);
      num.append(' ', side);
    }
    row.appendChild(num);
    for (const i of r.cells) {
      if (i === null) { const gap = document.createElement('span'); gap.className = 'move-gap'; row.appendChild(gap); continue; }
      const li = document.createElement('li');
      li.textContent = moves[i];
      li.dataset.ply = i + 1;
      if (actors[i] && actors[i].kind === 'roll') li.className = 'roll';
      if (r.cells.length === 1) li.classList.add('joint');
      if (i + 1 === current) li.classList.add('current');
      li.addEventListener('click', () => pick(i + 1));
      row.appendChild(li);
    }
    ol.appendChild(row);
  });
  // Scrolled to the token shown once the frame is laid out (reading its height now would
  // lay out the page once more while drawing).
  afterPaint(() => {
    const li = ol.querySelector('li.current');
    if (li && current < moves.length) li.scrollIntoView({ block: 'nearest' });
    else ol.scrollTop = ol.scrollHeight;
  });
}
