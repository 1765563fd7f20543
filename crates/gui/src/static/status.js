// Under the board: the status line, the action buttons (roll, moves without a square, a
// choice, the arrangement's controls, void declarations) and a simultaneous turn's reveal.
import { ui, $, mod, sideName } from './ui.js';
import { send, connected, connectionWords } from './socket.js';
import * as setup from './arrange.js';
import { arrangement, parsedTokens, play } from './input.js';

// Whether the side that just moved rolls again (a chance node for the side that moved).
export function extraRoll() {
  const { state } = ui;
  if (!state.position || state.position.node !== 'chance') return false;
  const a = state.actors[state.actors.length - 1];
  return !!a && a.kind === 'move' && a.side === state.position.to_act;
}

export function renderStatus() {
  const { state } = ui;
  const st = $('status');
  st.className = '';
  const pos = state.position;
  let text = '';
  const humans = state.players.filter(p => p === 'human').length;
  if (state.over) {
    const r = state.over.result;
    const who = r === 'draw' ? 'Draw' : `${sideName(r === 'p1win' ? 'p1' : 'p2')} wins`;
    text = `Game over: ${who} (${state.over.words || state.over.reason || ''})`;
    st.className = 'over';
  } else if (state.fault) {
    text = `Stopped: engine ${state.fault.kind}${state.fault.side ? ` playing ${sideName(state.fault.side)}` : ''}`;
  } else if (state.thinking && state.thinking.purpose.kind !== 'analysis') {
    text = `${sideName(state.thinking.purpose.side)} (engine) is thinking…`;
  } else if (pos) {
    const n = state.next, you = humans === 1 ? ' (you)' : '';
    if (n.kind === 'human_move') text = `${sideName(n.side)} to move${you}`;
    else if (n.kind === 'human_roll') text = `${sideName(n.side)} to roll${you}`;
    else if (n.kind === 'human_declare' && arrangement.active) text = `${sideName(n.side)} arranges its soldiers in secret${you}`;
    else if (n.kind === 'human_declare') text = `${sideName(n.side)} declares a move in secret${you}`;
    else if (n.kind === 'engine_roll') text = `${sideName(n.side)} (engine) rolls`;
    else if (n.kind.startsWith('engine')) text = `${sideName(n.side)} (engine) to act`;
    if (pos.node === 'simultaneous') {
      ['p1', 'p2'].forEach((s, i) => { const d = state.declared[i]; if (d) text += ` · ${sideName(s)} has declared${d !== 'hidden' ? ` ${d} (hidden)` : ' (hidden)'}`; });
    }
    if (extraRoll()) text += ' · extra roll';
  }
  if (state.paused && !state.over) text += ' · paused';
  if (ui.view && ui.view.line !== null) text = `In variation ${ui.view.line + 1} (not the game) · ${text}`;
  if (!connected()) text = `Not connected (${connectionWords()}): the board takes no move · ${text}`;
  st.textContent = text;
  st.dataset.next = state.next.kind;
}

// The most choices shown as buttons.
const PICK_OVER = 6;

export function renderActions() {
  const { state, view } = ui;
  const box = $('actions');
  box.innerHTML = '';
  if (!connected()) return;
  const add = (label, fn, attrs = {}) => {
    const b = document.createElement('button');
    b.textContent = label;
    Object.assign(b.dataset, attrs);
    if (attrs.id) b.id = attrs.id;
    b.addEventListener('click', fn);
    box.appendChild(b);
    return b;
  };
  const unsquared = () => { for (const x of parsedTokens()) if (!x.p) add(x.t === 'pass' ? 'Pass' : x.t, () => play(x.t), { token: x.t }); };
  // A choice between a few tokens is a button each; between many (an Apocalypse
  // redeploy's squares) a picker and Play, so that no control runs off the page.
  const choices = () => {
    const c = ui.choice || [];
    if (c.length <= PICK_OVER) { for (const o of c) add(o.label, () => play(o.token), { token: o.token }); return; }
    const pick = document.createElement('select');
    pick.id = 'choice-picker';
    for (const o of c) pick.appendChild(new Option(o.label, o.token));
    box.appendChild(pick);
    const b = add('Play', () => play(pick.value), { token: c[0].token, id: 'choice-play' });
    pick.addEventListener('change', () => { b.dataset.token = pick.value; });
  };
  // At a position looked back at: a move without a square (a pass), or a choice.
  if (view && !state.fault) {
    if (view.position.node === 'chance' && view.legal.length) add('Roll the die', () => send({ t: 'roll' }), { id: 'roll' });
    else unsquared();
    choices();
    markDefault(box);
    return;
  }
  if (state.fault || state.over) return;
  const n = state.next;
  if (arrangement.active) { setup.drawControls(box, arrangement, ui.render, tok => play(tok)); markDefault(box); return; }
  if (n.kind === 'human_roll') add('Roll the die', () => send({ t: 'roll' }), { id: 'roll' });
  if (n.kind === 'human_move' || n.kind === 'human_declare') unsquared();
  choices();
  markDefault(box);
  // Void declarations, in a game whose module has them (Apocalypse).
  if (n.kind === 'human_declare' && mod().voidToken) {
    const lab = document.createElement('label');
    lab.innerHTML = '<input type="checkbox" id="void-mode"> allow void declarations';
    lab.querySelector('input').checked = ui.voidMode;
    lab.querySelector('input').addEventListener('change', e => { ui.voidMode = e.target.checked; ui.render(); });
    box.appendChild(lab);
    if (ui.voidMode) add('Declare nothing (0000)', () => play('0000', true), { id: 'declare-0000' });
  }
}

// The button Enter presses (forced.js): Ready, the first of a choice, a lone move button
// (a pass), or the roll.
function markDefault(box) {
  const ready = box.querySelector('#arrange-ready');
  const tokens = [...box.querySelectorAll('button[data-token]')];
  const b = ready || (ui.choice && tokens[0]) || (tokens.length === 1 && tokens[0]) || box.querySelector('#roll');
  if (b) b.classList.add('default');
}

// The reveal of a simultaneous turn: a setup's arrangements (arrange.js), or the module's
// words for a turn (Apocalypse's).
export function renderReveal() {
  const { state } = ui, m = mod();
  const box = $('reveal');
  if (setup.isSetupReveal(state.reveal) && state.position) {
    box.textContent = setup.revealText(state, sideName);
    box.classList.remove('hidden');
  } else if (state.reveal && m.revealText && state.position) {
    box.textContent = m.revealText(state, sideName);
    box.classList.remove('hidden');
  } else box.classList.add('hidden');
}
