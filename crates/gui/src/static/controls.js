// The page's controls beside the board: new game and players, the tools bar, records,
// the position string, the review, the engine's limits and pause; and the message box.
import { ui, $ } from './ui.js';
import { send, playHere } from './socket.js';
import { wireNavigation } from './nav.js';
import { showSeed, temperatureKey } from './sidebar.js';

// The largest record the server takes (1 MiB with the message around it).
const MAX_RECORD = (1 << 20) - 64;

// Shows a message for 8 s, or until the page is reloaded when `lasting`.
export function showMessage(text, lasting) {
  const box = $('message');
  box.textContent = text;
  box.classList.remove('hidden');
  clearTimeout(showMessage.timer);
  if (!lasting) showMessage.timer = setTimeout(() => box.classList.add('hidden'), 8000);
}

// Saves `text` as a file named `filename`.
export function download(text, filename) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function limitFromInputs() {
  const kind = $('limit-kind').value, v = Number($('limit-value').value);
  if (kind === 'movetime') return { t: 'limit', kind, ms: Math.round(v) };
  if (kind === 'depth') return { t: 'limit', kind, depth: Math.round(v) };
  if (kind === 'nodes') return { t: 'limit', kind, nodes: Math.round(v) };
  return { t: 'limit', kind, base_ms: Math.round(v * 1000), inc_ms: Math.round(Number($('limit-inc').value) * 1000) };
}

const seedValue = () => ($('seed').value === '' ? null : Number($('seed').value));

export function wire() {
  $('new-game').addEventListener('click', () => {
    const p1 = $('p1').value, p2 = $('p2').value;
    ui.flip = p1 === 'engine' && p2 === 'human';
    send({ t: 'new_game', game: $('game').value, p1, p2, seed: seedValue() });
  });
  $('game').addEventListener('change', showSeed);
  $('apply-players').addEventListener('click', () => send({ t: 'players', p1: $('p1').value, p2: $('p2').value }));
  $('flip').addEventListener('click', () => { ui.flip = !ui.flip; ui.render(); });
  $('takeback').addEventListener('click', () => send({ t: 'takeback' }));
  $('move-now').addEventListener('click', () => send({ t: 'move_now' }));
  $('pause').addEventListener('change', e => send({ t: 'pause', on: e.target.checked }));
  $('analyse').addEventListener('change', e => send({ t: 'analyse', on: e.target.checked }));
  // The setting is the person's, kept in this browser.
  $('auto-forced').checked = localStorage.getItem('quartet-auto-forced') === 'true';
  $('auto-forced').addEventListener('change', e => { localStorage.setItem('quartet-auto-forced', e.target.checked); ui.render(); });
  $('restart').addEventListener('click', () => send({ t: 'restart' }));
  $('resign').addEventListener('click', () => send({ t: 'resign' }));
  $('play-here').addEventListener('click', playHere);
  $('review-continue').addEventListener('click', () => send({ t: 'review_continue' }));
  $('temperature').addEventListener('click', () => {
    ui.temperatureAsked = temperatureKey();
    const amount = Number($('review-nodes').value) || 20000;
    send($('review-per').value === 'ms' ? { t: 'temperature', ms: amount } : { t: 'temperature', nodes: amount });
  });
  $('review').addEventListener('click', () => {
    const running = !!(ui.state && ui.state.review && ui.state.review.running);
    if (running) { send({ t: 'review', nodes: 0 }); return; }
    ui.review = null;
    $('review-progress').value = 0;
    // A fixed node count or a time per position, as chosen beside the number.
    const amount = Number($('review-nodes').value) || 20000;
    send($('review-per').value === 'ms' ? { t: 'review', ms: amount } : { t: 'review', nodes: amount });
  });
  wireNavigation();
  $('download').addEventListener('click', () => send({ t: 'record' }));
  $('load').addEventListener('change', e => {
    const file = e.target.files[0];
    if (!file) return;
    // The server reads at most 1 MiB in a message (crates/gui/src/request.rs, MAX_REQUEST).
    if (file.size > MAX_RECORD) {
      showMessage(`${file.name} is ${file.size} bytes: a record may have at most ${MAX_RECORD} (1 MiB)`);
      e.target.value = '';
      return;
    }
    file.text().then(text => send({ t: 'load', text }));
    e.target.value = '';
  });
  $('copy-fen').addEventListener('click', () => {
    const fen = $('fen');
    if (navigator.clipboard) navigator.clipboard.writeText(fen.value).catch(() => {});
    fen.select();
  });
  $('set-fen').addEventListener('click', () => send({
    t: 'new_game', game: ui.state.game, p1: ui.state.players[0], p2: ui.state.players[1], fen: $('fen').value, seed: seedValue(),
  }));
  $('limit-kind').addEventListener('change', () => {
    const k = $('limit-kind').value;
    $('limit-inc').classList.toggle('hidden', k !== 'clock');
    $('limit-value').value = { movetime: 1000, depth: 6, nodes: 100000, clock: 60 }[k];
  });
  $('set-limit').addEventListener('click', () => send(limitFromInputs()));
  $('delay').addEventListener('input', () => { $('delay-text').textContent = `${$('delay').value} ms`; });
  $('delay').addEventListener('change', () => send({ t: 'speed', delay_ms: Number($('delay').value) }));
}
