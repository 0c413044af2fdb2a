// The first page: "Play now" (one tap: you and bots, hints on, started at once), the full
// setup of a table (rules, house rules, seats, bots, options), the host's own tables, and
// joining by a link.  The last rules and name used are remembered in this browser.

import { h, fill, byId } from "./dom.js";
import { getJSON, postJSON } from "./api.js";
import { rulesEditor, rulesInWords } from "./rules_editor.js";
import * as store from "./store.js";
import { playWithBots } from "./seated.js";
import { PACES, LIMITS, ON_LIMIT, paceWords } from "./pace.js";

export async function homePage(root) {
  document.title = "Start a table - handfoot";
  fill(byId("where"), "Start a table");
  const form = await getJSON("/api/rules");
  const choice = { preset: form.presets[0].name, players: form.presets[0].players, team_size: null, set: {} };
  // A link such as /?play=now&rules=hand-knee-foot (the lessons' "Play now") names the rules
  // Play now uses this time, without changing the rules remembered from the person's tables.
  const params = new URLSearchParams(location.search);
  const linked = form.presets.find((p) => p.name === params.get("rules"));
  const last = linked ? { preset: linked.name, players: linked.players, set: {} } : store.lastRules();
  if (last && form.presets.some((p) => p.name === last.preset)) {
    choice.preset = last.preset;
    choice.players = last.players || form.presets.find((p) => p.name === last.preset).players;
    choice.team_size = last.team_size || null;
    choice.set = last.set && typeof last.set === "object" ? { ...last.set } : {};
  }
  const state = { explained: null, error: null, mySeat: 0, bots: [], name: store.playerName() };
  const info = await getJSON("/api/info");
  const options = { ...info.options };

  const status = h("p", { class: "rules-status", id: "rules-status", role: "status", "aria-live": "polite" });
  const summary = h("p", { class: "summary", id: "rules-summary" });
  const words = h("div", { id: "rules-words" });
  const editor = h("div", { id: "rules-editor" });
  const seats = h("div", { id: "seats-choice" });

  let timer = null;
  function recheck() {
    clearTimeout(timer);
    timer = setTimeout(explain, 150);
  }

  async function explain() {
    const body = { preset: choice.preset, set: choice.set };
    if (choice.players) body.players = choice.players;
    if (choice.team_size) body.team_size = choice.team_size;
    try {
      state.explained = await postJSON("/api/rules/explain", body);
      state.error = null;
    } catch (err) {
      state.error = err.message;
    }
    draw();
  }

  function setRule(key, value) {
    choice.set[key] = value;
    recheck();
  }

  function draw() {
    const x = state.explained;
    if (state.error) {
      status.className = "rules-status refusal";
      status.replaceChildren(h("strong", {}, "✗ The engine refuses these rules: "), state.error);
    } else {
      status.className = "rules-status ok";
      const n = x ? x.house_rules.length : 0;
      status.replaceChildren(h("strong", {}, "✓ Rules accepted"), n ? ` (${n} house rule${n === 1 ? "" : "s"})` : "");
    }
    if (!x) return;
    summary.textContent = `${x.rules.source}. ${x.summary}.`;
    fill(words, rulesInWords(x));
    fill(editor, rulesEditor(form.options, { ...x.rules, ...choice.set }, x.house_rules, setRule, state.error));
    drawSeats();
  }

  function drawSeats() {
    const rules = state.explained.rules;
    const teams = Math.max(1, Math.floor(rules.players / rules.team_size));
    while (state.bots.length < rules.players) state.bots.push("casual");
    state.bots.length = rules.players;
    if (state.mySeat >= rules.players) state.mySeat = 0;
    fill(seats, h("fieldset", { class: "seat-choices" },
      h("legend", {}, "Seats: choose yours; bots play the others until people join"),
      [...Array(rules.players).keys()].map((s) => h("div", { class: "seat-choice" },
        h("label", { class: "check" },
          h("input", { type: "radio", name: "my-seat", value: String(s), checked: s === state.mySeat,
            onchange: () => { state.mySeat = s; } }),
          `Seat ${s + 1} · team ${"ABCDEF"[s % teams]}`),
        h("label", {}, h("span", { class: "sr-only" }, `Bot level for seat ${s + 1}`),
          h("select", { "aria-label": `Bot level for seat ${s + 1}`, dataset: { seat: String(s) },
            onchange: (e) => { state.bots[s] = e.target.value; } },
          form.bots.map((b) => h("option", { value: b, selected: state.bots[s] === b },
            form.levels && form.levels[b] ? `bot: ${b} (${form.levels[b]})` : `bot: ${b}`))))))));
  }

  function rulesBody() {
    const rules = { preset: choice.preset, set: choice.set };
    if (choice.players) rules.players = choice.players;
    if (choice.team_size) rules.team_size = choice.team_size;
    return rules;
  }

  // ---------------------------------------------------------------- Play now
  // The table is made with these rules, bots in every other seat, hints on; the page that
  // opens sits the person at seat 1 and starts the game (main.js, the "pending" join).
  const playName = h("input", { id: "play-name", type: "text", maxlength: "24", value: state.name, autocomplete: "nickname", placeholder: "Player" });
  const playStatus = h("p", { id: "play-status", role: "status", "aria-live": "polite" });
  async function playNow(e) {
    e.preventDefault();
    const name = playName.value.trim() || store.playerName() || "Player";
    store.savePlayerName(name);
    const rules = last ? last : { preset: form.presets[0].name, set: {} };
    const body = {
      // "play-now": the server seats the strongest level measured to answer within 100 ms
      // at these rules (bots/levels.py, play_now_level).
      name: "", rules, bots: "play-now",
      options: { ...options, hints: true },
    };
    playStatus.textContent = "Dealing…";
    try {
      await playWithBots(body, name);
    } catch (err) {
      playStatus.textContent = `The table was not made: ${err.message}`;
    }
  }
  const lastPreset = last && form.presets.find((p) => p.name === last.preset);
  const playPlayers = (last && last.players) || (lastPreset || form.presets[0]).players;
  const playRules = linked ? `${linked.name}: ${linked.source}`
    : last ? `${last.preset}${last.set && Object.keys(last.set).length ? " with your house rules" : ""} (your last rules)`
    : `${form.presets[0].name}: ${form.presets[0].source}`;

  const presetSelect = h("select", { id: "preset", onchange: (e) => {
    choice.preset = e.target.value;
    const p = form.presets.find((x) => x.name === choice.preset);
    choice.players = p.players;
    choice.team_size = null;
    choice.set = {};
    playersSelect.value = String(p.players);
    teamSelect.value = "";
    recheck();
  } }, form.presets.map((p) => h("option", { value: p.name, selected: p.name === choice.preset }, `${p.name}: ${p.source}`)));
  const playersSelect = h("select", { id: "players", onchange: (e) => { choice.players = Number(e.target.value); recheck(); } },
    [2, 3, 4, 5, 6].map((n) => h("option", { value: String(n), selected: n === choice.players }, String(n))));
  const teamSelect = h("select", { id: "team-size", onchange: (e) => { choice.team_size = e.target.value ? Number(e.target.value) : null; recheck(); } },
    h("option", { value: "" }, "as the preset says"),
    [1, 2, 3].map((n) => h("option", { value: String(n), selected: n === choice.team_size }, n === 1 ? "everyone alone" : `teams of ${n}`)));
  const nameInput = h("input", { id: "my-name", type: "text", maxlength: "24", value: state.name, autocomplete: "nickname", required: true });
  const tableName = h("input", { id: "table-name", type: "text", maxlength: "40", placeholder: "Friday table" });
  const hints = h("input", { id: "opt-hints", type: "checkbox", checked: options.hints });
  const hold = h("input", { id: "opt-hold", type: "number", min: "0", max: "3600", step: "5", value: String(options.seat_hold) });
  const pace = h("input", { id: "opt-pace", type: "number", min: "0", max: "10", step: "0.1", value: String(options.bot_pace) });
  // The table's pace (Play now is always live): turn-based tables last days (docs/WEB.md).
  const choices = (list, selected) => list.map(([value, words]) => h("option", { value, selected: value === selected }, words));
  const tablePace = h("select", { id: "opt-table-pace", onchange: () => drawPace() }, choices(PACES, "live"));
  const turnLimit = h("select", { id: "opt-turn-limit", onchange: () => drawPace() }, choices(LIMITS, "24h"));
  const onLimit = h("select", { id: "opt-on-limit", onchange: () => drawPace() }, choices(ON_LIMIT, "bot"));
  const paceSummary = h("p", { class: "pace-summary", id: "pace-summary", role: "status" });
  const turnFields = h("div", { class: "turn-fields", id: "turn-fields" },
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: "opt-turn-limit" }, "Time for each turn"), turnLimit),
      h("div", { class: "field" }, h("label", { for: "opt-on-limit" }, "When it passes"), onLimit)),
    h("p", { class: "note" }, "Nobody's seat goes to a bot when they close the page. Each person is told when it is their turn (turn on notifications at the table)."));
  const holdField = h("div", { class: "field" }, h("label", { for: "opt-hold" }, "Seconds a dropped player's seat waits before a bot plays it"), hold);
  function paceOptions() {
    if (tablePace.value !== "turn-based") return { pace: "live" };
    return { pace: "turn-based", turn_limit: turnLimit.value, on_limit: onLimit.value };
  }
  function drawPace() {
    const turnBased = tablePace.value === "turn-based";
    turnFields.hidden = !turnBased;
    holdField.hidden = turnBased;
    onLimit.disabled = turnLimit.value === "none";
    paceSummary.textContent = paceWords(paceOptions());
  }
  drawPace();
  const createStatus = h("p", { id: "create-status", role: "status", "aria-live": "polite" });

  async function create(e) {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      createStatus.textContent = "Give your name: the other players see it.";
      nameInput.focus();
      return;
    }
    if (state.error) {
      createStatus.textContent = `Fix the rules first: ${state.error}`;
      return;
    }
    store.savePlayerName(name);
    const rules = rulesBody();
    store.saveLastRules(rules);
    const body = {
      name: tableName.value.trim(), rules, bots: state.bots,
      options: { hints: hints.checked, seat_hold: Number(hold.value), bot_pace: Number(pace.value), ...paceOptions() },
    };
    const host = store.hostToken();
    if (host) body.host_token = host;
    createStatus.textContent = "Setting the table…";
    try {
      const made = await postJSON("/api/tables", body);
      store.saveHostToken(made.host_token);
      store.saveTableKeys(made.table, { host_token: made.host_token, pending: { seat: state.mySeat, name } });
      location.assign(`/t/${made.table}`);
    } catch (err) {
      createStatus.textContent = `The table was not made: ${err.message}`;
    }
  }

  const joinInput = h("input", { id: "join-link", type: "url", placeholder: "https://…/t/…", autocomplete: "off" });
  function join(e) {
    e.preventDefault();
    const m = joinInput.value.trim().match(/\/t\/([A-Za-z0-9_-]+)/);
    if (m) location.assign(`/t/${m[1]}`);
    else joinStatus.textContent = "That is not an invite link: it looks like …/t/ and the table's code.";
  }
  const joinStatus = h("p", { role: "status", "aria-live": "polite" });
  const mine = h("div", { id: "my-tables" });

  fill(root, h("div", { class: "home" },
    h("section", { class: "panel play-now", "aria-labelledby": "play-now-h" },
      h("h2", { id: "play-now-h" }, "Play against bots"),
      h("form", { id: "play-form", onsubmit: playNow, novalidate: true },
        h("div", { class: "field" }, h("label", { for: "play-name" }, "Your name"), playName),
        h("button", { type: "submit", class: "primary big", id: "play-now" }, "Play now"),
        h("p", { class: "play-rules" }, `You and ${playPlayers - 1} bot${playPlayers === 2 ? "" : "s"}, ${playRules}; hints on. The game starts at once.`),
        playStatus)),
    h("section", { class: "panel" },
      h("h2", {}, "Start a table"),
      h("p", { class: "notice" }, "New to Hand and Foot? ", h("a", { href: "/lessons", id: "lessons-link" }, "Learn it in short lessons"), ", played on real deals."),
      h("form", { id: "create-form", onsubmit: create, novalidate: true },
        h("div", { class: "field" }, h("label", { for: "my-name" }, "Your name"), nameInput),
        h("div", { class: "field" }, h("label", { for: "table-name" }, "Table name (optional)"), tableName),
        h("div", { class: "field" }, h("label", { for: "preset" }, "Rules"), presetSelect),
        summary,
        h("details", { class: "explain" }, h("summary", {}, "The rules in words"), words),
        h("div", { class: "field-row" },
          h("div", { class: "field" }, h("label", { for: "players" }, "Players"), playersSelect),
          h("div", { class: "field" }, h("label", { for: "team-size" }, "Teams"), teamSelect)),
        h("details", { class: "house" }, h("summary", {}, "House rules: every option, checked by the engine"), editor),
        status,
        seats,
        h("fieldset", { class: "table-options" }, h("legend", {}, "Table options"),
          h("div", { class: "field" }, h("label", { for: "opt-table-pace" }, "Pace"), tablePace),
          turnFields,
          paceSummary,
          h("label", { class: "check" }, hints, "Players may ask for hints"),
          holdField,
          h("div", { class: "field" }, h("label", { for: "opt-pace" }, "Seconds between bot moves"), pace)),
        h("button", { type: "submit", class: "primary big", id: "create" }, "Create the table"),
        createStatus)),
    h("section", { class: "panel" },
      h("h2", {}, "Join a table"),
      h("form", { onsubmit: join },
        h("div", { class: "field" }, h("label", { for: "join-link" }, "Invite link"), joinInput),
        h("button", { type: "submit" }, "Join")), joinStatus,
      h("p", {}, h("a", { href: "/mine", id: "mine-link" }, "My tables"), ": every table this browser has a seat at, your turn first, and your history.")),
    mine));
  explain();
  listMine(mine);
}

async function listMine(el) {
  const host = store.hostToken();
  if (!host) return;
  try {
    const { tables } = await getJSON("/api/tables", host);
    if (!tables.length) return;
    fill(el, h("section", { class: "panel" }, h("h2", {}, "Your tables"),
      h("ul", { class: "my-tables" }, tables.map((t) => h("li", {},
        h("a", { href: `/t/${t.table}` }, t.name || t.rules), ` · ${t.status}`,
        t.game ? ` · game ${t.game}` : "", ` · ${t.seats.join(", ")}`)))));
  } catch {
    /* the list is a convenience */
  }
}
