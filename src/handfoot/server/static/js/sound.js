// Optional sounds, off unless the player turns them on (the bar's Sound button): short tones
// made with WebAudio, so nothing is downloaded.

const KEY = "handfoot.sound";
let ctx = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  if (on) play("turn", true);
}

// Each event a few notes: [frequency Hz, start s, length s].
const TUNES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  draw: [[420, 0, 0.05]],
  discard: [[300, 0, 0.06]],
  take: [[350, 0, 0.06], [300, 0.07, 0.06], [250, 0.14, 0.08]],
  meld: [[520, 0, 0.07]],
  canasta: [[523, 0, 0.08], [659, 0.09, 0.08], [784, 0.18, 0.16]],
  packet: [[440, 0, 0.08], [554, 0.09, 0.1]],
  out: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1046, 0.3, 0.25]],
};

let last = 0;

export function play(kind, force = false) {
  if (!force && !soundOn()) return;
  const tune = TUNES[kind];
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!tune || !AC) return;
  // Many bot moves in a burst would chatter: at most one sound every 120 ms.
  const now = performance.now();
  if (!force && now - last < 120) return;
  last = now;
  try {
    ctx = ctx || new AC();
    const t0 = ctx.currentTime + 0.01;
    for (const [freq, start, len] of tune) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.12, t0 + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + len + 0.02);
    }
  } catch {
    /* no audio on this device: the table plays on silently */
  }
}

// The bar's Sound button (index.html) turns sounds on and off; off until pressed.
const button = document.getElementById("sound-button");
if (button) {
  const show = () => {
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    button.replaceChildren(
      Object.assign(document.createElement("span"), { textContent: "♪", ariaHidden: "true" }),
      Object.assign(document.createElement("span"), { textContent: " Sound", className: "word" }),
      Object.assign(document.createElement("span"), { textContent: soundOn() ? " on" : " off", className: "state" }));
  };
  show();
  button.addEventListener("click", () => { setSound(!soundOn()); show(); });
}
