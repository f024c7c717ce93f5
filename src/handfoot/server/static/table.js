// @ts-check
// The table: the live view of one game through its WebSocket, the prompt for each step,
// the buttons (enabled from the legal moves the server sends), the keys, selecting cards.
import { $, cardText, esc } from "./common.js";
import { showSeal } from "./fair.js";
import { send } from "./socket.js";
import {
  allowHints, askPreview, clearSelection, current, legal, legalKinds, markNewMelds, myTeamIndex, myTeamView,
  myTurn, reasons, receiveState, selectedCodes, setBookWords, setGoingOn, selectedKey, setFocus, setPreview, setSort, startAdding,
  stopAdding, table, takeMeldNumber, toggleCard, toggleMeldOpen, typeMeldDigit,
} from "./state.js";
import { renderHand, renderMelds, renderOthers, renderTop, seatLabel } from "./table-board.js";
import {
  animateArrivals, renderEndOfHand, renderLastMove, renderLog, renderRulesWords, showHint, showTurn,
} from "./table-log.js";

/** @typedef {import("./state.js").Action} Action @typedef {import("./state.js").StateMessage} StateMessage */

const KIND_LABEL = { "draw": "Draw (D)", "take-upcard": "Take the upcard (U)",
  "pick-up-foot": "Pick up foot (F)", "end-turn": "End turn (E)", "ask": "Ask to go out (Q)" };

/** A message from the server. @param {any} m */
export function receive(m) {
  if (m.type === "state") {
    const { previous, moved } = receiveState(m);
    if (moved) { $("#preview").textContent = ""; hideConfirm(); }
    render(previous);
  } else if (m.type === "error") {
    showMessage(m.message);
    if ($("#hint-line").textContent === "Thinking…") hideHint();
  }
  else if (m.type === "preview") { showPreview(m); }
  else if (m.type === "notice") { showNotice(m.message); }
  else if (m.type === "hello") { renderRulesWords(m.rules_words); allowHints(m.hint !== false); setBookWords(m.book_words); setGoingOn(m.going_on); }
  else if (m.type === "hint") { showHint(m); }
}
/** An action for the engine. @param {Action} action */
function act(action) { showMessage(""); hideHint(); hideConfirm(); send({ type: "action", action }); }
/** @param {string} text */
function showMessage(text) { $("#message").textContent = text; }
function hideHint() { $("#hint-line").hidden = true; $("#hint-line").textContent = ""; }
// the monitor's word to the table: the clock's warning, time called
/** @param {string | null | undefined} text */
function showNotice(text) { $("#notice").textContent = text || ""; $("#notice").hidden = !text; }

// a meld is put down one at a time; before the team has gone down it is laid out for the
// opening (the engine checks each one), and "Go down" asks the engine for the whole opening
/** @returns {Action} */
function meldAction() { return { type: "meld", cards: selectedCodes() }; }
// the fewest cards of any meld the engine lists now (none listed: three, as in every sheet,
// only so that the engine is asked, and says why, once a selection could look like a meld)
function smallestMeld() {
  const sizes = legal().filter((a) => a.type === "meld").map((a) => (a.cards || []).length);
  return sizes.length ? Math.min(...sizes) : 3;
}
// a preview is asked for only when the selection could be a meld: one card to discard shows none
// (any selection is asked about on the person's turn to play: the server's word says why
// each greyed button is greyed with these cards)
function requestPreview() {
  askPreview(selectedKey());
  if (table.selected.size < smallestMeld()) $("#preview").textContent = "";
  if (!myTurn() || !table.selected.size || current().view.phase !== "play") { renderActions(); return; }
  renderActions();
  send({ type: "preview", action: meldAction() });
}
/** @param {import("./state.js").Preview} p */
function showPreview(p) {
  setPreview(p);
  if (table.selected.size < smallestMeld()) { $("#preview").textContent = ""; renderActions(); return; }
  const of = Boolean(p.minimum);  // (an opening of any points has no "of")
  let t = of ? `${p.value} of ${p.minimum}` : `${p.value} points`;
  const opening = p.minimum !== null && p.minimum !== undefined;  // not gone down yet
  t += p.ok ? (opening ? " — you can lay this out" : " — you can lay this down") : ` — ${p.message}`;
  $("#preview").textContent = t;
  renderActions();
}

