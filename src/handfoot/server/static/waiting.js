// @ts-check
// Before the game starts: who has joined, and for the host the invites and "Start now".
// Told every message from the server, after the table.
import { $, esc } from "./common.js";
import { creatorOf, drawInvites } from "./invite.js";
import { table } from "./state.js";

let shownFor = "";
/** @returns {HTMLElement} */
function panel() {
  let el = $("#waiting-room");
  if (!el) {
    $("#table").insertAdjacentHTML("afterbegin", '<section id="waiting-room" class="panel" aria-labelledby="waiting-room-title" hidden></section>');
    el = $("#waiting-room");
  }
  return el;
}
/** @param {import("./state.js").StateMessage} s */
function draw(s) {
  const el = panel();
  if (!s.waiting_to_start) { el.hidden = true; el.innerHTML = ""; shownFor = ""; return; }
  const people = s.seats.filter((x) => x.kind === "human");
  const key = people.map((x) => `${x.joined}${x.computer}${x.connected}`).join(",");
  if (key === shownFor) return;
  shownFor = key;
  el.hidden = false;
  const host = !!creatorOf(/** @type {string} */ (table.id));
  const name = (x) => x.seat === s.seat ? "You" : (x.name || `Seat ${x.seat + 1}`);
  el.innerHTML = `<h2 id="waiting-room-title">Waiting for everyone to join</h2>
    <p>The game starts by itself when every person has opened their invite link${host ? ", or when you start it now" : "; the person who set up the table can also start it now, with computer players in the empty seats"}.</p>
    <ul class="who-joined">${people.map((x) => `<li>${esc(name(x))} (seat ${x.seat + 1}) — <b>${x.joined || x.connected ? "here ✓" : "not joined yet"}</b></li>`).join("")}</ul>
    ${host ? '<div id="waiting-room-invites"></div>' : ""}`;
  if (host) drawInvites($("#waiting-room-invites"), /** @type {string} */ (table.id), { heading: false });
}
// a link that no longer works (replaced, or the table removed): say so, not a blank page
/** @param {{message: string}} m */
function refused(m) {
  if (table.state && !$("#table").hidden) return;
  $("#table").hidden = false;
  const el = panel();
  el.hidden = false;
  el.innerHTML = `<h2 id="waiting-room-title">This link does not open a seat</h2><p class="error">${esc(m.message)}</p>
    <p>Ask the person who invited you for a new link, or <a href="/">go to the list of tables</a>.</p>`;
  // only this panel: the empty table around it would say nothing
  for (const part of $("#table").children) if (part !== el) part.style.display = "none";
}
/** A message from the server. @param {any} m */
export function receive(m) {
  if (m.type === "state") draw(m);
  else if (m.type === "error" && m.fatal) refused(m);
}
