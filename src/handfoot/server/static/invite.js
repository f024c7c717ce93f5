// @ts-check
// Inviting people: each person's seat with its link, a Copy button, a message ready to
// send (the phone's share sheet where there is one), a new link for a seat, and who has
// joined. The host's browser keeps the creator token of each table it set up; the
// server checks it and gives the links again after a reload.
import { $$, api, esc } from "./common.js";

const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]", "::1"];
/** Whether a link leads to "this computer" only (on anyone else's it leads nowhere).
 * @param {string} url */
function isLocalLink(url) {
  try {
    const host = new URL(url, location.href).hostname;
    return LOCAL_HOSTS.includes(host) || host.startsWith("127.");
  } catch (e) { return false; }
}
/** The creator token this browser keeps for table `id`, if it set it up. @param {string} id */
export function creatorOf(id) { return localStorage.getItem("hf-creator-" + id); }
/** @returns {string[]} */
export function hostedTables() {
  try { return JSON.parse(localStorage.getItem("hf-hosted") || "[]").filter((id) => creatorOf(id)); }
  catch (e) { return []; }
}
/** @param {string} id @param {string} creator */
export function rememberHosted(id, creator) {
  localStorage.setItem("hf-creator-" + id, creator);
  const ids = [id, ...hostedTables().filter((x) => x !== id)].slice(0, 20);
  localStorage.setItem("hf-hosted", JSON.stringify(ids));
}
/** @param {string} id */
export function forgetHosted(id) {
  localStorage.removeItem("hf-creator-" + id);
  localStorage.setItem("hf-hosted", JSON.stringify(hostedTables().filter((x) => x !== id)));
}
/** @param {string} id @param {string} what @param {object} [body] */
export function hostApi(id, what, body = {}) {
  return api(`/api/tables/${encodeURIComponent(id)}/${what}`, { ...body, creator: creatorOf(id) });
}

/** @param {string} text @param {HTMLElement} [button] shows whether it worked */
export async function copyText(text, button) {
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); done = true; }
  } catch (e) { done = false; }
  if (!done) {  // a page not served over https (a friend's address): the old way
    const t = document.createElement("textarea");
    t.value = text; t.setAttribute("readonly", ""); t.style.position = "fixed"; t.style.opacity = "0";
    document.body.appendChild(t); t.select();
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    t.remove();
  }
  if (button) {
    const label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    button.textContent = done ? "Copied ✓" : "Select the text and copy it";
    setTimeout(() => { button.textContent = label; }, 2500);
  }
  return done;
}

/** @param {any} s */
function inviteSeatTitle(s) { return `${s.name ? s.name + " — " : ""}seat ${s.seat + 1}, team ${s.team + 1}`; }
/** @param {any} s @param {string} rules */
function inviteMessage(s, rules) {
  return `Come and play Hand and Foot with us${s.name ? ", " + s.name : ""}! ` +
    `Your place is seat ${s.seat + 1} (team ${s.team + 1}), rules: ${rules}. ` +
    `Open this link on your phone or computer when you are ready:\n${s.url}\n` +
    `The link is your own seat: please do not pass it on.`;
}

// The note shown when the invite links lead to this computer's own address (the page
// was opened at localhost and the server was not given the address people use: with
// --public-url, or opened at the address friends use, the links are theirs to open).
/** @param {any} h */
function localNote(h) {
  const link = h.seats.map((/** @type {any} */ s) => s.url).find(Boolean);
  if (!link || !isLocalLink(link)) return "";
  const port = location.port || "8000";
  return `<div class="local-note" role="note"><p><b>Friends cannot open these links.</b>
    <code>${esc(location.host)}</code> means "this computer": on anyone else's phone or
    computer it leads nowhere. To invite them, start the server so that others can reach it,
    with the address they will use:</p>
    <pre>handfoot serve --host 0.0.0.0
  --public-url http://YOUR-ADDRESS:${esc(port)}</pre>
    <p>(YOUR-ADDRESS: this computer's address on your home network, such as 192.168.1.20,
    or its name on the internet; <code>bash run.sh</code> takes the same options.) Then open
    that address here and set up the table again.</p></div>`;
}

