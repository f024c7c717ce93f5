// @ts-check
// People, not seats: this browser's person (their name, kept by the server under the
// player key in this browser's cookie), taking one's seat under one's name, who left
// the table and who came back, Play again, and the teams named by their people.
import { $, api, esc } from "./common.js";
import { current, table } from "./state.js";

/** This browser's person, as /api/me says (null: none yet). @type {any} */
let me = null;

/** The person of this browser, or null when it has no player key here yet. */
export async function whoAmI() {
  try { me = await api("/api/me"); } catch (e) { me = null; }
  return me;
}

/** A seat's name as the server tells it ("Ann", "Computer (hard)"). @param {number} i */
function called(i) { const seat = current().seats[i]; return seat.called || seat.name || `Player ${i + 1}`; }

/** A team by its people: "you and Ann", "Bob and Computer (hard)". @param {number} team */
export function teamPeople(team) {
  const s = current(), v = s.view;
  const seats = v.players.filter((p) => p.team === team).map((p) => p.seat);
  const mine = s.seat !== null && seats.includes(s.seat);
  const names = seats.filter((i) => i !== s.seat).map(called);
  return (mine ? ["you", ...names] : names).join(" and ");
}

// ------------------------------------------------------------------ the lobby
/** The lobby's "You" panel: the name this browser plays under, and the person's page;
 * and the new table's settings for absent players. */
export async function showPerson() {
  const lobby = $("#lobby");
  if (!lobby || $("#person")) return;
  lobby.insertAdjacentHTML("afterbegin", '<section id="person" class="panel wide" aria-labelledby="person-title"></section>');
  $("#seat-choice").insertAdjacentHTML("afterend", `<details id="table-settings"><summary>When someone leaves the table</summary>
    <label>Seconds before anyone at the table may let the computer play an absent person's seat
      <input id="absent-wait" type="number" min="0" max="3600" value="60" inputmode="numeric"></label>
    <label>Turn timer: nudge a person after this many seconds (0: off)
      <input id="turn-seconds" type="number" min="0" max="3600" value="0" inputmode="numeric"></label></details>`);
  await drawPerson();
}
/** The new table's settings, as the lobby's form says them. */
export function tableSettings() {
  const wait = $("#absent-wait"), turn = $("#turn-seconds");
  return wait && turn ? { absent_wait: Number(wait.value), turn_seconds: Number(turn.value) } : undefined;
}
async function drawPerson() {
  const box = $("#person");
  const p = await whoAmI();
  if (p) {
    box.innerHTML = `<h2 id="person-title">Playing as ${esc(p.name)}</h2>
      <p><a href="/me">Your games and ratings</a> · <a href="/leaderboard">Leaderboard</a></p>`;
    return;
  }
  box.innerHTML = `<h2 id="person-title">Your name</h2>
    <p class="hint">Say it once: the others at the table see it, and your games are kept for you
      on <a href="/me">your page</a>.</p>
    <form id="person-form" class="bar"><label>Name <input id="person-name" maxlength="40" autocomplete="nickname" required></label>
      <button type="submit">Save</button></form><p id="person-error" class="error" role="alert"></p>`;
  $("#person-form").addEventListener("submit", async (/** @type {Event} */ e) => {
    e.preventDefault();
    try { await api("/api/me", { name: $("#person-name").value }); await drawPerson(); }
    catch (err) { $("#person-error").textContent = /** @type {Error} */ (err).message; }
  });
}

// ------------------------------------------------------------------ the table
/** Take one's seat under one's name (asked for once when neither this browser nor the
 * invite knows it). @param {string} id @param {string | null} token */
export async function takeSeat(id, token) {
  if (!token) return;
  let r;
  try { r = await api(`/api/tables/${id}/sit`, { token }); } catch (e) { return; }
  if (!r.need_name) return;
  $("#table").insertAdjacentHTML("afterbegin", `<section id="name-ask" class="panel" aria-labelledby="name-ask-title">
    <h2 id="name-ask-title">What should the others call you?</h2>
    <form id="name-ask-form" class="bar"><label>Your name <input id="name-ask-name" maxlength="40" autocomplete="nickname" required></label>
    <button type="submit">Sit down</button></form><p id="name-ask-error" class="error" role="alert"></p></section>`);
  $("#name-ask-form").addEventListener("submit", async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await api(`/api/tables/${id}/sit`, { token, name: $("#name-ask-name").value });
      $("#name-ask").remove();
    } catch (err) { $("#name-ask-error").textContent = /** @type {Error} */ (err).message; }
  });
}

/** Go on to the next game (Play again): the same invite token opens the same seat there.
 * @param {string} next */
function goTo(next) {
  const creator = localStorage.getItem("hf-creator-" + table.id);
  if (creator) localStorage.setItem("hf-creator-" + next, creator);
  if (table.token) localStorage.setItem("hf-token-" + next, table.token);
  location.href = `/table/${next}` + (table.token ? `?token=${encodeURIComponent(table.token)}` : "");
}
async function playAgain() {
  const b = $("#play-again");
  b.disabled = true;
  try { const r = await api(`/api/tables/${table.id}/again`, { token: table.token }); goTo(r.id); }
  catch (e) { b.disabled = false; $("#play-again-error").textContent = /** @type {Error} */ (e).message; }
}
/** After the table is drawn: the Play again button once the game is over. */
function afterState() {
  const s = current(), box = $("#end-of-hand");
  if (!s.view.game_over || s.seat === null || !box || box.hidden || $("#play-again")) return;
  box.insertAdjacentHTML("beforeend", `<p class="again"><button id="play-again" class="big">Play again</button>
    <span class="hint">the same people in the same seats, a new deal</span></p><p id="play-again-error" class="error" role="alert"></p>`);
  $("#play-again").addEventListener("click", playAgain);
}
/** Who left and who came back, said for a few seconds. @param {string} text */
function toast(text) {
  let el = $("#presence");
  if (!el) {
    document.body.insertAdjacentHTML("beforeend", '<div id="presence" role="status" aria-live="polite"></div>');
    el = $("#presence");
  }
  const line = document.createElement("p");
  line.textContent = text;
  el.appendChild(line);
  setTimeout(() => line.remove(), 8000);
}
/** A message from the server (after the table has drawn it). @param {any} m */
export function receive(m) {
  if (m.type === "again") goTo(m.table);
  else if (m.type === "presence") toast(m.message);
  else if (m.type === "state") afterState();
}
