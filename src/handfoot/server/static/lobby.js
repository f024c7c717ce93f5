// @ts-check
// The lobby: rule sets, quick play, new tables and their invites, the list of tables.
import { $, $$, api, esc } from "./common.js";
import { tableSettings } from "./people.js";
import { creatorOf, drawInvites, forgetHosted, hostApi, hostedTables, refreshInvites, rememberHosted } from "./invite.js";

/** @typedef {{name: string, title: string, seats: number, teams?: number, about?: string, hands?: number,
 *   minutes_computer?: number, minutes_people?: number}} RuleSet */
/** @type {RuleSet[]} */
let ruleSets = [];
let firstGame = "";
/** The rule sets as the lobby's choices: each with its title and how long a game takes;
 * the one for a first game chosen in quick play (where nothing else was chosen). */
function fillRuleSets() {
  for (const sel of document.querySelectorAll(".rulesets")) {
    const was = sel.value;
    sel.innerHTML = ruleSets.map((r) => `<option value="${esc(r.name)}">${esc(r.title)}${r.name === firstGame ? " (good for a first game)" : ""}</option>`).join("");
    if (was && ruleSets.some((r) => r.name === was)) sel.value = was;
    else if (firstGame && sel.id === "quick-rules") sel.value = firstGame;
  }
  $("#rule-sets-list").innerHTML = ruleSets.filter((r) => r.about).map((r) =>
    `<li><b>${esc(r.title)}</b>${r.name === firstGame ? " (good for a first game)" : ""}: ${esc(r.about)} ${esc(length(r, true))}</li>`).join("");
  describe("quick-rules", "quick-about", true);
  describe("new-rules", "new-about", false);
}
/** How long a game takes, in words. @param {RuleSet} r @param {boolean} computer */
function length(r, computer) {
  const minutes = computer ? r.minutes_computer : r.minutes_people;
  if (!minutes) return "";
  const hands = r.hands === 1 ? "one hand" : `${r.hands} hands`;
  return `A game is ${hands}: about ${minutes < 60 ? minutes + " minutes" : (minutes / 60).toFixed(1).replace(".0", "") + " hours"} ${computer ? "against the computer" : "with every seat a person"}.`;
}
/** The chosen rule set in a line, under its choice. @param {string} select @param {string} box @param {boolean} computer */
function describe(select, box, computer) {
  const r = ruleSets.find((x) => x.name === $("#" + select).value);
  $("#" + box).textContent = r ? `${r.about || ""} ${length(r, computer)}`.trim() : "";
}
/** @type {string[]} */
let levels = [];
let defaultLevel = "";
export async function showLobby() {
  $("#lobby").hidden = false;
  const data = await api("/api/rule-sets");
  ruleSets = data.rule_sets;
  firstGame = data.first_game || "";
  fillRuleSets();
  $("#quick-rules").addEventListener("change", () => describe("quick-rules", "quick-about", true));
  $("#new-rules").addEventListener("change", () => describe("new-rules", "new-about", false));
  for (const sel of document.querySelectorAll(".levels")) {
    sel.innerHTML = data.levels.map((l) => `<option ${l === data.default_level ? "selected" : ""}>${esc(l)}</option>`).join("");
  }
  levels = data.levels;
  defaultLevel = data.default_level;
  seatChoice();
  listTables();
  showHosted();
  setInterval(() => {
    if (document.hidden) return;
    listTables();
    for (const el of $$(".hosted")) refreshInvites(el, el.dataset.table, { changed: listTables });
  }, 5000);
}
function seatChoice() {
  /** @type {{seats: number, teams?: number}} */
  const r = ruleSets.find((x) => x.name === $("#new-rules").value) || { seats: 4 };
  const teams = r.teams || 2;
  let html = `<fieldset class="seats"><legend>Who sits where</legend>
    <p class="hint">Name each person's seat: their invite will greet them by name.</p>`;
  for (let i = 0; i < r.seats; i++) {
    html += `<div class="seat-row" data-seat="${i}">
      <label class="seat-label" for="seat-kind-${i}">Seat ${i + 1} (team ${(i % teams) + 1})</label>
      <select class="seat-kind" id="seat-kind-${i}" data-seat="${i}">
        <option value="human" ${i === 0 ? "selected" : ""}>a person</option>
        ${levels.map((l) => `<option value="bot:${esc(l)}" ${i > 0 && l === defaultLevel ? "selected" : ""}>computer (${esc(l)})</option>`).join("")}
      </select>
      <label class="seat-name-label">Name <input class="seat-name" data-seat="${i}" maxlength="40"
        placeholder="${i === 0 ? "you" : "their name"}" autocomplete="off"></label>
    </div>`;
  }
  $("#seat-choice").innerHTML = html + "</fieldset>";
  const showNames = () => {
    for (const row of $$(".seat-row")) {
      row.querySelector(".seat-name-label").hidden = row.querySelector(".seat-kind").value !== "human";
    }
  };
  for (const sel of document.querySelectorAll(".seat-kind")) sel.addEventListener("change", showNames);
  showNames();
  $("#show-rules").href = "/api/rules/" + encodeURIComponent($("#new-rules").value);
}
/** The rule sets again (one was saved or deleted), `select` chosen. @param {string} select */
export async function showLobbyRules(select) {
  const data = await api("/api/rule-sets");
  ruleSets = data.rule_sets;
  fillRuleSets();
  $("#new-rules").value = select; describe("new-rules", "new-about", false); seatChoice();
}
async function createTable() {
  const seats = $$(".seat-kind").map((s) => {
    const name = $(`.seat-name[data-seat="${s.dataset.seat}"]`).value.trim();
    return s.value === "human" ? { kind: "human", name } : { kind: "bot", level: s.value.slice(4) };
  });
  try {
    const r = await api("/api/tables", { rules: $("#new-rules").value, seats, wait: true, settings: tableSettings() });
    rememberHosted(r.id, r.creator);
    $("#create-error").textContent = "";
    await showHosted(r.id);
    listTables();
    $("#hosted-panel").scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (e) { $("#create-error").textContent = /** @type {Error} */ (e).message; }
}
// The tables this browser set up (still going): their invites, again after a reload.
/** @param {string} [first] a table just set up */
async function showHosted(first) {
  const box = $("#invites");
  const ids = hostedTables();
  if (first) box.innerHTML = "";
  const drawn = new Set([...box.querySelectorAll(".hosted")].map((el) => el.dataset.table));
  for (const id of ids.slice(0, 5)) {
    if (drawn.has(id)) continue;
    const el = document.createElement("div");
    el.className = "hosted"; el.dataset.table = id;
    box.appendChild(el);
    $("#hosted-panel").hidden = false;
    const h = await drawInvites(el, id, { changed: () => { listTables(); $("#hosted-panel").hidden = !box.querySelector(".hosted"); } });
    if (!h) { if (el.querySelector(".error") && !first) el.remove(); continue; }
    if (h.over && id !== first) el.remove();
  }
  $("#hosted-panel").hidden = !box.querySelector(".hosted");
}
async function quickPlay() {
  try {
    const r = await api("/api/play", { rules: $("#quick-rules").value, level: $("#quick-level").value });
    localStorage.setItem("hf-token-" + r.id, r.token);
    if (r.creator) localStorage.setItem("hf-creator-" + r.id, r.creator);
    location.href = `/table/${r.id}?token=${encodeURIComponent(r.token)}`;
  } catch (e) { alert(/** @type {Error} */ (e).message); }
}
let lobbyPage = 0;
/** @param {number} [page] */
async function listTables(page) {
  if (page !== undefined) lobbyPage = page;
  const data = await api(`/api/tables?page=${lobbyPage}`);
  const row = (/** @type {any} */ t) => {
    const who = t.seats.map((s) => (s.called || (s.computer ? "computer" : (s.name || "person"))) + (s.kind === "human" && s.computer ? " (computer playing)" : "")).join(", ");
    const winners = t.seats.filter((/** @type {any} */ s) => t.winners.includes(s.team)).map((/** @type {any} */ s) => s.called).join(" & ");
    const state = t.waiting ? "waiting for its players" : t.over ? `finished — won by ${winners || "team " + t.winners.map((w) => w + 1).join(" & ")}` : (t.started ? (t.hand_number === null ? "in progress" : `hand ${t.hand_number}, totals ${t.totals.join(" / ")}`) : "waiting to start");
    const links = t.over ? `<a href="/?replay=${t.id}">replay</a> · <a href="/api/tables/${t.id}/record" download>record</a>`
      : `<a href="/table/${t.id}">watch</a>`;
    const mine = creatorOf(t.id) && t.over ? ` · <button class="remove-row" data-table="${esc(t.id)}">Remove</button>` : "";
    return `<li><b>${esc(t.rules)}</b> — ${esc(state)} — ${esc(who)} — ${links}${mine}</li>`;
  };
  const open = data.tables.filter((/** @type {any} */ t) => !t.over), done = data.tables.filter((/** @type {any} */ t) => t.over);
  $("#table-list").innerHTML = `<h3>Open and in progress (${open.length})</h3><ul>${open.map(row).join("") || "<li>none</li>"}</ul>
    <h3>Finished (${done.length})</h3><ul>${done.slice(0, 30).map(row).join("") || "<li>none</li>"}</ul>` +
    (data.pages > 1 ? `<p class="pages">Page ${data.page + 1} of ${data.pages} (${data.total} tables)
      ${data.page > 0 ? '<button id="lobby-prev">Newer</button>' : ""} ${data.page + 1 < data.pages ? '<button id="lobby-next">Older</button>' : ""}</p>` : "");
  for (const b of $$(".remove-row")) {
    b.addEventListener("click", async () => {
      if (!confirm("Remove this table? Its replay and record go with it.")) return;
      try { await hostApi(b.dataset.table, "remove"); forgetHosted(b.dataset.table); listTables(); }
      catch (e) { alert(/** @type {Error} */ (e).message); }
    });
  }
  if ($("#lobby-prev")) $("#lobby-prev").addEventListener("click", () => listTables(lobbyPage - 1));
  if ($("#lobby-next")) $("#lobby-next").addEventListener("click", () => listTables(lobbyPage + 1));
}

export function setUpLobby() {
  $("#new-rules").addEventListener("change", seatChoice);
  $("#create-table").addEventListener("click", createTable);
  $("#quick-play").addEventListener("click", quickPlay);
}