/** The whole table drawn from the last state (`previous`: the one before it, when a new
 * state came: what is new in it is shown arriving).
 * @param {StateMessage | null} [previous] */
export function render(previous) {
  const s = current(), v = s.view;
  $("#table").hidden = false;
  document.body.classList.add("at-table");
  const hadFocus = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand");
  const where = focusPlace();
  markNewMelds(previous);
  renderTop();
  renderOthers();
  renderMelds();
  renderHand();
  renderLog();
  renderLastMove();
  renderSheet();
  renderEndOfHand();
  renderViews(previous);
  renderActions();
  showNotice(s.notice);
  showGoneOut();
  showSeal(s);
  showTurn();
  $(".computer-toggle").hidden = s.seat === null;
  $("#computer").checked = s.seat !== null && s.seats[s.seat].computer;
  $("#status").textContent = s.seat === null ? "watching" : "";
  $("#hint").hidden = s.seat === null || table.hintAllowed === false;
  $("#hint").hidden = $("#hint").hidden || !myTurn();  // (a hint is about this person's turn)
  $("#hand-tools").hidden = s.seat === null || (v.phase === "choose" && !v.hand.length);
  document.querySelectorAll("#hand-tools .sort button").forEach((b) => b.setAttribute("aria-pressed", String(b.id === "sort-" + table.sort)));
  const cards = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand .card"));
  if (cards.length && hadFocus) cards[Math.min(table.focus, cards.length - 1)].focus();
  keepFocus(where);
  animateArrivals(previous);
}
/** Where the focus is at the table, as a selector that finds it again once the table is
 * drawn anew ("" where it is not at the table). */
function focusPlace() {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || el === document.body || !el.closest("#table")) return "";
  if (el.id) return "#" + el.id;
  const meld = /** @type {HTMLElement | null} */ (el.closest(".meld"));
  if (meld) return `.meld[data-key="${meld.dataset.key}"] ${el.classList.contains("take-back") ? ".take-back" : ".chip"}`;
  return "#dock";
}
/** The focus stays where the person was after an action: on the same control if it is
 * still there, else on the first button that can be pressed now, else on the hand.
 * @param {string} where */
function keepFocus(where) {
  const now = document.activeElement;
  if (!where || (now && now !== document.body && now.closest && now.closest("#table"))) return;
  const same = /** @type {HTMLElement | null} */ (document.querySelector(where));
  const next = same && !(/** @type {any} */ (same).disabled) && same.offsetParent ? same
    : /** @type {HTMLElement | null} */ (document.querySelector("#actions button:not(:disabled)") ||
      document.querySelector('#hand .card[tabindex="0"]') || document.querySelector("#dock"));
  if (next) next.focus({ preventScroll: true });
}

/** Where going out does not end the hand: who went out, that the hand goes on, and why. */
function showGoneOut() {
  const s = current(), v = s.view, box = $("#banner"), who = s.went_out;
  const on = who !== null && who !== undefined && v.phase !== "over" && !s.waiting && !v.game_over;
  box.hidden = !on;
  if (!on) { box.innerHTML = ""; return; }
  const name = seatLabel(who);
  const key = `${v.hand_number}-${who}`;
  if (box.dataset.key === key) return;  // (drawn once: an open "Why?" stays open)
  box.dataset.key = key;
  box.innerHTML = `<p class="gone-out"><b>${esc(name)} went out.</b> The hand goes on until the stock has been drawn.</p>` +
    (table.goingOn ? `<details><summary>Why?</summary><p>${esc(table.goingOn)}</p></details>` : "");
}

