// @ts-check
// Around the board: the move log in words (newest first) and its announcements, the brief
// animations, the turn in the tab's title and icon (and a sound, if chosen), and the end of
// a hand, which waits until every person at the table has pressed "Next hand".
import { $, esc } from "./common.js";
import { showFair } from "./fair.js";
import { soundOn } from "./settings.js";
import { current, myTeamIndex, noteTurn, seeLog, table } from "./state.js";
import { teamPeople } from "./people.js";
import { seatLabel } from "./table-board.js";

/** @typedef {import("./state.js").StateMessage} StateMessage */
const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function renderLog() {
  const s = current(), log = s.log || [];
  $("#log").innerHTML = log.map((e) => `<li class="${e.seat === s.seat ? "mine" : ""} ${e.seq > (table.logSeen ?? Infinity) ? "new" : ""}">${esc(e.text)}</li>`).join("") ||
    "<li class=\"none\">No moves yet.</li>";
  // moves since the last state, said once through the live region (the oldest first)
  const seen = table.logSeen;
  const fresh = log.filter((e) => seen !== undefined && e.seq > seen).reverse().slice(-3);
  if (fresh.length) announce(fresh.map((e) => e.text).join(". "));
  if (log.length) seeLog(Math.max(seen ?? -1, log[0].seq));
  else if (seen === undefined) seeLog(-1);
}
/** The newest move in words, at the top where it is always on screen (a computer's moves
 * each shown as they come); marked for a moment when it changes. */
export function renderLastMove() {
  const s = current(), last = (s.log || [])[0];
  const text = last ? last.text : "No moves yet.";
  const el = $("#last-move-text");
  if (el.textContent === text) return;
  el.textContent = text;
  const box = $("#last-move");
  box.classList.add("changed");
  setTimeout(() => box.classList.remove("changed"), 1500);
}
/** Said once through the live region. @param {string} text */
function announce(text) {
  const live = $("#live");
  live.textContent = "";
  // a fresh text node, so that a screen reader says it even if it is the same words again
  setTimeout(() => { live.textContent = text; }, 30);
}

