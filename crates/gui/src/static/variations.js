// Variations in the move list (issue 22 §3). The server keeps them (crates/gui/src/variations.rs)
// and sends them in the state as `variations: [{fork, moves}]`: a line leaves the main line
// after `fork` tokens, in place of the main line's token `fork`, and `moves` are its tokens
// from there. Each is drawn as a row under the row of the move it leaves, its tokens
// clickable (they show that position), with Promote (it becomes the main line) and Delete.

// The whole line of variation `i` from the start position, or null.
export function lineTokens(state, i) {
  const v = state.variations && state.variations[i];
  return v ? state.moves.slice(0, v.fork).concat(v.moves) : null;
}

// The last ply of variation `i` (its length from the start), or null.
export function lineEnd(state, i) {
  const v = state.variations && state.variations[i];
  return v ? v.fork + v.moves.length : null;
}

// The move list's row and column of the main line's token number `i` (0-based): its move
// number, its column (0 or 1) and whether it is a joint turn's; past the end, the row the
// next token would start or join.
function rowOf(items, i) {
  const li = items[Math.min(i, items.length - 1)];
  if (!li) return null;
  const row = li.closest('.move-row'), cells = [...row.children].slice(1);
  const number = parseInt(row.querySelector('.move-num').textContent, 10);
  const joint = li.classList.contains('joint');
  if (i < items.length) return { number, column: joint ? 0 : cells.indexOf(li), joint };
  // One past the main line's end.
  const column = joint || cells.indexOf(li) === 1 ? 0 : 1;
  return { number: column === 0 ? number + 1 : number, column, joint };
}

// Adds the variation rows to the move list `ol` (whose items are the main line's tokens,
// `li[data-ply]`). `shown` is {line, ply} of the position looked at; `pick(line, ply)` shows
// a position, `promote(line)` and `remove(line)` act on a variation. Returns the token
// element shown, if it is a variation's.
export function drawVariations(ol, variations, shown, pick, promote, remove) {
  let current = null;
  const items = [...ol.querySelectorAll('li[data-ply]')];
  // A variation goes after the row of the move it leaves (panels.js, moveRows).
  const after = new Map();
  (variations || []).forEach((v, i) => {
    const at = items.length ? items[Math.min(v.fork, items.length - 1)].closest('.move-row') : null;
    const row = document.createElement('div');
    row.className = 'variation';
    row.dataset.line = i;
    row.dataset.fork = v.fork;
    row.title = `a variation leaving the game after ${v.fork} tokens`;
    // Move numbers as the main line's rows have them (panels.js moveRows): the first token
    // takes the number of the row of the token it replaces ("N." in the first column,
    // "N…" in the second); the next tokens go on column by column (a row a token at a
    // joint turn).
    const cell = rowOf(items, v.fork);
    let number = cell ? cell.number : 1, column = cell ? cell.column : 0;
    const joint = cell && cell.joint;
    v.moves.forEach((tok, k) => {
      if (k === 0 || column === 0) {
        const num = document.createElement('span');
        num.className = 'var-num';
        num.textContent = column === 0 ? `${number}.` : `${number}…`;
        row.appendChild(num);
      }
      if (joint || column === 1) { number += 1; column = 0; } else column = 1;
      const span = document.createElement('span');
      span.className = 'var-move';
      span.textContent = tok;
      span.dataset.line = i;
      span.dataset.ply = v.fork + k + 1;
      if (shown.line === i && shown.ply === v.fork + k + 1) { span.classList.add('current'); current = span; }
      span.addEventListener('click', () => pick(i, v.fork + k + 1));
      row.appendChild(span);
    });
    const button = (label, cls, title, fn) => {
      const b = document.createElement('button');
      b.textContent = label;
      b.className = cls;
      b.title = title;
      b.dataset.line = i;
      b.addEventListener('click', e => { e.stopPropagation(); fn(i); });
      row.appendChild(b);
    };
    button('promote', 'var-promote', 'make this variation the main line', promote);
    button('✕', 'var-delete', 'delete this variation', remove);
    const prev = after.get(at) || at;
    if (prev) prev.after(row); else ol.prepend(row);
    after.set(at, row);
  });
  return current;
}
