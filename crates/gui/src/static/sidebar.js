// The side panel as the state has it: the move list with its variations, the navigation's
// words, the position string and seed, the setup selects, the review, the evaluation bar
// and the clocks.
import { ui, $, sideName, scale } from './ui.js';
import { send } from './socket.js';
import { afterPaint } from './frame.js';
import { drawDetail, drawGraph, drawMap, markMoves, summary } from './review.js';
import { drawVariations } from './variations.js';
import { drawMoveTimes } from './movetimes.js';
import { drawMoves, scoreText, barFraction } from './panels.js';
import { goTo, shownPly, shownKey } from './nav.js';
import { viewDeclaring } from './input.js';

let movesShown = null, setupShown = null;

// The games with dice: those whose positions the engine has shown as chance nodes (a roll
// to make, or made), in this game or an earlier one in this browser, kept so that the seed
// can be set before a new game of one.
const DICE = 'quartet-dice-games';
function diceGames() {
  try { return new Set(JSON.parse(localStorage.getItem(DICE) || '[]')); } catch { return new Set(); }
}
function noteDice(state) {
  const chance = (state.position && state.position.node === 'chance') || state.actors.some(a => a.kind === 'roll') ||
    (ui.view && ui.view.position && ui.view.position.node === 'chance');
  const games = diceGames();
  if (!chance || games.has(state.game)) return;
  games.add(state.game);
  localStorage.setItem(DICE, JSON.stringify([...games]));
}

// The dice seed is shown for the game chosen (for a new game) when it has dice.
export function showSeed() {
  $('seed').closest('label').classList.toggle('hidden', !diceGames().has($('game').value));
}

export function renderPanels() {
  const { state, view } = ui;
  // The move list is rebuilt only when it changed (its scrolling needs a layout).
  const moves = `${shownKey()}:${state.moves.join(' ')}:${JSON.stringify(state.variations)}`;
  if (moves !== movesShown) {
    const inLine = view && view.line !== null;
    drawMoves(state.moves, state.actors, inLine ? -1 : shownPly(), p => goTo(p, null), sideName);
    const tok = drawVariations($('moves'), state.variations, { line: inLine ? view.line : null, ply: shownPly() },
      (line, ply) => goTo(ply, line), line => send({ t: 'promote', line }), line => send({ t: 'delete_line', line }));
    if (tok) afterPaint(() => tok.scrollIntoView({ block: 'nearest' }));
    movesShown = moves;
  }
  renderReview();
  renderTemperature();
  renderMoveTimes();
  const declaring = viewDeclaring();
  const declares = declaring ? ` · ${sideName(declaring)} declares for a variation` : '';
  $('nav-text').textContent = !view ? '' : view.line !== null
    ? `variation ${view.line + 1}, after ${view.ply}${declares} · End: the game now`
    : `after ${view.ply} of ${state.moves.length}${declares} · End: the game now`;
  // The position string is the position shown (looked back at, or the game's now), as
  // lichess has it, so that Copy and Start from this position take the one on the board.
  const fen = $('fen');
  const shown = view && view.position ? view.position : state.position;
  if (document.activeElement !== fen && shown) fen.value = shown.fen;
  const seed = $('seed');
  if (document.activeElement !== seed) seed.value = state.seed;
  noteDice(state);
  showSeed();
  // The setup selects follow the session only when its game or players change, so that a
  // person's choice there survives the states an engine game sends until they act on it.
  const setup = `${state.game} ${state.players.join(' ')}`;
  if (setup !== setupShown) {
    setupShown = setup;
    if (document.activeElement !== $('game')) $('game').value = state.game;
    for (const [i, id] of ['p1', 'p2'].entries()) if (document.activeElement !== $(id)) $(id).value = state.players[i];
  }
  for (const s of document.querySelectorAll('.side-name')) s.textContent = sideName(s.dataset.side);
  // The players' names: a loaded record's (an engine game's), else Human or the engine's.
  const names = state.names || ['', ''];
  $('players-names').textContent = `${sideName('p1')}: ${names[0]} · ${sideName('p2')}: ${names[1]}`;
  $('pause').checked = state.paused;
  $('analyse').checked = state.analyse;
  const f = $('fault');
  if (state.fault) {
    $('fault-text').textContent = `Engine ${state.fault.kind}: ${state.fault.detail}. The game so far is kept.`;
    f.classList.remove('hidden');
  } else f.classList.add('hidden');
  $('clocks').classList.toggle('hidden', !state.clocks);
}