// The invite panel of one table, drawn into `box` from the server's answer to /host.
/** @param {any} h */
function hostKey(h) { return JSON.stringify([h.waiting, h.over, h.removable, h.seats.map((s) => [s.joined, s.connected, s.computer, s.url, s.in_use])]); }
/** @typedef {{heading?: boolean, changed?: () => void}} InviteOptions */
/** @param {HTMLElement} box @param {string} id @param {InviteOptions} [opts] @param {any} [known] */
export async function drawInvites(box, id, opts = {}, known = null) {
  let h = known;
  if (!h) {
    try { h = await hostApi(id, "host"); }
    catch (e) { box.innerHTML = `<p class="error">${esc(e.message)}</p>`; return null; }
  }
  box.dataset.key = hostKey(h);
  const people = h.seats.filter((s) => s.kind === "human");
  const waitingFor = people.filter((s) => !s.joined && !s.computer);
  const state = h.over ? "The game is over." : h.waiting
    ? (waitingFor.length ? `The game starts when everyone has joined: waiting for ${waitingFor.map((s) => esc(s.name || "seat " + (s.seat + 1))).join(", ")}.` : "Everyone has joined.")
    : "The game has started.";
  box.innerHTML = `${opts.heading === false ? "" : `<h3>Table ${esc(id)} <span class="table-id">(${esc(h.rules)})</span></h3>`}
    ${localNote(h)}
    <p class="invite-state" aria-live="polite">${state}</p>
    <p class="hint">One link per person, like a key to their seat: send each person their own.</p>
    <ul class="invite-list">${people.map((s) => `<li class="invite" data-seat="${s.seat}">
      <div class="invite-who"><b>${esc(inviteSeatTitle(s))}</b>
        <span class="joined ${s.joined ? "yes" : ""}">${s.connected ? "at the table now" : s.joined ? "joined" : s.computer ? "a computer plays" : "not joined yet"}</span></div>
      ${s.url ? `<label class="link-label">Link for seat ${s.seat + 1}
        <input class="invite-url" readonly value="${esc(s.url)}"></label>
      <div class="invite-buttons">
        <button class="copy-link">Copy link</button>
        <button class="share-link">${navigator.share ? "Share…" : "Message to send"}</button>
        <a class="open-link button-like" href="${esc(s.url)}">Open this seat here</a>
        <button class="new-link">New link</button>
      </div>
      <div class="share-box" hidden>
        <label>Message for ${esc(s.name || "seat " + (s.seat + 1))}
          <textarea class="share-text" rows="5" readonly>${esc(inviteMessage(s, h.rules))}</textarea></label>
        <button class="copy-message">Copy message</button>
      </div>`
      : s.in_use ? `<p class="in-use">Only the person at this seat has its link.${s.connected ? "" : ' <button class="new-link">Make a new link</button>'}</p>`
      : `<p>This seat's link was made in another way. <button class="new-link">Make a new link</button></p>`}
    </li>`).join("")}</ul>
    ${h.waiting ? `<button class="start-now big">Start now — computer players take the empty seats</button>` : ""}
    ${h.removable ? `<button class="remove-table">Remove this table</button>` : ""}
    <p class="invite-error error" role="alert"></p>`;
  const error = (e) => { box.querySelector(".invite-error").textContent = e.message; };
  for (const li of $$(".invite", box)) {
    const seat = Number(li.dataset.seat), s = h.seats[seat];
    const on = (sel, fn) => { const el = li.querySelector(sel); if (el) el.addEventListener("click", (ev) => fn(ev.currentTarget)); };
    on(".copy-link", (b) => copyText(s.url, b));
    on(".copy-message", (b) => copyText(inviteMessage(s, h.rules), b));
    on(".share-link", async () => {
      if (navigator.share) {
        try { await navigator.share({ title: "Hand and Foot", text: inviteMessage(s, h.rules).replace(s.url, "").trim(), url: s.url }); return; }
        catch (e) { if (e.name === "AbortError") return; }
      }
      const b = li.querySelector(".share-box"); b.hidden = !b.hidden;
      if (!b.hidden) li.querySelector(".share-text").select();
    });
    on(".new-link", async () => {
      if (!confirm(`Make a new link for ${inviteSeatTitle(s)}? The old link stops working at once.`)) return;
      try { await hostApi(id, "invite", { seat }); await drawInvites(box, id, opts); }
      catch (e) { error(e); }
    });
  }
  const start = box.querySelector(".start-now");
  if (start) start.addEventListener("click", async () => {
    try { await hostApi(id, "start"); await drawInvites(box, id, opts); if (opts.changed) opts.changed(); }
    catch (e) { error(e); }
  });
  const remove = box.querySelector(".remove-table");
  if (remove) remove.addEventListener("click", async () => {
    if (!confirm("Remove this table? Its replay and record go with it.")) return;
    try { await hostApi(id, "remove"); forgetHosted(id); box.remove(); if (opts.changed) opts.changed(); }
    catch (e) { error(e); }
  });
  return h;
}

// Who has joined changes while the host looks: drawn again when it does (not otherwise,
// so a message being copied is left alone).
/** @param {HTMLElement} box @param {string} id @param {InviteOptions} [opts] */
export async function refreshInvites(box, id, opts = {}) {
  let h;
  try { h = await hostApi(id, "host"); } catch (e) { return; }
  const busy = (box.contains(document.activeElement) && document.activeElement.matches("input, textarea"))
    || box.querySelector(".share-box:not([hidden])");
  if (hostKey(h) !== box.dataset.key && !busy) await drawInvites(box, id, opts, h);
}
