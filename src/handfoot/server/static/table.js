"use strict";
// The table: the live view of one game through its WebSocket, the prompt for each step,
// the buttons (enabled from the legal moves the server sends), the keys, selecting cards.
// ------------------------------------------------------------------- table
Object.assign(hf, { openMelds: new Set(), newMelds: new Set(), order: [], ownOrder: [],
  sort: localStorage.getItem("hf-sort") || "rank", preview: null, previewKey: "" });
function connect() {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${hf.table}` + (hf.token ? `?token=${encodeURIComponent(hf.token)}` : "");
  const ws = new WebSocket(url);
  hf.ws = ws;
  ws.onopen = () => { $("#status").textContent = hf.token ? "" : "watching"; };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { const previous = hf.state; hf.state = m; render(previous); }
    else if (m.type === "error") {
      showMessage(m.message); if (m.fatal) hf.fatal = true;
      if ($("#hint-line").textContent === "Thinking…") hideHint();
    }
    else if (m.type === "preview") { showPreview(m); }
    else if (m.type === "notice") { showNotice(m.message); }
    else if (m.type === "hello") { renderRulesWords(m.rules_words); hf.hintAllowed = m.hint !== false; }
    else if (m.type === "hint") { showHint(m); }
    for (const hook of hf.hooks || []) hook(m);  // waiting room, chat (their own scripts)
  };
  ws.onclose = () => {
    if (hf.fatal) return;
    $("#status").textContent = "reconnecting…";
    setTimeout(connect, 1000);
  };
}
function send(msg) { if (hf.ws && hf.ws.readyState === 1) hf.ws.send(JSON.stringify(msg)); }
function act(action) { showMessage(""); hideHint(); send({ type: "action", action }); }
function showMessage(text) { $("#message").textContent = text; }
function hideHint() { $("#hint-line").hidden = true; $("#hint-line").textContent = ""; }
// the monitor's word to the table: the clock's warning, time called
function showNotice(text) { $("#notice").textContent = text || ""; $("#notice").hidden = !text; }
function legal() { return hf.state?.legal || []; }
function legalKinds() { return new Set(legal().map((a) => a.type)); }
function myTurn() { const s = hf.state; return s && s.seat !== null && s.view.actor === s.seat && !s.view.game_over && !s.waiting; }

function selectedCodes() {
  const hand = hf.state.view.hand;
  return [...hf.selected].sort((a, b) => a - b).map((i) => hand[i]);
}
const selKey = () => selectedCodes().join(" ");
// a meld is put down one at a time; before the team has gone down it is laid out for the
// opening (the engine checks each one), and "Go down" asks the engine for the whole opening
function meldAction() { return { type: "meld", cards: selectedCodes() }; }
function myTeamView() { const s = hf.state; return s.view.teams[s.view.players[s.seat].team]; }
// the fewest cards of any meld the engine lists now (none listed: three, as in every sheet,
// only so that the engine is asked, and says why, once a selection could look like a meld)
function smallestMeld() {
  const sizes = legal().filter((a) => a.type === "meld").map((a) => a.cards.length);
  return sizes.length ? Math.min(...sizes) : 3;
}
// a preview is asked for only when the selection could be a meld: one card to discard shows none
function requestPreview() {
  hf.preview = null;
  hf.previewKey = selKey();
  if (!myTurn() || hf.selected.size < smallestMeld()) { $("#preview").textContent = ""; renderActions(); return; }
  send({ type: "preview", action: meldAction() });
}
function showPreview(p) {
  if (hf.selected.size < smallestMeld()) { $("#preview").textContent = ""; return; }
  hf.preview = p;
  const of = Boolean(p.minimum);  // (an opening of any points has no "of")
  let t = of ? `${p.value} of ${p.minimum}` : `${p.value} points`;
  const opening = p.minimum !== null && p.minimum !== undefined;  // not gone down yet
  t += p.ok ? (opening ? " — you can lay this out" : " — you can lay this down") : ` — ${p.message}`;
  $("#preview").textContent = t;
  renderActions();
}

function render(previous) {
  const s = hf.state, v = s.view;
  $("#table").hidden = false;
  document.body.classList.add("at-table");
  // forget selections that no longer exist; a new state clears them and the old error
  hf.selected = new Set([...hf.selected].filter((i) => i < v.hand.length));
  if (hf.lastSeq !== undefined && hf.lastSeq !== s.seq) {
    hf.selected.clear(); hf.preview = null; $("#preview").textContent = "";
    if (hf.lastHand !== v.hand_number) hf.ownOrder = [];
  }
  hf.lastSeq = s.seq; hf.lastHand = v.hand_number;
  const hadFocus = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand");
  noteNewMelds(previous);
  renderTop();
  renderOthers();
  renderMelds();
  renderHand();
  renderLog();
  renderSheet();
  renderEndOfHand();
  renderActions();
  showNotice(s.notice);
  showSeal(s);
  showTurn();
  $(".computer-toggle").hidden = s.seat === null;
  $("#computer").checked = s.seat !== null && s.seats[s.seat].computer;
  $("#status").textContent = s.seat === null ? "watching" : "";
  $("#hint").hidden = s.seat === null || hf.hintAllowed === false;
  $("#hint").disabled = !myTurn();
  $("#hand-tools").hidden = s.seat === null || (v.phase === "choose" && !v.hand.length);
  document.querySelectorAll("#hand-tools .sort button").forEach((b) => b.setAttribute("aria-pressed", String(b.id === "sort-" + hf.sort)));
  const cards = document.querySelectorAll("#hand .card");
  if (cards.length && hadFocus) cards[Math.min(hf.focus, cards.length - 1)].focus();
  animateArrivals(previous);
}

// ---------------------------------------------------------------- prompt and buttons
function promptText() {
  const s = hf.state, v = s.view, kinds = legalKinds(), sel = selectedCodes();
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
  if (v.phase === "draw") return kinds.has("take-pile") ? "Draw from the stock, or take the pile." : kinds.has("take-upcard") ? "Draw from the stock, or take the upcard." : "Draw from the stock.";
  if (kinds.has("pick-up-foot") && !v.hand.length) return "Your hand is played out: pick up your foot.";
  if (sel.length === 1 && kinds.has("discard")) {
    const ok = legal().some((a) => a.type === "discard" && a.card === sel[0]);
    return ok ? `Discard ${cardText(sel[0])} to end your turn, or select more cards to meld.` : `Select more cards to meld with ${cardText(sel[0])}.`;
  }
  if (sel.length > 1) return hf.preview && hf.preview.ok ? "Lay them down, or add them to a meld." : "Choose cards that make a meld, or one card to discard.";
  const team = myTeamView();
  if (kinds.has("go-down")) return "Go down with the melds you laid out, lay out more, or take them back.";
  if (!team.opened) return `Lay out melds for your opening (${team.laid_out_points} of ${team.minimum}), or choose a card to discard.`;
  if (!kinds.has("discard") && kinds.has("end-turn")) return "Lay down, add to your melds, or end your turn.";
  return "Lay down, add to your melds, or choose a card to discard.";
}
function button(id, label, enabled, fn) { return { id, label, enabled, fn }; }
function renderActions() {
  const s = hf.state, v = s.view, kinds = legalKinds(), mine = myTurn();
  $("#prompt").textContent = promptText();
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
    const down = myTeamView().opened;
    const layOk = sel.length > 0 && hf.preview && hf.preview.ok && hf.previewKey === selKey();
    // the three buttons of a turn stay in their places, enabled when the engine allows them
    btns.push(button("lay", down ? "Lay down (L)" : "Lay out (L)", Boolean(layOk), () => act(meldAction())));
    if (kinds.has("go-down")) btns.push(button("go-down", "Go down (O)", true, () => act({ type: "go-down" })));
    const addOk = legal().some((a) => a.type === "add" && a.cards.every((c) => sel.includes(c)));
    btns.push(button("add", "Add to meld (A)", addOk, () => { hf.addMode = true; hf.addNum = 0; showMessage(""); $("#prompt").textContent = "Tap one of your team's melds (or type its number)."; }));
    const discardOk = sel.length === 1 && legal().some((a) => a.type === "discard" && a.card === sel[0]);
    btns.push(button("discard", "Discard (X)", discardOk, () => act({ type: "discard", card: sel[0] })));
  }
  if (kinds.has("pick-up-foot")) btns.push(button("foot", KIND_LABEL["pick-up-foot"], true, () => act({ type: "pick-up-foot" })));
  if (kinds.has("end-turn")) btns.push(button("end", KIND_LABEL["end-turn"], true, () => act({ type: "end-turn" })));
  if (kinds.has("ask")) btns.push(button("ask", KIND_LABEL.ask, true, () => act({ type: "ask" })));
  if (kinds.has("answer")) {
    btns.push(button("yes", "Yes, go out (Y)", true, () => act({ type: "answer", yes: true })));
    btns.push(button("no", "No, not yet (N)", true, () => act({ type: "answer", yes: false })));
  }
  const box = $("#actions");
  const focused = document.activeElement && document.activeElement.id;
  box.innerHTML = "";
  for (const b of btns) {
    const el = document.createElement("button");
    el.id = "act-" + b.id; el.disabled = !b.enabled;
    // the key in brackets is left out on a phone ("Discard (X)" reads "Discard")
    const key = b.label.match(/^(.*?)( \([A-Z]\))$/);
    if (key) { el.textContent = key[1]; el.insertAdjacentHTML("beforeend", `<span class="key">${key[2]}</span>`); }
    else el.textContent = b.label;
    el.addEventListener("click", b.fn);
    box.appendChild(el);
  }
  if (focused && focused.startsWith("act-") && $("#" + focused)) $("#" + focused).focus();
  box.hidden = !btns.length;
  if (!kinds.has("take-pile")) $("#pile-options").innerHTML = "";
}
function toggle(i) {
  if (hf.selected.has(i)) hf.selected.delete(i); else hf.selected.add(i);
  const pos = hf.order.indexOf(i);
  if (pos >= 0) hf.focus = pos;
  showMessage(""); // an old refusal is about another selection
  hf.addMode = false;
  renderHand(); requestPreview(); renderActions();
  const el = document.querySelector(`#hand .card[data-pos="${hf.focus}"]`);
  if (el && document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand")) el.focus();
}
function addTo(meld) {
  const cards = selectedCodes();
  if (!cards.length) { showMessage("Select the cards to add first."); return; }
  hf.addMode = false;
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
      ((a.opening || []).length ? " + open with " + a.opening.map((m) => m.map(cardText).join(" ")).join(" | ") : "");
    el.addEventListener("click", () => act(a));
    box.appendChild(el);
  });
}
function renderSheet() {
  const v = hf.state.view;
  const teams = v.teams.length;
  let html = `<table class="sheet"><tr><th>Hand</th>${v.teams.map((t) => `<th>Team ${t.team + 1}</th>`).join("")}</tr>`;
  v.hand_scores.forEach((row, i) => { html += `<tr><td>${i + 1}</td>${row.map((x) => `<td>${x}</td>`).join("")}</tr>`; });
  html += `<tr><th>Total</th>${v.totals.slice(0, teams).map((x) => `<th>${x}</th>`).join("")}</tr></table>`;
  if (hf.state.last_hand) {
    html += `<p>Hand ${hf.state.last_hand.number}, item by item:</p>` + hf.state.last_hand.teams.map((t) =>
      `<p><b>Team ${t.team + 1}: ${t.total}</b> — ${t.lines.map((l) => esc(l[0]) + ": " + l[1]).join(", ")}</p>`).join("");
  }
  $("#sheet").innerHTML = html;
}
function setSort(how) {
  hf.sort = how; localStorage.setItem("hf-sort", how);
  if (how !== "own") hf.ownOrder = [];
  render();
}
$("#sort-rank").addEventListener("click", () => setSort("rank"));
$("#sort-suit").addEventListener("click", () => setSort("suit"));
$("#hint").addEventListener("click", () => { $("#hint-line").hidden = false; $("#hint-line").textContent = "Thinking…"; send({ type: "hint" }); });
document.addEventListener("keydown", (e) => {
  if ($("#table").hidden || !hf.state || e.target.matches("input, textarea, select")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  const cards = [...document.querySelectorAll("#hand .card")];
  const click = (id) => { const b = $("#act-" + id); if (b && !b.disabled) b.click(); };
  if (hf.addMode && /^[0-9]$/.test(k)) {
    // the meld's number; a second digit where the team has ten melds or more (or Enter)
    hf.addNum = (hf.addNum || 0) * 10 + Number(k);
    if (myTeamView().melds.length < hf.addNum * 10) { const n = hf.addNum; hf.addNum = 0; addTo(n - 1); }
    e.preventDefault(); return;
  }
  if (hf.addMode && k === "enter" && hf.addNum) { const n = hf.addNum; hf.addNum = 0; addTo(n - 1); e.preventDefault(); return; }
  if (k === "arrowright" || k === "arrowleft") {
    if (!cards.length) return;
    const at = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .card");
    const from = at ? Number(at.dataset.pos) : hf.focus;
    hf.focus = Math.max(0, Math.min(cards.length - 1, from + (k === "arrowright" ? 1 : -1)));
    cards.forEach((c, n) => c.setAttribute("tabindex", n === hf.focus ? "0" : "-1"));
    cards[hf.focus].focus(); e.preventDefault();
  } else if (k === " " || k === "enter") {
    const el = document.activeElement;
    if (el && el.dataset && el.dataset.i !== undefined && el.closest("#hand")) { toggle(Number(el.dataset.i)); e.preventDefault(); }
  } else if (k === "escape") { hf.selected.clear(); hf.addMode = false; showMessage(""); hideHint(); $("#pile-options").innerHTML = ""; renderHand(); requestPreview(); }
  else if (k === "h" && !$("#hint").hidden) { $("#hint").click(); e.preventDefault(); }
  else if (k === "n" && $("#act-next-hand")) { $("#act-next-hand").click(); e.preventDefault(); }
  else {
    const map = { d: "draw", p: "pile", l: "lay", g: "lay", m: "lay", o: "go-down", a: "add", x: "discard", f: "foot", e: "end", q: "ask", y: "yes", n: "no", 1: "choose-1", 2: "choose-2" };
    if (map[k]) { click(map[k]); e.preventDefault(); }
  }
});
$("#computer").addEventListener("change", (e) => send({ type: "computer", on: e.target.checked }));
