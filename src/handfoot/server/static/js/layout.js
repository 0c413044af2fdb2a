// How the hand fits its screen, and touch and mouse ways to play onto the table (a tap on the
// stock, the pile or a meld; a card dragged to the pile or a meld).  Every move still goes
// through the Game's own methods, so the server judges it exactly as a button press.

// A card slot narrower than this is hard to hit with a thumb: a second (or third) row is used
// rather than overlap the cards more.
const MIN_SLOT = 40;
// Past the rows a screen allows, cards overlap more, but never below this: a card then still
// shows its corner (rank and suit) whole and a strip a fingertip hits.  A hand that would need
// less is shown as stacks of equal cards instead (render.js).
const STACK_BELOW = 32;
// A third row only where the screen is tall enough to keep the rest of the table in view.
const maxRows = () => (window.innerHeight > 720 ? 3 : 2);

const GAP = 4;

// How wide each card's slot is with ``n`` cards in ``rows`` rows ``width`` px wide.
function slotFor(n, rows, width, cw) {
  const per = Math.ceil(n / rows);
  return per > 1 ? Math.min(cw + GAP, (width - cw) / (per - 1)) : cw + GAP;
}

function measure(box) {
  const face = box.querySelector("button.card .cf");
  return { width: box.clientWidth - 1, cw: face ? face.offsetWidth : 56 }; // a pixel to spare
}

// Whether the hand (``data-total`` cards) cannot be shown one card a button, each at least
// STACK_BELOW px, in maxRows() rows: then render.js shows equal cards as one stack with a count.
export function needsStacks(box) {
  const n = Number(box.dataset.total || 0);
  const { width, cw } = measure(box);
  const slot = slotFor(n, maxRows(), width, cw);
  return slot < STACK_BELOW && slot < cw + GAP;
}

// Lay the hand's cards (or stacks) out in the fewest rows where each shows at least MIN_SLOT
// px (overlap within a row as much as needed, never more), up to maxRows(); past that they
// overlap more.
export function fitHand(box) {
  const cards = [...box.querySelectorAll("button.card")];
  for (const b of box.querySelectorAll(".row-break")) b.remove();
  if (!cards.length) return;
  const { width, cw } = measure(box);
  const n = cards.length;
  const most = maxRows();
  let rows = 1;
  for (rows = 1; rows <= most; rows++) {
    const slot = slotFor(n, rows, width, cw);
    if (slot >= MIN_SLOT || slot >= cw + GAP) break;
  }
  rows = Math.min(rows, most);
  let per = Math.ceil(n / rows);
  // Spread the cards evenly over the rows (8 + 7, not 13 + 2).
  per = Math.ceil(n / Math.ceil(n / per));
  const slot = per > 1 ? Math.min(cw + GAP, (width - cw) / (per - 1)) : cw + GAP;
  box.style.setProperty("--slot", `${Math.floor(slot * 10) / 10}px`);
  // The stylesheet gives the other parts less room on a short screen when the hand needs more.
  const area = box.closest(".play-area");
  if (area) area.dataset.handRows = String(Math.ceil(n / per));
  box.classList.toggle("overlap", slot < cw);
  cards.forEach((c, i) => {
    const end = (i + 1) % per === 0 || i === n - 1;
    c.classList.toggle("row-end", end);
    if (end && i !== n - 1) c.after(Object.assign(document.createElement("span"), { className: "row-break" }));
  });
}

// ---------------------------------------------------------------------- taps and drags
let installed = false;

export function installTable(root, getGame) {
  if (installed) return;
  installed = true;
  // A new size may cross the line between single cards and stacks: the table is drawn again.
  window.addEventListener("resize", () => {
    const g = getGame();
    if (g && g.view && g.hooks) g.hooks.render();
    else for (const box of document.querySelectorAll(".hand-cards")) fitHand(box);
  });
  // A tap on the stock draws, on the pile takes it or (one card picked) discards there; on
  // one of your team's melds, stages the picked cards onto it.  Buttons do the same for keys.
  root.addEventListener("click", (e) => {
    const g = getGame();
    if (!g || !g.view || !g.myMove || dragged) return;
    if (e.target.closest("button, a, summary, select, input, details")) return;
    const onStock = e.target.closest(".stock");
    const onPile = e.target.closest(".pile");
    const onMeld = e.target.closest(".team.ours");
    if (onStock && (g.has("draw") || g.has("stop"))) g.draw();
    else if (onPile) playOnPile(g);
    else if (onMeld) playOnMeld(g, e.target.closest(".meld"));
  });
  root.addEventListener("pointerdown", (e) => startDrag(e, getGame()));
  // A seat's panel closes with a tap anywhere else (which still does what it does) or Esc
  // (before Esc clears the picked cards).
  document.addEventListener("click", (e) => {
    if (openSeat !== null && !e.target.closest("li.seat")) closeSeat(getGame());
  }, true);
  window.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
    if (closeSeat(getGame())) { e.preventDefault(); e.stopPropagation(); }
  }, true);
}

