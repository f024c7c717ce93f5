// @ts-check
// House rules as a form: the settings grouped, each with its explanation and the
// preset's value; the differences as the engine sees them; the same changes as TOML to
// copy (or TOML pasted instead). The server's engine checks everything: a refusal is
// shown next to the setting it names. Saved rule sets can be deleted by whoever saved them.
import { $, api, esc } from "./common.js";
import { copyText } from "./invite.js";
import { showLobbyRules } from "./lobby.js";

/** @typedef {{setting: string, kind: string, label: string, help: string, choices: string[], value: any, preset: any}} Setting */
/** The form's own state: the groups of settings shown, the rule set they start from, which
 * of form and TOML was edited last, and the checks and loads on their way.
 * @type {{groups: {group: string, title: string, settings: Setting[]}[], base: string, edited: "form" | "toml", timer: number, asked: number, loads: number}} */
const house = { groups: [], base: "", edited: "form", timer: 0, asked: 0, loads: 0 };

/** @param {string} path @param {object} body @returns {Promise<{ok: boolean, data: any}>} */
async function postJSON(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  return { ok: r.ok, data };
}
const fieldId = (/** @type {string} */ setting, extra = "") => "rule-" + setting.replace(/[^a-z_]/g, "-") + extra;
const CARD_ORDER = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "Joker"];
/** @param {any} v */
function shownValue(v) {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (v && typeof v === "object") return Object.keys(v).sort((a, b) => CARD_ORDER.indexOf(a) - CARD_ORDER.indexOf(b)).map((k) => `${k}: ${v[k]}`).join(", ");
  return v === "" ? "none" : String(v);
}
/** @param {Setting} s */
function inputFor(s) {
  const id = fieldId(s.setting);
  if (s.kind === "yes-no") return `<input type="checkbox" id="${id}" ${s.value ? "checked" : ""}>`;
  if (s.kind === "choice") return `<select id="${id}">${s.choices.map((c) => `<option ${c === s.value ? "selected" : ""}>${esc(c)}</option>`).join("")}</select>`;
  if (s.kind === "choices") return `<span class="choices" role="group" aria-labelledby="${id}-label">${s.choices.map((c, i) =>
    `<label class="choice"><input type="checkbox" id="${id}-${i}" value="${esc(c)}" ${s.value.includes(c) ? "checked" : ""}> ${esc(c)}</label>`).join("")}</span>`;
  if (s.kind === "values") return `<span class="card-values" role="group" aria-labelledby="${id}-label">${s.choices.map((k, i) =>
    `<label class="value">${esc(k)} <input id="${id}-${i}" data-card="${esc(k)}" inputmode="numeric" size="4" value="${esc(s.value[k])}"></label>`).join("")}</span>`;
  const numeric = s.kind === "number" ? ' inputmode="numeric" size="7"' : "";
  return `<input id="${id}"${numeric} value="${esc(s.value)}" autocomplete="off" aria-describedby="${id}-help">`;
}
/** @param {Setting} s */
function readField(s) {
  const id = fieldId(s.setting);
  const num = (/** @type {string} */ t) => /^\s*-?\d+\s*$/.test(t) ? Number(t) : t;  // the engine refuses what is not
  if (s.kind === "yes-no") return $("#" + id).checked;
  if (s.kind === "choice") return $("#" + id).value;
  if (s.kind === "choices") return s.choices.filter((c, i) => $(`#${id}-${i}`).checked);
  if (s.kind === "values") return Object.fromEntries(s.choices.map((k, i) => [k, num($(`#${id}-${i}`).value)]));
  if (s.kind === "number") return num($("#" + id).value);
  return $("#" + id).value;
}
/** @param {Setting} s @param {any} v */
function writeField(s, v) {
  const id = fieldId(s.setting);
  if (s.kind === "yes-no") $("#" + id).checked = !!v;
  else if (s.kind === "choices") s.choices.forEach((c, i) => { $(`#${id}-${i}`).checked = v.includes(c); });
  else if (s.kind === "values") s.choices.forEach((k, i) => { $(`#${id}-${i}`).value = v[k]; });
  else if (s.kind === "list") $("#" + id).value = Array.isArray(v) ? v.map((x) => Array.isArray(x) ? `[${x.join(", ")}]` : x).join(", ") : v;
  else $("#" + id).value = v;
}
const same = (/** @type {any} */ a, /** @type {any} */ b) => JSON.stringify(a) === JSON.stringify(b);
function allSettings() { return house.groups.flatMap((g) => g.settings); }
function formChanges() {
  /** @type {Record<string, any>} */
  const out = {};
  for (const s of allSettings()) { const v = readField(s); if (!same(v, s.preset)) out[s.setting] = v; }
  return out;
}
function markChanged() {
  for (const g of house.groups) {
    let n = 0;
    for (const s of g.settings) {
      const changed = !same(readField(s), s.preset);
      n += Number(changed);
      $(`.setting[data-setting="${s.setting}"]`).classList.toggle("changed", changed);
    }
    $(`#group-${g.group} .changed-count`).textContent = n ? ` — ${n} changed` : "";
  }
}