// ------------------------------------------------ the board's parts, one at a time on a phone
/** @param {string} view "us", "them", "moves" or "chat" */
export function showView(view) {
  const body = $("#table-body");
  body.dataset.view = view;
  for (const b of document.querySelectorAll("#views button")) {
    b.setAttribute("aria-pressed", String(b.dataset.view === view));
    if (b.dataset.view === view) b.querySelector(".badge")?.remove();
  }
}
/** @param {string} view @param {string} text a mark on a part not shown (a number, or "new": a dot) */
export function markView(view, text) {
  const b = $(`#views button[data-view="${view}"]`);
  if (!b || $("#table-body").dataset.view === view) return;
  let badge = b.querySelector(".badge");
  if (!badge) { badge = document.createElement("span"); badge.className = "badge"; b.appendChild(badge); }
  badge.classList.toggle("dot", text === "new");
  badge.innerHTML = text === "new" ? '<span class="sr-only">new</span>' : `${esc(text)}<span class="sr-only"> new</span>`;
}
/** The buttons' words (a spectator's: the teams' numbers); a hand over shows its score;
 * what the other teams laid while their part was not shown is marked.
 * @param {StateMessage | null | undefined} previous */
function renderViews(previous) {
  const s = current();
  $('#views button[data-view="us"]').firstChild.textContent = s.seat === null ? "Team 1" : "Your team";
  $('#views button[data-view="them"]').firstChild.textContent = s.seat === null ? "Other teams" : "Opponents";
  $('#views button[data-view="chat"]').hidden = !$("#chat");
  if (!$("#end-of-hand").hidden && !(previous && previous.last_hand?.number === s.last_hand?.number)) {
    showView("us");
    $("#board").scrollTop = 0;  // the hand's end from its title
  }
  const mine = myTeamIndex();
  const theirs = [...table.newMelds].some((k) => Number(k.split("-")[0]) !== mine);
  const grew = previous && previous.view.hand_number === s.view.hand_number && s.view.teams.some((t, i) =>
    t.team !== mine && t.melds.reduce((n, m) => n + m.cards.length, 0) !== previous.view.teams[i].melds.reduce((n, m) => n + m.cards.length, 0));
  if (theirs || grew) markView("them", "new");
}