// The review (kept by the session, state.review, and the review itself, ui.review): its
// progress, the graph, the evaluations and marks on the move list, the summary per side
// and the detail of the ply shown; a review cut short says how far it got (and why, when
// its engine failed) and offers Continue review.
function renderReview() {
  const { state, review } = ui;
  const r = state.review;
  const running = !!(r && r.running);
  $('review').textContent = running ? 'Cancel review' : 'Review game';
  $('review-progress').classList.toggle('hidden', !running);
  if (r) $('review-progress').value = r.done / r.total;
  $('review-continue').classList.toggle('hidden', !(r && r.cut));
  $('review-graph').classList.toggle('hidden', !review);
  ui.reviewExport.show(!!review && !running);
  const cut = [];
  if (r && r.cut) {
    const d = document.createElement('div');
    d.className = 'review-cut';
    d.textContent = `Review cut short after ${r.done} of ${r.total} positions (${r.per} a search)` +
      `${r.error ? `: ${r.error}` : ''}. Continue review searches the rest.`;
    cut.push(d);
  }
  markMoves($('moves'), review, sideName);
  if (!review) { $('review-summary').replaceChildren(...cut); $('review-detail').replaceChildren(); return; }
  const onMain = !ui.view || ui.view.line === null;
  drawGraph($('review-graph'), review, sideName, goTo, onMain ? shownPly() : null);
  $('review-summary').replaceChildren(...cut, ...summary(review, sideName).map(({ side, text }) => {
    const d = document.createElement('div');
    d.className = 'review-side';
    d.dataset.side = side;
    d.textContent = text;
    return d;
  }));
  drawDetail($('review-detail'), review, onMain ? shownPly() : 0, sideName);
}

// The key of the position shown, for its temperature map: where it is and the line.
export function temperatureKey() {
  return `${shownKey()}:${(ui.state && ui.state.moves.join(' ')) || ''}`;
}

// The Temperature map button, shown where a roll is due, and the map asked for there.
function renderTemperature() {
  const { state, view } = ui;
  const shown = view && view.position ? view.position : state.position;
  const chance = !!shown && shown.node === 'chance';
  $('temperature').classList.toggle('hidden', !chance);
  const t = ui.temperature;
  const box = $('temperature-box');
  box.replaceChildren();
  if (chance && t && t.key === temperatureKey()) drawMap(box, t.map, shown.to_act === 'p2' ? 'p2' : 'p1', null, sideName);
}

// The move-time chart of the main line's clock readings (movetimes.js), redrawn when they
// change; hidden without readings.
let moveTimesShown = null;
function renderMoveTimes() {
  const { state } = ui;
  const key = JSON.stringify([state.clk, state.moves.length]);
  if (key === moveTimesShown) return;
  moveTimesShown = key;
  const bars = drawMoveTimes($('movetime-chart'), state.clk, state.actors, state.moves, state.moves.length, sideName, p => goTo(p, null));
  $('movetimes').classList.toggle('hidden', bars === 0);
}

export function evalBar() {
  const { state } = ui;
  const best = ui.analysis.best();
  const fill = $('evalfill'), text = $('evaltext');
  if (!state || !best || !best.score || ui.analysisAt !== shownKey()) { fill.style.height = '50%'; text.textContent = ''; return; }
  const humans = ['p1', 'p2'].filter((s, i) => state.players[i] === 'human');
  const viewer = humans.length === 1 ? humans[0] : (ui.flip ? 'p2' : 'p1');
  const sign = best.pov === viewer ? 1 : -1;
  const score = best.score.mate !== undefined ? { mate: sign * best.score.mate } : { cp: sign * best.score.cp };
  fill.style.height = `${(barFraction(score, scale()) * 100).toFixed(1)}%`;
  text.textContent = scoreText(score, scale());
  $('evalbar').dataset.viewer = viewer;
}

// The clocks: the game's, running; while stepping back through the main line, as they were
// when that ply was reached (a variation's plies have none: a dash).
export function tickClocks() {
  const base = ui.clockBase;
  if (!base) return;
  const dt = performance.now() - base.at, v = ui.view;
  const then = v ? (v.line === null ? ui.clocksAt[v.ply] : undefined) || null : undefined;
  for (const span of document.querySelectorAll('.clock')) {
    const i = span.dataset.side === 'p1' ? 0 : 1;
    const running = then === undefined && base.running[i];
    const ms = then === undefined ? base.left[i] - (running ? dt : 0) : then && then[i];
    const s = Math.max(0, ms) / 1000;
    const time = then === null ? '–' : `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
    span.textContent = `${sideName(span.dataset.side)} ${time}`;
    span.classList.toggle('running', running);
  }
}
