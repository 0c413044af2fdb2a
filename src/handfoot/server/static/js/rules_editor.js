// House rules as form controls: one for every option the engine has (GET /api/rules), each
// change checked by the engine (POST /api/rules/explain), its own message shown when refused.

import { h } from "./dom.js";

const SECTIONS = {
  1: "Cards", 2: "Setting up", 3: "A turn", 4: "Taking the pile", 5: "Melds", 6: "The opening",
  7: "Knee and foot", 8: "Going out", 9: "The end of a round", 10: "Scoring",
};

function numberOrText(text) {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

function inputId(key, part = "") {
  return `rule-${key}${part ? "-" + part : ""}`;
}

// One option's control; ``set(value)`` records the person's choice.
function control(option, value, set) {
  const key = option.key;
  const id = inputId(key);
  switch (option.kind) {
    case "bool":
      return h("input", { type: "checkbox", id, checked: !!value, onchange: (e) => set(e.target.checked) });
    case "int":
      return h("input", { type: "number", id, value: String(value), step: "1", inputmode: "numeric",
        onchange: (e) => set(numberOrText(e.target.value)) });
    case "choice":
      return h("select", { id, onchange: (e) => set(e.target.value) },
        Object.entries(option.choices).map(([v, meaning]) =>
          h("option", { value: v, selected: v === value, title: meaning }, `${v.replaceAll("_", " ")}: ${meaning}`)));
    case "pile_take": {
      const whole = value === "whole";
      const count = h("input", { type: "number", id: inputId(key, "count"), value: whole ? "" : String(value), step: "1",
        "aria-label": "cards taken from the top of the pile", disabled: whole,
        onchange: (e) => set(numberOrText(e.target.value)) });
      const which = h("select", { id, onchange: (e) => {
        count.disabled = e.target.value === "whole";
        set(e.target.value === "whole" ? "whole" : numberOrText(count.value || "7"));
      } }, h("option", { value: "whole", selected: whole }, "the whole pile"),
      h("option", { value: "count", selected: !whole }, "the top cards:"));
      return h("span", { class: "inline" }, which, count);
    }
    case "max_wilds": {
      const none = value === "unlimited";
      const count = h("input", { type: "number", id: inputId(key, "count"), value: none ? "" : String(value), step: "1",
        "aria-label": "most wild cards in a meld", disabled: none,
        onchange: (e) => set(numberOrText(e.target.value)) });
      const which = h("select", { id, onchange: (e) => {
        count.disabled = e.target.value === "unlimited";
        set(e.target.value === "unlimited" ? "unlimited" : numberOrText(count.value || "2"));
      } }, h("option", { value: "unlimited", selected: none }, "no cap"),
      h("option", { value: "count", selected: !none }, "at most:"));
      return h("span", { class: "inline" }, which, count);
    }
    case "ints":
      return h("input", { type: "text", id, value: (value || []).join(", "), inputmode: "numeric",
        "aria-describedby": `${id}-how`,
        onchange: (e) => set(e.target.value.split(/[\s,]+/).filter(Boolean).map(numberOrText)) });
    case "cards": {
      const chosen = new Set(value || []);
      return h("fieldset", { class: "cards-choice", id },
        h("legend", { class: "sr-only" }, option.label),
        option.cards.map((card) => h("label", { class: "check" },
          h("input", { type: "checkbox", id: inputId(key, card), checked: chosen.has(card), onchange: (e) => {
            if (e.target.checked) chosen.add(card); else chosen.delete(card);
            set(option.cards.filter((c) => chosen.has(c)));
          } }), card)));
    }
    case "card_values":
    case "kinds": {
      const table = { ...(value || {}) };
      const names = option.kind === "kinds" ? option.kinds : option.cards;
      return h("fieldset", { class: "grid-inputs", id },
        h("legend", { class: "sr-only" }, option.label),
        names.map((name) => h("label", {}, h("span", {}, name),
          h("input", { type: "number", step: "1", id: inputId(key, name), value: table[name] === undefined ? "" : String(table[name]),
            inputmode: "numeric",
            onchange: (e) => {
              if (e.target.value.trim() === "") delete table[name];
              else table[name] = numberOrText(e.target.value);
              set({ ...table });
            } }))));
    }
    case "score_table":
      return h("textarea", { id, rows: "3", "aria-describedby": `${id}-how`,
        onchange: (e) => set(e.target.value.split("\n").map((line) => line.trim()).filter(Boolean)
          .map((line) => line.split(/[\s,]+/).map(numberOrText))) },
      (value || []).map((row) => row.join(", ")).join("\n"));
    default:
      return h("span", {}, JSON.stringify(value));
  }
}

const HOW = {
  ints: "numbers separated by commas",
  score_table: "one row a line: score at least, minimum",
};

// The editor: every non-seating option grouped by the rule book's sections.
export function rulesEditor(options, rules, houseRules, onSet, error = null) {
  // The engine's refusal names its setting ("rules: turn_cap: must be ..."): shown there too.
  const named = error && error.match(/^rules: ([a-z_]+)[.:]/);
  const wrong = named ? named[1] : null;
  const bySection = new Map();
  for (const option of options) {
    if (option.seating) continue;
    const section = option.clause.split(".")[0];
    if (!bySection.has(section)) bySection.set(section, []);
    bySection.get(section).push(option);
  }
  const marked = new Set(houseRules || []);
  return h("div", { class: "rules-editor" },
    [...bySection.entries()].map(([section, opts]) => h("fieldset", { class: "rules-section" },
      h("legend", {}, `${section}. ${SECTIONS[section] || ""}`),
      opts.map((option) => {
        const id = inputId(option.key);
        const labelled = !["cards", "card_values", "kinds"].includes(option.kind);
        const input = control(option, rules[option.key], (value) => onSet(option.key, value));
        if (wrong === option.key) {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", `${id}-error`);
        }
        return h("div", { class: "rule" + (marked.has(option.key) ? " house" : "") + (wrong === option.key ? " wrong" : ""), dataset: { key: option.key } },
          labelled ? h("label", { for: id }, option.label) : h("span", { class: "label", id: `${id}-label` }, option.label),
          h("span", { class: "clause" }, ` rule ${option.clause}`),
          marked.has(option.key) ? h("span", { class: "badge" }, "house rule") : null,
          input,
          HOW[option.kind] ? h("small", { id: `${id}-how` }, HOW[option.kind]) : null,
          wrong === option.key ? h("p", { class: "refusal", id: `${id}-error` }, `✗ ${error.replace(/^rules: /, "")}`) : null);
      }))));
}

// The rules in words: every clause and its sentences.
export function rulesInWords(explained) {
  return h("div", { class: "rules-words" },
    explained.clauses.map((c) => h("div", { class: "clause-words" },
      h("h4", {}, `${c.clause} ${c.title}`),
      h("ul", {}, c.sentences.map((s) => h("li", { class: s.includes("(house rule") ? "house" : null }, s))))));
}
