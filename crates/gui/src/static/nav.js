// Stepping through the game (issue 22 §3): the position shown (the game now, a ply of the
// main line or of a variation) and the moves to another, by buttons and keys.
import { ui, $ } from './ui.js';
import { send } from './socket.js';
import { lineEnd } from './variations.js';
import { pressDefault } from './forced.js';

// Shows the position after `ply` tokens of the main line (the game now at its last ply) or
// of variation `line` (the one looked at unless given).
export function goTo(ply, line = ui.aim ? ui.aim.line : ui.view ? ui.view.line : null) {
  const state = ui.state;
  if (!state) return;
  const end = line === null ? null : lineEnd(state, line);
  if (end !== null) {
    ply = Math.max(0, Math.min(ply, end));
    ui.aim = { ply, line };
    send({ t: 'view', ply, line });
    return;
  }
  ply = Math.max(0, Math.min(ply, state.moves.length));
  if (ply === state.moves.length) { ui.view = null; ui.aim = null; ui.schedule(); } else ui.aim = { ply, line: null };
  send({ t: 'view', ply });
}

export function shownPly() { return ui.view ? ui.view.ply : (ui.state ? ui.state.moves.length : 0); }

// The ply a step starts from: the one asked for if the server has not shown it yet.
function stepFrom() { return ui.aim ? ui.aim.ply : shownPly(); }

// The position shown as the analysis names it: the variation (if any) and the ply.
export function shownKey() { return `${ui.view && ui.view.line !== null ? ui.view.line : ''}:${shownPly()}`; }
export function infoKey(m) { return `${m.line ?? ''}:${m.ply}`; }

// The buttons and keys: ← → Home End step, Enter confirms the default choice.
export function wireNavigation() {
  $('nav-first').addEventListener('click', () => goTo(0));
  $('nav-prev').addEventListener('click', () => goTo(stepFrom() - 1));
  $('nav-next').addEventListener('click', () => goTo(stepFrom() + 1));
  $('nav-last').addEventListener('click', () => goTo(Infinity, null));
  document.addEventListener('keydown', e => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    // Enter confirms the default choice (not the button that happens to have the focus).
    if (e.key === 'Enter' && pressDefault($('actions'))) { e.preventDefault(); return; }
    const to = { ArrowLeft: stepFrom() - 1, ArrowRight: stepFrom() + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goTo(to, e.key === 'End' ? null : undefined);
  });
}
