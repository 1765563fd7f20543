// The engine options panel (issue 39 §2): the engine's options drawn from their declared
// types (its `option` lines, in `hello`), the rule options of the game played only (the
// server tells each game's: `hello.rules`), each with its value now: a rule's as the
// position says (one a loaded record set too), another's as the person set it.
import { ui, $ } from './ui.js';

let drawn = null;

// Engine options, drawn from the declared types; send(name, value) sets one.
function drawOptions(options, send) {
  const box = $('options');
  box.innerHTML = '';
  for (const o of options) {
    const row = document.createElement('div');
    row.className = 'opt';
    row.dataset.option = o.name;
    const name = document.createElement('span');
    name.textContent = o.name;
    row.appendChild(name);
    let input;
    if (o.type === 'spin') {
      input = document.createElement('input');
      Object.assign(input, { type: 'number', min: o.min, max: o.max, value: o.default });
      input.addEventListener('change', () => send(o.name, String(input.value)));
    } else if (o.type === 'check') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = o.default;
      input.addEventListener('change', () => send(o.name, input.checked ? 'true' : 'false'));
    } else if (o.type === 'combo') {
      input = document.createElement('select');
      for (const v of o.vars) { const opt = document.createElement('option'); opt.value = opt.textContent = v; input.appendChild(opt); }
      input.value = o.default;
      input.addEventListener('change', () => send(o.name, input.value));
    } else if (o.type === 'button') {
      input = document.createElement('button');
      input.textContent = 'press';
      input.addEventListener('click', () => send(o.name, null));
    } else {
      input = document.createElement('input');
      input.value = o.default;
      input.addEventListener('change', () => send(o.name, input.value));
    }
    input.dataset.option = o.name;
    row.appendChild(input);
    box.appendChild(row);
  }
}


// The values of the options the person set, from the server's `setoption` lines.
function setValues(lines) {
  const values = {};
  for (const l of lines || []) {
    const m = /^setoption name (.+) value (.*)$/.exec(l);
    if (m) values[m[1]] = m[2] === '<empty>' ? '' : m[2];
  }
  return values;
}

// Draws the panel for the game of the state (again when the game or the engine changed)
// and puts the values now in the fields a person is not editing.
export function renderOptions(send) {
  const { hello, state } = ui;
  if (!hello) return;
  const game = state ? state.game : '';
  const rules = hello.rules || {};
  const own = new Set(rules[game] || []);
  const others = new Set(Object.entries(rules).filter(([g]) => g !== game).flatMap(([, r]) => r));
  const options = hello.options.filter(o => own.has(o.name) || !others.has(o.name));
  const key = `${ui.helloCount}|${options.map(o => o.name).join('|')}`;
  if (key !== drawn) {
    drawOptions(options, send);
    drawn = key;
  }
  const values = { ...setValues(hello.set), ...((state && state.position && state.position.rules) || {}) };
  for (const input of $('options').querySelectorAll('.opt > [data-option]')) {
    const v = values[input.dataset.option];
    if (v === undefined || input === document.activeElement || input.tagName === 'BUTTON') continue;
    if (input.type === 'checkbox') input.checked = v === 'true';
    else if (input.value !== v) input.value = v;
  }
}
