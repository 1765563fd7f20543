// What the page's modules share: the server's newest state, the position looked at, a
// person's input on the board and the board module of the game.
import * as rnb from './rnb.js';
import * as duell from './duell.js';
import * as apocalypse from './apocalypse.js';
import * as ludo from './ludo.js';
import * as generic from './generic.js';

export const $ = id => document.getElementById(id);

const GAMES = { rnb, duell, apocalypse, ludo };
// The board module of a game: its own, or the generic board (generic.js) for a game without
// one, or for every game when the page's address asks for it (`?board=generic`, for tests).
const ALL_GENERIC = new URLSearchParams(location.search).get('board') === 'generic';
export function moduleOf(game) { return (!ALL_GENERIC && GAMES[game]) || generic; }
export function isGeneric(mod) { return mod === generic; }

export const ui = {
  // The server's newest state and its engine's hello.
  state: null,
  hello: null,
  flip: false,
  // While stepping back through the game: the ply shown, its line (null: the main line),
  // its position and legal moves; null for the game now.
  view: null,
  // The ply (and line) last asked the server for, until its view comes back: keys pressed
  // faster than the server answers step on from it, not from the ply still shown.
  aim: null,
  // The view as last drawn (render), which the browser tests read as the position shown.
  drawnView: null,
  // A person's input: the group of tokens selected and its key, a choice between tokens
  // to one square, void declarations allowed, the key a drag started on.
  sel: null, selKey: null, choice: null, voidMode: false, dragFrom: null,
  // At a simultaneous turn looked back at: the first side's declaration, {at, token}.
  firstHalf: null,
  // The analysis (panels.js) and the position its lines are of (nav.js shownKey).
  analysis: null, analysisAt: '',
  // The review, as the session sent it (review.js), or null.
  review: null,
  // The temperature map asked for ({key: the position's shownKey and main line, map}), and
  // the key of the position it was asked at.
  temperature: null, temperatureAsked: null,
  // How many `hello`s came (the options panel is drawn again after each).
  helloCount: 0,
  // The review's export control (review.js).
  reviewExport: null,
  // The board as last drawn: its layers, geometry and game module (for the best line).
  drawn: null,
  // The clocks as the state gave them, and when.
  clockBase: null,
  // The clocks' times left as each ply of the main line was reached (for stepping back).
  clocksAt: [],
  // A person's move sent, for the reply's measurement.
  moveSentAt: null, movesAtSend: 0,
  // Set by the entry module: draw everything now; draw in the next frame.
  render: () => {}, schedule: () => {},
};

// The module of the game now.
export function mod() { return moduleOf(ui.state.game); }

// A side's name: the engine's (`query position`'s `sides`, first player first), else the
// one the game's own module has for it (White, South, Red...), on the generic board too;
// First and Second only for a game the page has no module for and the engine names none.
export function sideName(side) {
  if (!ui.state) return side;
  const given = ui.state.position && ui.state.position.sides;
  const named = Array.isArray(given) && given[side === 'p1' ? 0 : 1];
  return typeof named === 'string' && named ? named : (GAMES[ui.state.game] || generic).sides[side];
}

// The marks' sizes on a board whose module does not give its own.
const MARK_SIZE = { cell: 60, ring: 28, dot: 12 };
export function markSize() { return mod().markSize || MARK_SIZE; }

// The axis of a score (panels.js): the module's, else centipawns.
export function scale() { return mod().scale || 'cp'; }