async function loadHouseForm() {
  const base = $("#new-rules").value;
  if (!base || base === house.base) return;
  house.base = base;
  const mine = ++house.loads;
  const r = await api("/api/rules-form/" + encodeURIComponent(base));
  if (mine !== house.loads) return;  // another rule set was chosen meanwhile
  house.groups = r.groups;
  $("#house-form").innerHTML = r.groups.map((g) => `<details class="rule-group" id="group-${g.group}">
    <summary>${esc(g.title)}<span class="changed-count"></span></summary>
    ${g.settings.map((s) => `<div class="setting" data-setting="${s.setting}">
      <label class="setting-label" id="${fieldId(s.setting)}-label" ${["choices", "values"].includes(s.kind) ? "" : `for="${fieldId(s.setting)}"`}>${esc(s.label)}</label>
      ${inputFor(s)}
      <p class="help" id="${fieldId(s.setting)}-help">${esc(s.help)} <span class="preset-value">${esc(base)}: ${esc(shownValue(s.preset))}</span></p>
      <p class="setting-error error" role="alert"></p>
    </div>`).join("")}
  </details>`).join("");
  for (const el of $("#house-form").querySelectorAll("input, select")) {
    el.addEventListener("input", formEdited);  // (not "change": it comes again on leaving)
  }
  if (house.edited === "toml" && $("#house-toml").value.trim()) {
    markChanged();  // TOML typed while the form loaded is kept: it applies to the new base
    return;
  }
  house.edited = "form";
  $("#house-toml").value = "";
  $("#house-result").innerHTML = "";
  markChanged();
}
function formEdited() {
  house.edited = "form";
  markChanged();
  clearTimeout(house.timer);
  house.timer = setTimeout(() => houseRules(false, true), 600);
}
function clearErrors() { for (const el of document.querySelectorAll(".setting-error")) el.textContent = ""; }
/** @param {any} data @param {boolean} quiet */
function showError(data, quiet) {
  clearErrors();
  const s = data.setting && $(`.setting[data-setting="${data.setting}"]`);
  if (s) {
    s.querySelector(".setting-error").textContent = data.message || data.error;
    s.closest("details").open = true;
    if (!quiet) s.scrollIntoView({ block: "center" });
  }
  $("#house-result").innerHTML = `<p class="error">${esc(data.error)}</p>`;
}
/** Check the changes (and save them as a rule set). @param {boolean} save */
async function houseRules(save, quiet = false) {
  clearTimeout(house.timer);
  /** @type {Record<string, any>} */
  const body = { base: $("#new-rules").value };
  if (house.edited === "toml") body.toml = $("#house-toml").value;
  else body.settings = formChanges();
  if (save) body.name = $("#house-name").value;
  if (save && localStorage.getItem("hf-owner")) body.owner = localStorage.getItem("hf-owner");
  const mine = ++house.asked;
  const { ok, data } = await postJSON("/api/rule-sets/check", body);
  if (mine !== house.asked) return;  // a later check is on its way
  if (!ok) { showError(data, quiet); return; }
  clearErrors();
  if (data.owner) localStorage.setItem("hf-owner", data.owner);
  if (house.edited === "toml") {  // the form shows what the TOML changed
    for (const s of allSettings()) {
      const c = data.changes.find((/** @type {any} */ x) => x.setting === s.setting);
      writeField(s, c ? c.to : s.preset);
    }
    markChanged();
  }
  $("#house-toml").value = data.toml;
  if (save) {  // from now on the form starts from the saved rule set
    await showLobbyRules(data.name);
    house.base = ""; await loadHouseForm(); $("#house-toml").value = data.toml;
    showMyRuleSets();
  }
  const lines = data.changes.length ? data.changes.map((/** @type {any} */ c) => {
    const s = allSettings().find((x) => x.setting === c.setting);
    return `<li><b>${esc(s ? s.label : c.setting)}</b> (${esc(c.setting)}): ${esc(shownValue(c.from))} → ${esc(shownValue(c.to))}</li>`;
  }).join("") : "<li>no change from the preset</li>";
  $("#house-result").innerHTML = `<p>${save ? "Saved as <b>" + esc(data.name) + "</b>; new tables can use it." : "These rules are valid."} Changes from ${esc(data.base)}:</p><ul>${lines}</ul>`;
}
async function showMyRuleSets() {
  const owner = localStorage.getItem("hf-owner");
  const box = $("#my-rule-sets");
  if (!owner) { box.innerHTML = ""; return; }
  const { data } = await postJSON("/api/rule-sets/mine", { owner });
  const names = data.names || [];
  box.innerHTML = names.length ? `<h3>Rule sets you saved</h3><ul>${names.map((/** @type {string} */ n) =>
    `<li>${esc(n)} <button class="delete-rules" data-name="${esc(n)}">Delete</button></li>`).join("")}</ul>` : "";
  for (const b of box.querySelectorAll(".delete-rules")) {
    b.addEventListener("click", async () => {
      if (!confirm(`Delete the rule set "${b.dataset.name}"? Tables already set up keep their rules.`)) return;
      const { ok, data: d } = await postJSON("/api/rule-sets/delete", { name: b.dataset.name, owner });
      if (!ok) { box.insertAdjacentHTML("beforeend", `<p class="error">${esc(d.error)}</p>`); return; }
      house.base = "";
      await showLobbyRules($("#new-rules").value === b.dataset.name ? "texas-good-sam" : $("#new-rules").value);
      showMyRuleSets();
    });
  }
}
export function setUpHouseRules() {
  $("#house-check").addEventListener("click", () => houseRules(false));
  $("#house-save").addEventListener("click", () => houseRules(true));
  $("#house-toml").addEventListener("input", () => { house.edited = "toml"; clearTimeout(house.timer); });
  $("#house-copy").addEventListener("click", (/** @type {any} */ e) => copyText($("#house-toml").value, e.currentTarget));
  $("#house").addEventListener("toggle", () => { if ($("#house").open) { loadHouseForm(); showMyRuleSets(); } });
  $("#new-rules").addEventListener("change", () => { if ($("#house").open) loadHouseForm(); });
}
