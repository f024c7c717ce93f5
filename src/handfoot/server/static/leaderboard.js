// @ts-check
// The leaderboard of one rule set: the rated people who chose to appear, and the
// computer levels rated on the same scale.
import { $, api, esc } from "./common.js";

/** @param {any} r */
const skill = (r) => `${r.mu.toFixed(1)} ± ${(2 * r.sigma).toFixed(1)}`;

async function show() {
  const rules = $("#board-rules").value;
  history.replaceState(null, "", `/leaderboard?rules=${encodeURIComponent(rules)}`);
  let data;
  try { data = await api(`/api/ratings?rules=${encodeURIComponent(rules)}`); $("#board-error").textContent = ""; }
  catch (e) { $("#board-error").textContent = /** @type {Error} */ (e).message; return; }
  const people = data.people.map((/** @type {any} */ p, /** @type {number} */ i) => `<tr><td class="num">${i + 1}</td><td>${esc(p.name)}</td>
    <td class="num">${p.ordinal.toFixed(1)}</td><td class="num">${skill(p)}</td><td class="num">${p.games}</td><td>${esc(p.like)}</td></tr>`).join("");
  const computers = Object.entries(data.computers).map(([level, r]) => `<tr><td>${esc(level)}</td><td class="num">${/** @type {any} */ (r).ordinal.toFixed(1)}</td>
    <td class="num">${skill(r)}</td><td class="num">${/** @type {any} */ (r).games}</td></tr>`).join("");
  $("#board").innerHTML = `<h3>People</h3>${people ? `<table class="board"><tr><th class="num">#</th><th>Name</th><th class="num">Rating</th>
      <th class="num">Skill</th><th class="num">Games</th><th>Beside the computer</th></tr>${people}</table>`
      : "<p>Nobody has chosen to appear here for these rules yet (on <a href=\"/me\">your page</a>: Show me on the leaderboard).</p>"}
    <h3>The computer levels</h3>${computers ? `<table><tr><th>Level</th><th class="num">Rating</th><th class="num">Skill</th><th class="num">Games</th></tr>${computers}</table>`
      : "<p>Not rated on this server yet (<code>handfoot ratings</code> rates them).</p>"}`;
}

async function start() {
  const data = await api("/api/rule-sets");
  const presets = data.rule_sets.filter((/** @type {any} */ r) => !r.saved);
  const asked = new URLSearchParams(location.search).get("rules");
  $("#board-rules").innerHTML = presets.map((/** @type {any} */ r) => `<option value="${esc(r.name)}" ${r.name === asked ? "selected" : ""}>${esc(r.name)} — ${esc(r.title)}</option>`).join("");
  $("#board-rules").addEventListener("change", show);
  await show();
}
start();