// ---------------------------------------------------------------- animation
// Cards just drawn or taken fly in from the stock or the pile; a new meld grows in.
/** @param {StateMessage | null | undefined} previous */
export function animateArrivals(previous) {
  if (reducedMotion() || !previous) return;
  const s = current();
  const last = (s.log || [])[0];
  const newFresh = (s.fresh || []).join(" ") !== (previous.fresh || []).join(" ") && (s.fresh || []).length;
  if (newFresh && last && last.seat === s.seat) {
    const from = (last.kind === "take-pile" || last.kind === "take-upcard" ? $("#pile .card") : $("#stock .card")) || $("#stock");
    const src = from.getBoundingClientRect();
    document.querySelectorAll("#hand .card.fresh").forEach((/** @type {any} */ el, k) => {
      const r = el.getBoundingClientRect();
      // a card in flight takes no taps: one meant for the card it passes over reaches it
      el.style.pointerEvents = "none";
      const landed = () => { el.style.pointerEvents = ""; };
      el.animate([{ transform: `translate(${src.left - r.left}px, ${src.top - r.top}px) scale(.8)`, opacity: 0.4 },
        { transform: "none", opacity: 1 }], { duration: 450, delay: k * 60, easing: "ease-out", fill: "backwards" })
        .finished.then(landed, landed);
    });
  }
  document.querySelectorAll("#melds .meld.appear").forEach((el) => {
    el.animate([{ transform: "scale(.6)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 350, easing: "ease-out" });
  });
}

// ---------------------------------------------------------------- your turn
const ICON = (/** @type {string} */ colour, /** @type {boolean} */ mark) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="10" y="4" width="40" height="54" rx="6" fill="#fff" stroke="#123" stroke-width="4"/><text x="30" y="42" font-size="30" text-anchor="middle" fill="#c00">♥</text>${mark ? `<circle cx="50" cy="14" r="12" fill="${colour}"/>` : ""}</svg>`);
export function showTurn() {
  const s = current(), v = s.view;
  const mine = s.seat !== null && !v.game_over && !s.waiting && v.actor === s.seat;
  document.title = (mine ? "● Your turn — " : "") + "Hand and Foot";
  const link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel='icon']"));
  if (link) link.href = mine ? ICON("#e60", true) : "/static/favicon.svg";
  if (noteTurn(mine) && soundOn()) chime();
}
/** @type {AudioContext | undefined} */
let audio;
function chime() {
  try {
    const ctx = audio || (audio = new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)());
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660; g.gain.setValueAtTime(0.15, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    o.connect(g); g.connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.4);
  } catch (e) { /* no sound on this browser: the title still says it */ }
}

// ---------------------------------------------------------------- end of a hand
/** @param {import("./state.js").HandResult} h */
function wentOutText(h) {
  if (h.ended_by === "out" && h.went_out !== null) return `${seatLabel(h.went_out)} went out`;
  return h.ended_by === "time" ? "time was called" : "the stock ran out";
}
export function renderEndOfHand() {
  const s = current(), v = s.view, box = $("#end-of-hand"), h = s.last_hand;
  const seen = Number(localStorage.getItem("hf-seen-" + s.table) || 0);
  const show = h && (s.waiting || v.game_over || (s.seat === null ? false : h.number > seen));
  document.body.classList.toggle("hand-over", Boolean(show));
  if (!show) { box.hidden = true; return; }
  box.hidden = false;
  const me = s.seat, mineTeam = myTeamIndex();
  const title = v.game_over ? `Game over — ${v.winners.map(teamPeople).join(" and ")} won`
    : `Hand ${h.number} is over: ${wentOutText(h)}`;
  const teams = [...h.teams].sort((a, b) => Number(b.team === mineTeam) - Number(a.team === mineTeam));
  const finals = s.final_melds || [];
  let body = teams.map((t) => `<div class="score-team ${t.team === mineTeam && me !== null ? "mine" : ""}">
      <h3>${t.team === mineTeam && me !== null ? "Your team" : "Team " + (t.team + 1)}: <b>${t.total}</b> this hand <span class="team-people">(${esc(teamPeople(t.team))})</span></h3>
      <table class="lines">${t.lines.map((l) => `<tr><td>${esc(l[0])}</td><td>${l[1]}</td></tr>`).join("")}</table>
      <div class="final-melds">${(finals[t.team] || []).map((m) => `<span class="final-meld ${m.complete ? "book" : ""}">${esc(m.label)} ×${m.cards.length}${m.complete ? " ✓" : ""}</span>`).join(" ") || "<i>no melds</i>"}</div>
    </div>`).join("");
  const totals = `<p class="totals-line">Totals: ${v.totals.map((t, i) => `${i === mineTeam && me !== null ? "your team" : "team " + (i + 1)} ${t}`).join(", ")}</p>`;
  let foot = "";
  if (v.game_over) {
    foot = `<a href="/?replay=${s.table}">Replay the game</a> · <a href="/api/tables/${s.table}/record" download>Download the record</a> <span class="fair"></span>`;
  } else if (s.waiting) {  // the "Next hand" button is with the other buttons, at the bottom
    const waiting = s.waiting;
    const others = waiting.people.filter((p) => p !== me && !waiting.ready.includes(p));
    foot = others.length ? `<p class="waiting">Waiting for ${others.map(seatLabel).join(", ")} to press Next hand.</p>` : "";
  }
  box.innerHTML = `<h2 id="end-title">${esc(title)}</h2><div class="score-teams">${body}</div>${totals}${foot}`;
  if (v.game_over) showFair(s.table, box.querySelector(".fair"));
}

// ---------------------------------------------------------------- help at the table
/** "This table's rules" in words. @param {string[] | undefined} lines */
export function renderRulesWords(lines) {
  $("#rules-words").innerHTML = lines && lines.length ? `<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : "";
}
/** @param {{seq: number, text: string}} m */
export function showHint(m) {
  if (!table.state || m.seq !== table.state.seq) return;  // about a turn that has moved on
  const el = $("#hint-line");
  el.hidden = false;
  el.textContent = "Hint: " + m.text;
}
