// @ts-check
// A finished game step by step, drawn as at the table (every hand shown: the game is
// over), each move in words, with step, back and autoplay.
import { $, api, cardHTML, cardText, esc } from "./common.js";
import { showFair } from "./fair.js";

/** @param {import("./state.js").Meld} m */
function replayMeld(m) {
  const shown = m.complete ? [m.cards.find((c) => c !== "JK" && !c.startsWith("2")) || m.cards[0]] : m.cards;
  return `<div class="meld"><b>${m.index + 1}.</b> ${esc(m.label)} ${shown.map((c) => cardHTML(c, "small")).join("")}
    <span class="tag ${esc(m.book || "")}">${m.complete ? esc(m.book_name || "") + ", " + m.cards.length + " cards" : m.cards.length + " cards, needs " + m.needs}</span></div>`;
}
/** @param {any} r the server's answer: each seat's view at this step */
function replayBoard(r) {
  const v0 = r.views[0], name = (/** @type {number} */ i) => r.names[i];
  const actor = v0.game_over ? null : v0.actor;
  const info = `<div class="bar replay-info"><span>Hand ${v0.hand_number} of ${v0.hands_in_game}</span>
    <span class="zone">Pile ${v0.pile_top ? cardHTML(v0.pile_top, "small") : "<i>empty</i>"} ${v0.pile_size} card${v0.pile_size === 1 ? "" : "s"}</span>
    <span class="zone">Stock ${v0.stock_size}</span>
    <span>Totals: ${v0.totals.map((/** @type {number} */ t, /** @type {number} */ i) => `team ${i + 1}: ${t}`).join(", ")}</span>
    ${v0.game_over ? `<span class="turn">Game over: ${v0.winners.map((/** @type {number} */ w) => v0.teams[w].seats.map((/** @type {number} */ s) => esc(name(s))).join(" & ")).join(" and ")} won</span>` : ""}</div>`;
  const players = r.views.map((/** @type {import("./state.js").View & {seat: number}} */ v) => {
    const p = v.players[v.seat];
    return `<div class="player replay-player ${v.seat === actor ? "acting" : ""}">
      <b>${esc(name(v.seat))}</b> (seat ${v.seat + 1}, team ${p.team + 1})${v.seat === actor ? " — to play" : ""}
      <span class="foot">${p.in_foot ? "playing from the foot" : "foot: " + p.foot_count + " cards"}</span>
      <div class="replay-hand" aria-label="${esc(name(v.seat))}'s hand">${v.hand.map((c) => cardHTML(c, "small")).join("") || "<i>no cards</i>"}</div></div>`;
  }).join("");
  const teams = v0.teams.map((/** @type {import("./state.js").Team} */ t) => `<div class="team"><h3>Team ${t.team + 1}: ${t.seats.map((s) => esc(name(s))).join(" & ")}
      ${t.opened ? "" : "(not opened)"}</h3>
    ${t.melds.map(replayMeld).join("") || "<p>No melds yet.</p>"}
    ${t.red_threes.length ? `<p>Red 3s: ${t.red_threes.map(cardText).join(" ")}</p>` : ""}</div>`).join("");
  return info + `<div class="replay-players">${players}</div><div id="replay-melds" class="replay-melds">${teams}</div>`;
}
/**
 * The hard player's review of the finished game, worked out when first opened (the
 * server keeps it; asked again every few seconds until it is done): each hand's
 * costliest decisions in words, each with a button to the step before it.
 * @param {string} id
 * @param {(n: number) => any} go
 * @param {() => string[]} names
 */
function offerReview(id, go, names) {
  if ($("#replay-review")) return;
  $("#replay-moves-box").insertAdjacentHTML("afterend",
    '<details id="replay-review" class="replay-review"><summary>The hard player\'s review</summary><div id="replay-review-body" aria-live="polite"></div></details>');
  let asked = false;
  $("#replay-review").addEventListener("toggle", () => {
    if (!asked && $("#replay-review").open) { asked = true; showReview(id, go, names); }
  });
}
/**
 * @param {string} id
 * @param {(n: number) => any} go
 * @param {() => string[]} names
 */