// ---------------------------------------------------------------------- a seat's facts
// A seat tile shows two lines of facts on a phone (more in its tooltip for a mouse); a tap on
// the tile opens them all in a small panel under it.  One at a time, kept across redraws.
let openSeat = null;

export function seatOpen(seat) {
  return openSeat === seat;
}

export function toggleSeat(seat, g) {
  openSeat = openSeat === seat ? null : seat;
  g.hooks.render();
}

// The open seat's panel is wider than a phone's tile: kept within the screen's width.
export function placeSeatPanel(root) {
  const more = root.querySelector(".seat-more");
  if (!more) return;
  const box = more.getBoundingClientRect();
  const room = document.documentElement.clientWidth - 6;
  if (box.right > room) more.style.left = `${more.offsetLeft - (box.right - room)}px`;
  else if (box.left < 6) more.style.left = `${more.offsetLeft + (6 - box.left)}px`;
}

function closeSeat(g) {
  if (openSeat === null) return false;
  openSeat = null;
  if (g && g.hooks) g.hooks.render();
  return true;
}

function playOnPile(g) {
  const picked = g.pickedTokens();
  if (g.hasPrefix("take-pile") && !(picked.length === 1 && g.hasPrefix("discard"))) g.takePile();
  else if (g.hasPrefix("discard")) g.discard();
}

// True when the picked cards were staged.
function playOnMeld(g, meld) {
  if (!g.pickedTokens().length) return false;
  const slot = meld ? meld.dataset.slot : undefined;
  const error = g.stage(slot);
  g.hooks.say(error || "Staged. Pick more, or Lay down (Enter).");
  g.hooks.render();
  return !error;
}

let drag = null;
let dragged = false;

function startDrag(e, g) {
  const card = e.target.closest(".hand button.card");
  if (!card || !g || !g.myMove || e.button > 0) return;
  drag = { card, token: card.dataset.card, x: e.clientX, y: e.clientY, ghost: null, g, id: e.pointerId };
  dragged = false;
  window.addEventListener("pointermove", moveDrag);
  window.addEventListener("pointerup", endDrag, { once: true });
  window.addEventListener("pointercancel", cancelDrag, { once: true });
}

function moveDrag(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < 12) return;
    const face = drag.card.querySelector(".cf").cloneNode(true);
    const box = drag.card.getBoundingClientRect();
    drag.ghost = Object.assign(document.createElement("div"), { className: "drag-ghost card" });
    drag.ghost.append(face);
    drag.ghost.style.left = `${box.left}px`;
    drag.ghost.style.top = `${box.top}px`;
    document.body.append(drag.ghost);
  }
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = dropTarget(e);
  for (const el of document.querySelectorAll(".drop-over")) if (el !== over) el.classList.remove("drop-over");
  if (over) over.classList.add("drop-over");
}

function dropTarget(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  if (!el) return null;
  return el.closest(".meld") && el.closest(".team.ours") ? el.closest(".meld")
    : el.closest(".team.ours") || el.closest(".pile");
}

function endDrag(e) {
  const d = drag;
  cancelDrag();
  if (!d || !d.ghost) return;
  // The click that follows a drag (a mouse sends one; a finger does not) must not pick the
  // card as well.  Only that click: one that never comes must not swallow the next tap.
  dragged = true;
  const swallow = (ev) => ev.stopImmediatePropagation();
  window.addEventListener("click", swallow, { once: true, capture: true });
  setTimeout(() => {
    dragged = false;
    window.removeEventListener("click", swallow, { capture: true });
  }, 0);
  const over = dropTarget(e);
  if (!over) return;
  const g = d.g;
  if (over.classList.contains("pile")) {
    if (g.hasPrefix("discard")) g.discard(d.token);
    return;
  }
  // Onto a meld: the dragged card joins whatever is picked, then all are staged there.  If
  // they do not go there, the card picked for the drag goes back (the others stay picked).
  let pickedNow = false;
  if (!(g.picked[d.token] > 0 && d.card.classList.contains("picked"))) {
    const error = g.pick(d.token);
    if (error) { g.hooks.say(error); g.hooks.render(); return; }
    pickedNow = true;
  }
  if (!playOnMeld(g, over.classList.contains("meld") ? over : null) && pickedNow) {
    g.unpick(d.token);
    g.hooks.render();
  }
}

function cancelDrag() {
  window.removeEventListener("pointermove", moveDrag);
  if (drag && drag.ghost) drag.ghost.remove();
  for (const el of document.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
  drag = null;
}
