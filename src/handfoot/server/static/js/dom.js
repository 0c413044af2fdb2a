// Building the page: elements from plain data, text always as text (never as HTML).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Replace an element's children, keeping keyboard focus on the element with the same
// data-fid if it is rebuilt (a re-render must not throw a keyboard player out of the hand).
export function fill(el, ...children) {
  const active = document.activeElement;
  const inside = active && active !== document.body && el.contains(active);
  const fid = inside ? active.dataset.fid : null;
  const id = inside ? active.id : null;
  el.replaceChildren();
  append(el, children);
  let again = null;
  if (fid) again = el.querySelector(`[data-fid="${CSS.escape(fid)}"]`);
  else if (id) again = el.querySelector(`#${CSS.escape(id)}`);
  if (again) again.focus({ preventScroll: true });
  else if (inside) {
    // The control went away (a card played): keep the keyboard near where it was.
    const near = el.querySelector("[data-fid]:not([disabled])");
    if (near && fid) near.focus({ preventScroll: true });
  }
  return el;
}

export function byId(id) {
  return document.getElementById(id);
}

let announceTimer = null;
// Say something to screen readers at once (turn changes, refusals).
export function announce(text) {
  const el = byId("announce");
  if (!el) return;
  el.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { el.textContent = text; }, 50);
}

export function plural(n, word, many = word + "s") {
  return `${n} ${n === 1 ? word : many}`;
}