async function showReview(id, go, names) {
  const body = $("#replay-review-body");
  let r;
  try { r = await api(`/api/tables/${id}/review`); }
  catch (e) { body.textContent = /** @type {Error} */ (e).message; return; }
  if (r.status !== "ready") {
    body.innerHTML = "<p>The hard player is reviewing this game; its opinion appears here when it is done.</p>";
    setTimeout(() => showReview(id, go, names), 5000);
    return;
  }
  let start = 0;
  const parts = r.review.hands.map((/** @type {any} */ h) => {
    const first = start;
    start += h.actions;
    const byIndex = new Map(h.decisions.map((/** @type {any} */ d) => [d.index, d]));
    const worst = h.costliest.map((/** @type {number} */ i) => byIndex.get(i));
    const items = worst.map((/** @type {any} */ d) => `<li><button class="review-step" data-step="${first + d.index}">Move ${d.index + 1}</button>
      <b>${esc(names()[d.seat] || "Seat " + (d.seat + 1))}</b>: ${esc(d.text)}</li>`).join("");
    return `<h3>Hand ${h.number}</h3>${items ? `<ol class="review-list">${items}</ol>` : "<p>No decision cost anything the hard player could see.</p>"}`;
  });
  body.innerHTML = parts.join("") + `<p class="note">Each cost is in expected points, from ${r.review.worlds} or more sampled deals of the cards that player could not see.</p>`;
  for (const b of body.querySelectorAll(".review-step")) {
    b.addEventListener("click", () => go(Number(/** @type {HTMLElement} */ (b).dataset.step)));
  }
}
/** @param {string} id */
export async function showReplay(id) {
  $("#replay").hidden = false;
  if (!$("#replay .fair")) $("#replay-step").insertAdjacentHTML("afterend", ' <span class="fair"></span>');
  showFair(id, $("#replay .fair"));
  $("#replay-record").href = `/api/tables/${id}/record`;
  let step = 0, total = 0, asked = 0, timer = 0, shown = 0;
  /** @type {string[]} */
  let names = [];
  const go = async (/** @type {number} */ n) => {
    step = Math.max(0, total ? Math.min(n, total) : n);  // at once, so quick clicks add up
    const mine = ++asked;
    let r;
    try { r = await api(`/api/tables/${id}/replay?step=${step}`); }
    catch (e) { $("#replay-said").textContent = /** @type {Error} */ (e).message; stop(); return; }
    if (mine !== asked) return;  // a later click is on its way
    step = shown = r.step; total = r.total; names = r.names;
    $("#replay-title").textContent = `Replay: ${r.rules}`;
    $("#replay-step").textContent = `step ${step} of ${total}`;
    $("#replay-slider").max = total; $("#replay-slider").value = step;
    $("#replay-said").textContent = r.moves.length ? `${r.moves[0].step}. ${r.moves[0].text}` : "The cards are dealt.";
    $("#replay-body").innerHTML = replayBoard(r);
    const list = $("#replay-moves");
    list.textContent = "";
    for (const m of r.moves.slice(1)) {
      const li = document.createElement("li");
      li.value = m.step; li.textContent = m.text;
      list.appendChild(li);
    }
    if (step >= total) stop();
  };
  const stop = () => {
    // a step asked for by the autoplay and not shown yet is not shown: Pause stays on
    // the step the player sees
    if (timer) { asked++; step = shown; }
    clearInterval(timer); timer = 0;
    $("#replay-play").textContent = "▶ Play"; $("#replay-play").setAttribute("aria-pressed", "false");
  };
  const play = () => {
    if (step >= total) go(0);
    $("#replay-play").textContent = "❚❚ Pause"; $("#replay-play").setAttribute("aria-pressed", "true");
    clearInterval(timer);
    timer = setInterval(() => go(step + 1), Number($("#replay-speed").value));
  };
  $("#replay-first").addEventListener("click", () => { stop(); go(0); });
  $("#replay-prev").addEventListener("click", () => { stop(); go(step - 1); });
  $("#replay-next").addEventListener("click", () => go(step + 1));
  $("#replay-last").addEventListener("click", () => { stop(); go(total); });
  $("#replay-play").addEventListener("click", () => (timer ? stop() : play()));
  $("#replay-speed").addEventListener("change", () => { if (timer) play(); });
  $("#replay-slider").addEventListener("change", (/** @type {any} */ e) => go(Number(e.target.value)));
  await go(0);
  offerReview(id, (/** @type {number} */ n) => { stop(); go(n); }, () => names);
}
