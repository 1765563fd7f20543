// A whole arrangement declared at once: R&B's setup under `Placement together`
// (docs/rules/rnb.md 1.3(d); protocol.md §3.2). The page knows it from the engine's
// `query position` alone: a simultaneous node in the placement phase, with each side's zone
// (`zones`), hand (`hands`) and the pieces already there. A person puts its hand's soldiers
// on the free squares of its zone, by click or by drag, and declares the arrangement with
// Ready; the server checks the token against the engine's list, keeps it secret and reveals
// both once both are in. The engine's arrangement is not in any state before that.
import { squareName, parseSquare } from './grid.js';

const LETTERS = { R: 'red', B: 'black' };

// Whether `pos` asks for whole arrangements (a simultaneous placement turn with zones).
export function isSetup(pos) {
  return !!pos && pos.node === 'simultaneous' && pos.phase === 'placement' && !!pos.zones && !!pos.hands;
}

// An arrangement token's placements: [{ letter: 'R'|'B', square }], or null for another token.
export function parseArrangement(token) {
  if (typeof token !== 'string' || !token.includes(',')) return null;
  const out = [];
  for (const part of token.split(',')) {
    const m = /^([RrBb])@([a-z]\d+)$/.exec(part);
    if (!m) return null;
    out.push({ letter: m[1].toUpperCase(), square: m[2] });
  }
  return out;
}

// Board order: by rank, then by file (a1, b1, ..., f1, a2, ...).
function boardOrder(a, b) {
  const x = parseSquare(a), y = parseSquare(b);
  return x.r - y.r || x.f - y.f;
}

// The canonical token of placements: reds first, then blacks, each in board order.
export function arrangementToken(placed) {
  const of = letter => [...placed].filter(([, l]) => l === letter).map(([sq]) => sq).sort(boardOrder);
  return ['R', 'B'].flatMap(l => of(l).map(sq => `${l}@${sq}`)).join(',');
}

// `pos` with `placements` of `side` put on the board and taken from its hand.
function withPlacements(pos, side, placements) {
  const p = { ...pos, pieces: pos.pieces.slice(), hands: { ...pos.hands, [side]: { ...pos.hands[side] } } };
  for (const { letter, square } of placements) {
    p.pieces.push({ square, owner: side, kind: 'soldier', colour: LETTERS[letter] });
    p.hands[side][LETTERS[letter]] -= 1;
  }
  return p;
}

// One person's arrangement in the making. It belongs to one turn (game, start, ply, side):
// a new turn starts it empty, other states (analysis, clocks) leave it as it is.
export class Arrangement {
  constructor() { this.turn = null; this.side = null; this.pos = null; this.placed = new Map(); this.letter = 'R'; }

  // Follows the state: `side` is the person asked for an arrangement now, or null.
  sync(state, side) {
    const active = !!side && isSetup(state.position);
    const turn = active ? `${state.game}|${state.start_fen}|${state.moves.length}|${side}` : null;
    if (turn !== this.turn) { this.placed = new Map(); this.letter = 'R'; }
    this.turn = turn;
    this.side = active ? side : null;
    this.pos = active ? state.position : null;
    return active;
  }

  get active() { return this.side !== null; }

  // Soldiers of a colour ('R' or 'B') still in hand.
  left(letter) {
    const inHand = this.pos.hands[this.side][LETTERS[letter]];
    return inHand - [...this.placed.values()].filter(l => l === letter).length;
  }

  get complete() { return this.left('R') === 0 && this.left('B') === 0; }

  // The zone's squares no piece of the position stands on.
  free() {
    const { width } = this.pos, ranks = this.pos.zones[this.side];
    const taken = new Set(this.pos.pieces.map(p => p.square));
    const out = [];
    for (const r of ranks) for (let f = 0; f < width; f++) {
      const sq = squareName(f, r - 1);
      if (!taken.has(sq)) out.push(sq);
    }
    return out;
  }

  handKey(letter) { return `hand:${this.side}:${letter}`; }

  // The keys a press can start from: the hand's colours still there, the soldiers placed.
  sources() {
    return [...['R', 'B'].filter(l => this.left(l) > 0).map(l => this.handKey(l)), ...this.placed.keys()];
  }

  // The squares a soldier can be put on (none once the hand is empty).
  targets() {
    return this.complete ? [] : this.free().filter(sq => !this.placed.has(sq));
  }

  // The colour to place next: the one chosen while it lasts, else the other.
  nextLetter() {
    if (this.left(this.letter) > 0) return this.letter;
    const other = this.letter === 'R' ? 'B' : 'R';
    return this.left(other) > 0 ? other : null;
  }

  choose(letter) { if (LETTERS[letter]) this.letter = letter; }