// ---------------------------------------------------------------- prompt and buttons
/** Words joined as a person says them: "a, b or c". @param {string[]} parts */
function orList(parts) { return parts.length < 2 ? parts.join("") : parts.slice(0, -1).join(", ") + (parts.length > 2 ? "," : "") + " or " + parts[parts.length - 1]; }
/** @param {string} t */
const sentence = (t) => t ? t[0].toUpperCase() + t.slice(1) + "." : "";
// the prompt names only what the engine allows now (what it does not: greyed, with why)
function promptText() {
  const s = current(), v = s.view, kinds = legalKinds(), sel = selectedCodes();
  if (s.seat === null) return v.game_over ? "The game is over." : `You are watching. ${seatLabel(v.actor)} to play.`;
  if (v.game_over) return "The game is over.";
  if (s.waiting && s.waiting.ready.includes(s.seat)) return "Waiting for the others to press Next hand…";
  if (s.waiting) return "Look over the hand, then press Next hand when you are ready.";
  if (!myTurn()) {
    if (v.phase === "ask" && v.actor !== s.seat) return `Waiting for ${seatLabel(v.actor).replace(/^Your/, "your")} to answer…`;
    return v.phase === "choose" ? "Waiting for the others to choose their hands…" : `Waiting for ${seatLabel(v.actor).replace(/^Your/, "your")} to play…`;
  }
  if (kinds.has("choose-hand")) return "Choose which stack to take as your hand.";
  if (kinds.has("answer")) return "Your partner asks to go out. May they?";
  if (kinds.has("pick-up-foot") && !v.hand.length) return "Your hand is played out: pick up your foot.";
  if (v.phase === "draw") {
    if (!v.hand.length && s.went_out === s.seat && kinds.has("draw")) return "You went out; the hand goes on: draw from the stock to play on.";
    return sentence(orList([kinds.has("draw") ? "draw from the stock" : "", kinds.has("take-pile") ? "take the pile" : "",
      kinds.has("take-upcard") ? "take the upcard" : "", kinds.has("pick-up-foot") ? "pick up your foot" : "",
      kinds.has("take-back") ? "take back the melds you laid out" : ""].filter(Boolean)));
  }
  const team = myTeamView(), lay = team.opened ? "lay down" : "lay out";
  const discardOk = (/** @type {string} */ c) => legal().some((a) => a.type === "discard" && a.card === c);
  const addOk = legal().some((a) => a.type === "add" && (a.cards || []).every((c) => sel.includes(c)) && (a.cards || []).length === sel.length);
  if (sel.length === 1) {
    const c = cardText(sel[0]);
    if (discardOk(sel[0])) return `Discard ${c} to end your turn, or ${addOk ? "add it to a meld" : "select more cards to meld"}.`;
    return addOk ? `Add ${c} to a meld, or select more cards.` : `Select more cards to meld with ${c}.`;
  }
  if (sel.length > 1) {
    const layOk = table.preview && table.preview.ok && table.previewKey === selectedKey();
    const can = [layOk ? `${lay} these cards` : "", addOk ? "add them to a meld" : ""].filter(Boolean);
    return can.length ? sentence(orList(can)) : "These cards cannot go down together (why: under the buttons). Select others.";
  }
  const opening = team.opened || !team.melds.length ? "" : team.minimum ? ` Your opening so far: ${team.laid_out_points} of ${team.minimum} points.`
    : team.melds.length ? ` Your opening so far: ${team.laid_out_points} points (any points open).` : "";
  const can = [kinds.has("go-down") ? "go down with the melds you laid out" : "",
    kinds.has("meld") ? (team.opened ? "lay down melds" : "lay out melds") : "", kinds.has("add") ? "add to your melds" : "",
    kinds.has("take-back") ? "take back a meld" : "", kinds.has("discard") ? "choose a card to discard" : "",
    kinds.has("pick-up-foot") ? "pick up your foot" : "", kinds.has("ask") ? "ask to go out" : "",
    kinds.has("end-turn") ? "end your turn" : ""].filter(Boolean);
  return sentence(orList(can)) + opening;
}
/** @param {string} id @param {string} label @param {boolean} enabled @param {() => void} fn */
function button(id, label, enabled, fn) { return { id, label, enabled, fn }; }
function renderActions() {
  const s = current(), v = s.view, kinds = legalKinds(), mine = myTurn();
  const warning = mine ? myTeamView()?.short_warning : null;  // an opening shown short costs points
  $("#prompt").textContent = promptText() + (warning ? ` ${warning}` : "");
  const sel = selectedCodes();
  const btns = [];
  if (mine && v.phase === "draw") {
    btns.push(button("draw", KIND_LABEL.draw, kinds.has("draw"), () => act({ type: "draw" })));
    if (kinds.has("take-upcard")) btns.push(button("upcard", KIND_LABEL["take-upcard"], true, () => act({ type: "take-upcard" })));
    btns.push(button("pile", "Take pile (P)", kinds.has("take-pile"), takePile));
  }
  // (the two stacks have their own buttons, beside their face-up cards)
  if (s.seat !== null && !v.game_over && s.last_hand && $("#end-of-hand") && !$("#end-of-hand").hidden) {
    const waiting = s.waiting, seen = Number(localStorage.getItem("hf-seen-" + s.table) || 0);
    const pressed = waiting ? waiting.ready.includes(s.seat) : s.last_hand.number <= seen;
    if (!pressed) btns.push(button("next-hand", "Next hand (N)", true, nextHand));
  }
  if (mine && v.phase === "play") {
    const team = myTeamView(), down = team.opened;
    const layOk = sel.length > 0 && table.preview && table.preview.ok && table.previewKey === selectedKey();
    // the buttons of a turn stay in their places, enabled when the engine allows them
    btns.push(button("lay", down ? "Lay down (L)" : "Lay out (L)", Boolean(layOk), () => act(meldAction())));
    if (kinds.has("go-down") || (!down && team.melds.length)) btns.push(button("go-down", "Go down (O)", kinds.has("go-down"), () => act({ type: "go-down" })));
    const addOk = legal().some((a) => a.type === "add" && (a.cards || []).every((c) => sel.includes(c)));
    btns.push(button("add", "Add to meld (A)", addOk, () => { startAdding(); showMessage(""); $("#prompt").textContent = "Tap one of your team's melds (or type its number)."; }));
    const discardOk = sel.length === 1 && legal().some((a) => a.type === "discard" && a.card === sel[0]);
    btns.push(button("discard", "Discard (X)", discardOk, () => act({ type: "discard", card: sel[0] })));
    // where the table's rules allow it, the last play of this turn taken back (the engine
    // lists this turn's plays the last first)
    const undo = down ? legal().find((a) => a.type === "take-back") : undefined;
    if (undo) btns.push(button("undo", "Take back (B)", true, () => act(undo)));
  }
  if (kinds.has("pick-up-foot")) btns.push(button("foot", KIND_LABEL["pick-up-foot"], true, () => act({ type: "pick-up-foot" })));
  if (kinds.has("end-turn")) btns.push(button("end", KIND_LABEL["end-turn"], true, () => act({ type: "end-turn" })));
  if (kinds.has("ask")) btns.push(button("ask", KIND_LABEL.ask, true, () => act({ type: "ask" })));
  if (kinds.has("answer")) {
    btns.push(button("yes", "Yes, go out (Y)", true, () => act({ type: "answer", yes: true })));
    btns.push(button("no", "No, not yet (N)", true, () => act({ type: "answer", yes: false })));
  }
  drawButtons(btns);
  if (!kinds.has("take-pile")) $("#pile-options").innerHTML = "";
}
/** The buttons, and under them why each greyed one is greyed (the engine's words, from the
 * server), each button described by its reason.
 * @param {{id: string, label: string, enabled: boolean, fn: () => void}[]} btns */
