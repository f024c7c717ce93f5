// @ts-check
// Chat and quick reactions at the table, for the people seated at it. Every line is
// shown as text (textContent), never as HTML. Told every message from the server.
import { $ } from "./common.js";
import { send } from "./socket.js";
import { table } from "./state.js";
import { markView, showView } from "./table.js";

/** @typedef {{id: number, seat: number, kind: string, text: string, at?: string}} ChatLine */
/** @type {{lines: ChatLine[], on: boolean, reactions: string[], built: boolean, unread: number, names: string}} */
const chat = { lines: [], on: false, reactions: [], built: false, unread: 0, names: "" };
/** @param {number} seat */
function who(seat) {
  const s = table.state;
  if (!s) return `Seat ${seat + 1}`;
  if (seat === s.seat) return "You";
  const info = /** @type {Partial<import("./state.js").Seat>} */ (s.seats[seat] || {});
  return info.name && info.name !== "You" ? info.name : `Seat ${seat + 1}`;
}
function build() {
  if (chat.built) return;
  chat.built = true;
  // in the side column beside the move log, above the hand and its buttons (kept at the bottom)
  ($("#side") || $("#table")).insertAdjacentHTML("beforeend", `<section id="chat" class="chat" aria-labelledby="chat-title">
    <h2 id="chat-title">Chat at the table <span id="chat-unread" class="unread"></span></h2>
    <div id="chat-lines" class="chat-lines" role="log" aria-live="polite" aria-label="Messages" tabindex="0"></div>
    <div id="chat-reactions" class="chat-reactions" role="group" aria-label="Quick reactions"></div>
    <form id="chat-form" class="chat-form" autocomplete="off">
      <label for="chat-text" class="visually-hidden">Your message</label>
      <input id="chat-text" maxlength="200" placeholder="Say something to the table">
      <button type="submit">Send</button>
    </form>
    <p id="chat-off" class="hint" hidden>Chat is off at this event's tables.</p>
  </section>`);
  $("#chat-form").addEventListener("submit", (/** @type {Event} */ e) => {
    e.preventDefault();
    const text = $("#chat-text").value.trim();
    if (!text) return;
    send({ type: "chat", text });
    $("#chat-text").value = "";
  });
  $("#chat").addEventListener("focusin", markRead);
  $("#views").addEventListener("click", () => { if ($("#table-body").dataset.view === "chat") markRead(); });
  $("#chat-notice").addEventListener("click", () => {
    showView("chat");
    $("#chat").scrollIntoView({ block: "nearest" });
    $("#chat-text").focus();
    markRead();
  });
}
function markRead() {
  chat.unread = 0;
  $("#chat-unread").textContent = "";
  $("#chat-notice").hidden = true;
  $('#views button[data-view="chat"] .badge')?.remove();
}
/** Whether the chat's lines are on the screen now (on a phone: its part shown; beside the
 * board: not scrolled away). */
function chatInSight() {
  const box = $("#chat-lines"), r = box.getBoundingClientRect();
  if (!box.offsetParent || !r.height) return false;
  const side = $("#side").getBoundingClientRect();
  return r.bottom > Math.max(0, side.top) && r.top < Math.min(innerHeight, side.bottom);
}
function drawReactions() {
  const box = $("#chat-reactions");
  box.textContent = "";
  for (const r of chat.reactions) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "reaction"; b.textContent = r;
    b.setAttribute("aria-label", "Send " + r);
    b.addEventListener("click", () => send({ type: "chat", reaction: r }));
    box.appendChild(b);
  }
}
/** @param {ChatLine} line */
function addLine(line) {
  const li = document.createElement("p");
  li.className = "chat-line" + (line.kind === "reaction" ? " reaction-line" : "") + (table.state && line.seat === table.state.seat ? " mine" : "");
  const name = document.createElement("b");
  name.textContent = who(line.seat) + ": ";
  const text = document.createElement("span");
  text.textContent = line.text;  // text only: whatever was typed is never markup
  li.append(name, text);
  $("#chat-lines").appendChild(li);
}
/** @param {{on: boolean, lines?: ChatLine[], reactions?: string[]}} m */
function onChat(m) {
  build();
  chat.on = m.on;
  if (m.reactions) { chat.reactions = m.reactions; drawReactions(); }
  $("#chat-off").hidden = m.on;
  $("#chat-form").hidden = $("#chat-reactions").hidden = !m.on;
  const known = new Set(chat.lines.map((l) => l.id));
  const fresh = (m.lines || []).filter((l) => !known.has(l.id));
  for (const l of fresh) { chat.lines.push(l); addLine(l); }
  const box = $("#chat-lines");
  while (box.children.length > 100) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
  const theirs = fresh.filter((l) => !table.state || l.seat !== table.state.seat).length;
  if (theirs && !m.reactions && !$("#chat").contains(document.activeElement)) {
    chat.unread += theirs;
    $("#chat-unread").textContent = `(${chat.unread} new)`;
    // where the person is looking: a notice at the top, and a mark on the Chat button
    if (!chatInSight()) {
      const last = fresh[fresh.length - 1];
      $("#chat-notice").textContent = `${chat.unread === 1 ? "New message" : chat.unread + " new messages"} — ${who(last.seat)}: ${last.text}`;
      $("#chat-notice").hidden = false;
    }
    markView("chat", String(chat.unread));
  }
}
/** A message from the server. @param {any} m */
export function receive(m) {
  if (m.type === "chat") onChat(m);
  else if (m.type === "state" && chat.built) {
    const names = m.seats.map((/** @type {any} */ x) => x.name).join("\u0000") + m.seat;
    if (names === chat.names) return;
    chat.names = names;  // the names lines are shown with changed: drawn again
    $("#chat-lines").textContent = "";
    for (const l of chat.lines.slice(-100)) addLine(l);
  }
}