  // A click: a hand colour chooses it, a placed soldier goes back to the hand, a free
  // square of the zone takes the colour to place next.
  click(key) {
    const hand = /^hand:(p[12]):([RB])$/.exec(key);
    if (hand) { if (hand[1] === this.side) this.choose(hand[2]); return; }
    if (this.placed.has(key)) { this.placed.delete(key); return; }
    const letter = this.nextLetter();
    if (letter && this.free().includes(key)) this.placed.set(key, letter);
  }

  // A drag from `from` to `to`: from the hand to a free square places that colour; a placed
  // soldier moves to a free square, or goes back to the hand when dropped anywhere else.
  drop(from, to) {
    const hand = /^hand:(p[12]):([RB])$/.exec(from);
    const open = to && this.free().includes(to) && !this.placed.has(to);
    if (hand) {
      if (hand[1] === this.side && open && this.left(hand[2]) > 0) this.placed.set(to, hand[2]);
      return;
    }
    const letter = this.placed.get(from);
    if (!letter) return;
    this.placed.delete(from);
    if (open) this.placed.set(to, letter);
  }

  clear() { this.placed = new Map(); }

  token() { return arrangementToken(this.placed); }

  // The position as the person sees it while arranging: the soldiers placed so far on it.
  preview() {
    return withPlacements(this.pos, this.side, [...this.placed].map(([square, letter]) => ({ letter, square })));
  }
}

// The position to draw at a setup turn: a person's own declared arrangement (the state
// shows it to the only person playing, as `declared`) on the board while the other side
// arranges; null when there is none.
export function declaredPreview(state) {
  if (!isSetup(state.position)) return null;
  let pos = state.position, any = false;
  ['p1', 'p2'].forEach((side, i) => {
    const placements = parseArrangement(state.declared[i]);
    if (placements) { pos = withPlacements(pos, side, placements); any = true; }
  });
  return any ? pos : null;
}

// The ranks in which `side` has a piece on every square of `pos` (the line rule's line).
function fullRanks(pos, side) {
  const out = [];
  for (let r = 1; r <= pos.height; r++) {
    const own = pos.pieces.filter(p => p.owner === side && parseSquare(p.square).r === r - 1).length;
    if (own === pos.width) out.push(r);
  }
  return out;
}

// Whether a reveal is of a setup turn (both arrangements).
export function isSetupReveal(reveal) { return !!reveal && isSetup(reveal.before); }

// The reveal of a setup turn: both arrangements, and who broke the line rule as the engine
// judged it (`six-in-a-rank` ends the game: the side that broke it loses, both: a draw).
export function revealText(state, sideName) {
  const r = state.reveal, names = { p1: sideName('p1'), p2: sideName('p2') };
  const parts = [`${names.p1} arranged ${r.w}; ${names.p2} arranged ${r.b}.`];
  const over = state.position && state.position.node === 'over' ? state.position : null;
  let broke = [];
  if (over && over.reason === 'six-in-a-rank') {
    broke = over.result === 'draw' ? ['p1', 'p2'] : [over.result === 'p1win' ? 'p2' : 'p1'];
  }
  for (const side of broke) {
    const ranks = fullRanks(state.position, side);
    const where = ranks.length ? ` (rank ${ranks.join(', ')})` : '';
    parts.push(`${names[side]} broke the line rule: six own pieces in a rank${where}.`);
  }
  if (broke.length === 2) parts.push('Both broke it: the game is drawn.');
  else if (broke.length === 1) parts.push(`${names[broke[0] === 'p1' ? 'p2' : 'p1']} wins.`);
  else if (!over) parts.push(`Neither broke the line rule: ${names[state.position.to_act] || names.p1} to move.`);
  return parts.join(' ');
}

// The controls under the board while arranging: the colour to place (with the count left
// of each), Clear, and Ready once every soldier is placed. `changed` redraws, `ready(token)`
// declares.
export function drawControls(box, a, changed, ready) {
  const button = (label, id, fn) => {
    const b = document.createElement('button');
    b.textContent = label;
    b.id = id;
    b.addEventListener('click', fn);
    box.appendChild(b);
    return b;
  };
  for (const [letter, name] of [['R', 'Red'], ['B', 'Black']]) {
    const b = button(`${name}: ${a.left(letter)} left`, `arrange-${LETTERS[letter]}`, () => { a.choose(letter); changed(); });
    b.dataset.left = a.left(letter);
    b.classList.toggle('chosen', a.nextLetter() === letter);
    b.disabled = a.left(letter) === 0;
  }
  button('Clear', 'arrange-clear', () => { a.clear(); changed(); }).disabled = a.placed.size === 0;
  const r = button('Ready', 'arrange-ready', () => { if (a.complete) ready(a.token()); });
  r.disabled = !a.complete;
}
