// Two input helpers (issue 22 §5): Enter confirms the page's default choice (the button
// marked `default`: the first of a choice between paths or redeploys, Ready once an
// arrangement is complete, the only move without a square such as a Ludo pass, the roll),
// and forced moves play themselves when the setting is on (a person's turn with a single
// legal move: a Ludo pass after a roll that cannot move, a lone legal move in any game).

// The token a person's turn forces, or null: only at the game's own position (not while
// looking back), a side's move (not a declaration), with exactly one legal token.
export function forcedToken(state, looking) {
  if (looking || !state || state.over || state.fault || !state.next) return null;
  if (state.next.kind !== 'human_move') return null;
  return state.legal.length === 1 ? state.legal[0] : null;
}

// Plays forced moves: `check()` after each drawing; `play(token)` sends one. Each position
// (by the game's tokens to it) is played at most once, after `pauseMs` so that the roll before it is seen,
// and only if the game is still there then.
export class ForcedMoves {
  constructor(play, pauseMs = 300) { this.play = play; this.pauseMs = pauseMs; this.done = null; this.timer = null; }
  check(state, looking, on) {
    const token = on ? forcedToken(state, looking) : null;
    const key = JSON.stringify([state.game, state.start_fen, state.moves]);
    if (!token || this.done === key) return;
    this.done = key;
    clearTimeout(this.timer);
    const at = state.moves.length;
    this.timer = setTimeout(() => {
      if (this.state && this.state.moves.length === at && forcedToken(this.state, this.looking) === token) this.play(token);
    }, this.pauseMs);
  }
  // The newest state and view, for the check when the pause is over.
  follow(state, looking) { this.state = state; this.looking = looking; }
}

// Enter: the default button under the board, if any and enabled, is pressed.
export function pressDefault(box) {
  const b = box.querySelector('button.default:not(:disabled)');
  if (!b) return false;
  b.click();
  return true;
}