function drawButtons(btns) {
  const box = $("#actions"), why = reasons();
  const focused = document.activeElement && document.activeElement.id;
  box.innerHTML = "";
  /** @type {Map<string, {ids: string[], names: string[]}>} the buttons greyed for each reason */
  const lines = new Map();
  for (const b of btns) {
    const el = document.createElement("button");
    el.id = "act-" + b.id; el.disabled = !b.enabled;
    // the key in brackets is left out on a phone ("Discard (X)" reads "Discard")
    const key = b.label.match(/^(.*?)( \([A-Z]\))$/);
    if (key) { el.textContent = key[1]; el.insertAdjacentHTML("beforeend", `<span class="key">${key[2]}</span>`); }
    else el.textContent = b.label;
    const reason = why[b.id === "pile" ? "pile" : b.id];
    if (!b.enabled && reason) {
      const line = lines.get(reason) || { ids: [], names: [] };
      line.ids.push(b.id); line.names.push(key ? key[1] : b.label);
      lines.set(reason, line);
    }
    el.addEventListener("click", b.fn);
    box.appendChild(el);
  }
  // one line for each reason, naming the buttons it greys ("Lay out, Discard: Select cards first.")
  $("#why-not").innerHTML = [...lines].map(([reason, line]) =>
    `<li id="why-${line.ids[0]}"><b>${esc(line.names.join(", "))}:</b> ${esc(reason)}</li>`).join("");
  for (const [, line] of lines) for (const id of line.ids) $("#act-" + id).setAttribute("aria-describedby", "why-" + line.ids[0]);
  if (focused && focused.startsWith("act-") && $("#" + focused)) $("#" + focused).focus();
  box.hidden = !btns.length;
}
/** A card of the hand tapped: selected, or no longer. @param {number} i */
function toggle(i) {
  toggleCard(i);
  hideConfirm();
  showMessage(""); // an old refusal is about another selection
  renderHand(); requestPreview(); renderActions();
  const el = /** @type {HTMLElement | null} */ (document.querySelector(`#hand .card[data-pos="${table.focus}"]`));
  if (el && document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand")) el.focus();
}
/** The selected cards added to the team's meld `meld`. @param {number} meld */
export function addTo(meld) {
  const cards = selectedCodes();
  if (!cards.length) { showMessage("Select the cards to add first."); return; }
  stopAdding();
  act({ type: "add", meld, cards });
}
function takePile() {
  const opts = legal().filter((a) => a.type === "take-pile");
  const sel = selectedCodes().sort().join(" ");
  const match = opts.filter((a) => (a.shown || []).slice().sort().join(" ") === sel && !(a.opening || []).length);
  if (match.length === 1 || (match.length && !sel)) { act(match[0]); return; }
  if (opts.length === 1) { act(opts[0]); return; }
  const box = $("#pile-options");
  box.innerHTML = "<p>Take the pile how?</p>";
  opts.slice(0, 40).forEach((a) => {
    const el = document.createElement("button");
    el.textContent = "Show " + (a.shown || []).map(cardText).join(" ") + (a.count ? ` take ${a.count}` : "") +
      ((a.opening || []).length ? " + open with " + (a.opening || []).map((m) => m.map(cardText).join(" ")).join(" | ") : "");
    el.addEventListener("click", () => act(a));
    box.appendChild(el);
  });
}
function renderSheet() {
  const s = current(), v = s.view;
  const teams = v.teams.length;
  let html = `<table class="sheet"><tr><th>Hand</th>${v.teams.map((t) => `<th>Team ${t.team + 1}</th>`).join("")}</tr>`;
  v.hand_scores.forEach((row, i) => { html += `<tr><td>${i + 1}</td>${row.map((x) => `<td>${x}</td>`).join("")}</tr>`; });
  html += `<tr><th>Total</th>${v.totals.slice(0, teams).map((x) => `<th>${x}</th>`).join("")}</tr></table>`;
  if (s.last_hand) {
    html += `<p>Hand ${s.last_hand.number}, item by item:</p>` + s.last_hand.teams.map((t) =>
      `<p><b>Team ${t.team + 1}: ${t.total}</b> — ${t.lines.map((l) => esc(l[0]) + ": " + l[1]).join(", ")}</p>`).join("");
  }
  $("#sheet").innerHTML = html;
}
/** The next hand: this person has seen the last one's score. */
function nextHand() {
  const s = current();
  localStorage.setItem("hf-seen-" + s.table, String(s.last_hand?.number));
  send({ type: "next-hand" });
  if (!s.waiting) render();
}
// a tap on a meld adds the selected cards to it (where the engine lists an add), else opens it
/** @param {HTMLElement} el */
function meldTapped(el) {
  if (el.classList.contains("target") && table.selected.size) {
    // chosen with Add to meld: added; a tap straight on a meld asks first (a tap meant to
    // open the meld adds nothing by mistake)
    if (table.addMode) addTo(Number(el.dataset.meld)); else confirmAdd(Number(el.dataset.meld));
    return;
  }
  const open = toggleMeldOpen(/** @type {string} */ (el.dataset.key));
  el.classList.toggle("open");
  /** @type {HTMLElement} */ (el.querySelector(".chip")).setAttribute("aria-expanded", String(open));
}
/** "Add these cards to this meld?", with Add and Not now. @param {number} meld */
function confirmAdd(meld) {
  const m = myTeamView().melds[meld], cards = selectedCodes(), box = $("#confirm");
  box.innerHTML = `<p>Add ${esc(cards.map(cardText).join(" "))} to meld ${meld + 1} (${esc(m ? m.label : "")})?</p>`;
  const yes = document.createElement("button"), no = document.createElement("button");
  yes.id = "confirm-add"; yes.textContent = "Add"; yes.addEventListener("click", () => { hideConfirm(); addTo(meld); });
  no.id = "confirm-no"; no.textContent = "Not now"; no.addEventListener("click", hideConfirm);
  box.append(yes, no);
  box.hidden = false;
  yes.focus({ preventScroll: true });
}
function hideConfirm() { $("#confirm").hidden = true; $("#confirm").innerHTML = ""; }
/** @param {KeyboardEvent} e */
function onKey(e) {
  const target = /** @type {HTMLElement} */ (e.target);
  if ($("#table").hidden || !table.state || target.matches("input, textarea, select")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  const cards = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("#hand .card")]);
  const click = (/** @type {string} */ id) => { const b = $("#act-" + id); if (b && !b.disabled) b.click(); };
  if (table.addMode && /^[0-9]$/.test(k)) {
    // the meld's number; a second digit where the team has ten melds or more (or Enter)
    if (myTeamView().melds.length < typeMeldDigit(Number(k)) * 10) addTo(takeMeldNumber() - 1);
    e.preventDefault(); return;
  }
  if (table.addMode && k === "enter" && table.addNum) { addTo(takeMeldNumber() - 1); e.preventDefault(); return; }
  if (k === "arrowright" || k === "arrowleft") {
    if (!cards.length) return;
    const at = /** @type {HTMLElement | null} */ (document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .card"));
    const from = at ? Number(at.dataset.pos) : table.focus;
    setFocus(Math.max(0, Math.min(cards.length - 1, from + (k === "arrowright" ? 1 : -1))));
    cards.forEach((c, n) => c.setAttribute("tabindex", n === table.focus ? "0" : "-1"));
    cards[table.focus].focus(); e.preventDefault();
  } else if (k === " " || k === "enter") {
    const el = /** @type {HTMLElement | null} */ (document.activeElement);
    if (el && el.dataset && el.dataset.i !== undefined && el.closest("#hand")) { toggle(Number(el.dataset.i)); e.preventDefault(); }
  } else if (k === "escape") { hideConfirm(); clearSelection(); showMessage(""); hideHint(); $("#pile-options").innerHTML = ""; renderHand(); requestPreview(); }
  else if (k === "h" && !$("#hint").hidden) { $("#hint").click(); e.preventDefault(); }
  else if (k === "n" && $("#act-next-hand")) { $("#act-next-hand").click(); e.preventDefault(); }
  else {
    if (k === "b") {  // take back this turn's last play, or the last meld laid out
      const backs = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("#act-undo, #melds button.take-back")]);
      if (backs.length) { (backs[0].id === "act-undo" ? backs[0] : backs[backs.length - 1]).click(); e.preventDefault(); }
      return;
    }
    const map = /** @type {Record<string, string>} */ ({ d: "draw", p: "pile", u: "upcard", l: "lay", g: "lay", m: "lay", o: "go-down", a: "add", x: "discard", f: "foot", e: "end", q: "ask", y: "yes", n: "no", 1: "choose-1", 2: "choose-2" });
    if (map[k]) { click(map[k]); e.preventDefault(); }
  }
}
/** @param {"rank" | "suit"} how */
function sortBy(how) { setSort(how); render(); }

/** The table's buttons, keys and taps (on what table-board.js draws). */
export function setUpTable() {
  $("#sort-rank").addEventListener("click", () => sortBy("rank"));
  $("#sort-suit").addEventListener("click", () => sortBy("suit"));
  $("#hint").addEventListener("click", () => { $("#hint-line").hidden = false; $("#hint-line").textContent = "Thinking…"; send({ type: "hint" }); });
  document.addEventListener("keydown", onKey);
  $("#views").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest("button[data-view]"));
    if (b) showView(/** @type {string} */ (b.dataset.view));
  });
  $("#computer").addEventListener("change", (/** @type {any} */ e) => send({ type: "computer", on: e.target.checked }));
  // the hand: a card tapped (not the click that ends a drag), a card with the focus;
  // while hands are chosen, the two stacks
  $("#hand").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const stack = /** @type {HTMLButtonElement | null} */ (target.closest("button.take-stack"));
    if (stack) { act({ type: "choose-hand", stack: Number(stack.dataset.stack) }); return; }
    const card = /** @type {HTMLElement | null} */ (target.closest(".card[data-i]"));
    if (card && !table.dragged) toggle(Number(card.dataset.i));
  });
  $("#hand").addEventListener("focusin", (/** @type {FocusEvent} */ e) => {
    const card = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest(".card[data-pos]"));
    if (card) setFocus(Number(card.dataset.pos));
  });
  $("#melds").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const back = /** @type {HTMLElement | null} */ (target.closest("button.take-back"));
    if (back) { act({ type: "take-back", meld: Number(back.dataset.meld) }); return; }
    const meld = /** @type {HTMLElement | null} */ (target.closest(".meld"));
    if (meld) meldTapped(meld);
  });
  // "Away": the host hands an absent person's seat to a computer player
  $("#others").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const away = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest("button.away"));
    if (away) send({ type: "computer", seat: Number(away.dataset.seat), on: true, creator: localStorage.getItem("hf-creator-" + table.id) });
  });
}
