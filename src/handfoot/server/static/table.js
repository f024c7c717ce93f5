"use strict";
// The table: the live view of one game through its WebSocket, the hand, the actions.
// ------------------------------------------------------------------- table
function connect() {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${hf.table}` + (hf.token ? `?token=${encodeURIComponent(hf.token)}` : "");
  const ws = new WebSocket(url);
  hf.ws = ws;
  ws.onopen = () => { $("#status").textContent = hf.token ? "" : "watching"; };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { hf.state = m; render(); }
    else if (m.type === "error") { showMessage(m.message); if (m.fatal) hf.fatal = true; }
    else if (m.type === "preview") { showPreview(m); }
    else if (m.type === "notice") { showNotice(m.message); }
    for (const hook of hf.hooks || []) hook(m);  // waiting room, chat (their own scripts)
  };
  ws.onclose = () => {
    if (hf.fatal) return;
    $("#status").textContent = "reconnecting…";
    setTimeout(connect, 1000);
  };
}
function send(msg) { if (hf.ws && hf.ws.readyState === 1) hf.ws.send(JSON.stringify(msg)); }
function act(action) { showMessage(""); send({ type: "action", action }); }
function showMessage(text) { $("#message").textContent = text; }
// the monitor's word to the table: the clock's warning, time called
function showNotice(text) { $("#notice").textContent = text || ""; $("#notice").hidden = !text; }
function legalKinds() { return new Set((hf.state?.legal || []).map((a) => a.type)); }
function myTurn() { const s = hf.state; return s && s.seat !== null && s.view.actor === s.seat && !s.view.game_over; }

function selectedCodes() {
  const hand = hf.state.view.hand;
  return [...hf.selected].sort((a, b) => a - b).map((i) => hand[i]);
}
// a meld is put down one at a time; before the team has gone down it is laid out for the
// opening (the engine checks each one), and "Go down" asks the engine for the whole opening
function meldAction() { return { type: "meld", cards: selectedCodes() }; }
function myTeamView() { const s = hf.state; return s.view.teams[s.view.players[s.seat].team]; }
function canMeld() { return myTurn() && (hf.state.view.phase === "play" || legalKinds().has("meld")); }
function requestPreview() {
  if (!canMeld() || !hf.selected.size) { $("#preview").textContent = ""; return; }
  send({ type: "preview", action: meldAction() });
}
function showPreview(p) {
  if (!hf.selected.size) { $("#preview").textContent = ""; return; }
  let t = p.minimum !== null && p.minimum !== undefined ? `${p.value} of ${p.minimum}` : `${p.value} points`;
  t += p.ok ? (p.minimum !== null && p.minimum !== undefined ? " — you can lay this out" : " — you can lay this down") : ` — ${p.message}`;
  $("#preview").textContent = t;
}

function render() {
  const s = hf.state, v = s.view;
  $("#table").hidden = false;
  const me = s.seat;
  // forget selections that no longer exist
  hf.selected = new Set([...hf.selected].filter((i) => i < v.hand.length));
  if (hf.lastSeq !== undefined && hf.lastSeq !== s.seq) { hf.selected.clear(); $("#preview").textContent = ""; }
  hf.lastSeq = s.seq;
  const partner = (i) => me !== null && i !== me && v.players[i].team === v.players[me].team;
  const seatName = (i) => i === me ? "You" : (s.seats[i].name && s.seats[i].name !== "You" && s.seats[i].kind === "human"
    ? (partner(i) ? "Partner " : "") + `${s.seats[i].name}, seat ${i + 1}`
    : (partner(i) ? "Partner" : (s.seats[i].computer ? "Computer" : "Player")) + ` ${i + 1}`) +
    (s.seats[i].kind === "human" && s.seats[i].computer ? " (computer playing)" : (partner(i) && s.seats[i].computer ? " (computer)" : ""));
  const myTeam = me === null ? 0 : v.players[me].team;
  const minimum = v.teams[myTeam].minimum;
  const phaseText = { choose: "choosing hands", draw: "to draw", play: "to play", ask: "to answer", over: "hand over" }[v.phase];
  $("#info").innerHTML = `<span>${esc(s.rules)}</span><span>Hand ${v.hand_number} of ${v.hands_in_game}</span>
    <span class="turn">${v.game_over ? "Game over" : (v.actor === me ? "Your turn " : esc(seatName(v.actor)) + " ") + (v.game_over ? "" : phaseText)}</span>
    <span>Opening minimum: ${v.teams[myTeam].opened ? "opened" : minimum}</span>
    <span>Totals: ${v.totals.map((t, i) => `team ${i + 1}: ${t}`).join(", ")}</span>`;
  $("#others").innerHTML = v.players.map((p) => `<div class="player ${p.seat === v.actor && !v.game_over ? "acting" : ""}" data-seat="${p.seat}">
    <b>${esc(seatName(p.seat))}</b> (team ${p.team + 1})<br>hand ${p.hand_count} · ${p.in_foot ? "in foot" : "foot " + p.foot_count}
    ${me !== null && p.seat !== me && localStorage.getItem("hf-creator-" + hf.table) && !s.waiting_to_start && s.seats[p.seat].kind === "human" && !s.seats[p.seat].computer && !s.seats[p.seat].connected
      ? `<br><button class="away" data-seat="${p.seat}">Away: let the computer play</button>` : ""}</div>`).join("");
  for (const el of document.querySelectorAll("button.away")) {
    el.addEventListener("click", () => send({ type: "computer", seat: Number(el.dataset.seat), on: true, creator: localStorage.getItem("hf-creator-" + hf.table) }));
  }
  $("#pile").innerHTML = `<span>Pile</span>${v.pile_top ? cardHTML(v.pile_top) : "<i>empty</i>"}<span>${v.pile_size} cards</span>${v.pile_frozen ? `<span class="frozen">FROZEN</span><span class="why">${esc(v.pile_frozen)}</span>` : ""}`;
  $("#stock").innerHTML = `<span>Stock</span><b>${v.stock_size}</b><span>cards</span>` +
    (v.stack_tops.length && me !== null ? `<span>Your stacks show ${cardText(v.stack_tops[me][0])} and ${cardText(v.stack_tops[me][1])}</span>` : "");
  const canAdd = myTurn() && (v.phase === "play" || legalKinds().has("add"));
  const laidOut = (t) => !t.opened && t.melds.length > 0;
  $("#melds").innerHTML = v.teams.map((t) => `<div class="team ${t.team === myTeam ? "mine" : ""}">
    <h3>${t.team === myTeam && me !== null ? "Your team" : "Team " + (t.team + 1)} ${t.opened ? "" : (laidOut(t) ? `(laid out, not down yet: ${t.laid_out_points} of ${t.minimum})` : "(not opened)")}${t.books_to_go_out ? ` — to go out: ${esc(t.books_to_go_out)}` : (t.opened ? " — can go out" : "")}</h3>
    ${t.melds.map((m) => `<div class="meld ${t.team === myTeam && canAdd ? "target" : ""} ${laidOut(t) ? "laid-out" : ""}" data-meld="${m.index}" data-team="${t.team}">
      <b>${m.index + 1}.</b> ${esc(m.label)} ${(m.complete ? [m.cards.find((c) => c !== "JK" && !c.startsWith("2")) || m.cards[0]] : m.cards).map((c) => cardHTML(c, "small")).join("")}
      <span class="tag ${m.book || ""}">${m.complete ? esc(m.book_name || "") + ", " + m.cards.length + " cards" : m.cards.length + " cards, needs " + m.needs}</span>
      ${laidOut(t) && t.team === myTeam && myTurn() ? `<button class="take-back" data-meld="${m.index}">Take back</button>` : ""}</div>`).join("") || "<p>No melds yet.</p>"}
    ${t.red_threes.length ? `<p>Red 3s: ${t.red_threes.map(cardText).join(" ")}</p>` : ""}</div>`).join("");
  for (const el of document.querySelectorAll(".meld.target")) {
    el.addEventListener("click", (e) => { if (!e.target.closest("button")) addTo(Number(el.dataset.meld)); });
  }
  for (const el of document.querySelectorAll("button.take-back")) {
    el.addEventListener("click", () => act({ type: "take-back", meld: Number(el.dataset.meld) }));
  }
  // the hand
  $("#hand").innerHTML = v.hand.map((c, i) => cardHTML(c, hf.selected.has(i) ? "selected" : "",
    `tabindex="0" role="button" aria-pressed="${hf.selected.has(i)}" data-i="${i}" data-code="${c}" aria-label="${cardText(c)}"`)).join("") ||
    (me === null ? "<p>You are watching: hands are hidden.</p>" : "<p>Your hand is empty.</p>");
  for (const el of document.querySelectorAll("#hand .card")) {
    el.addEventListener("click", () => toggle(Number(el.dataset.i)));
  }
  renderActions();
  renderSheet();
  showNotice(s.notice);
  showSeal(s);
  const banner = $("#banner");
  if (v.game_over) {
    banner.hidden = false;
    banner.innerHTML = `<b>Game over.</b> Winner: ${v.winners.map((w) => "team " + (w + 1)).join(" & ")}. Totals ${v.totals.join(" / ")}.
      <a style="color:#fff" href="/?replay=${s.table}">Replay it</a> · <a style="color:#fff" href="/api/tables/${s.table}/record" download>Download the record</a> <span class="fair"></span>`;
    showFair(s.table, banner.querySelector(".fair"));
  } else if (s.last_hand && s.last_hand.number > Number(localStorage.getItem("hf-seen-" + s.table) || 0)) {
    banner.hidden = false;
    banner.innerHTML = `<b>Hand ${s.last_hand.number} is over</b> (${s.last_hand.ended_by === "out" ? "seat " + (s.last_hand.went_out + 1) + " went out" : s.last_hand.ended_by === "time" ? "time was called" : "the stock ran out"}). ` +
      s.last_hand.teams.map((t) => `<br>Team ${t.team + 1}: <b>${t.total}</b> (${t.lines.map((l) => esc(l[0]) + " " + l[1]).join(", ")})`).join("") +
      ` <br><button id="seen">Continue (the next hand has begun)</button>`;
    $("#seen").addEventListener("click", () => { localStorage.setItem("hf-seen-" + s.table, String(s.last_hand.number)); render(); });
  } else banner.hidden = true;
  $(".computer-toggle").hidden = me === null;
  $("#computer").checked = me !== null && s.seats[me].computer;
  $("#status").textContent = me === null ? "watching" : "";
  const cards = document.querySelectorAll("#hand .card");
  if (cards.length && document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand")) {
    cards[Math.min(hf.focus, cards.length - 1)].focus();
  }
}
function button(id, label, enabled, fn) {
  return { id, label, enabled, fn };
}
function renderActions() {
  const s = hf.state, v = s.view, kinds = legalKinds(), mine = myTurn();
  const sel = selectedCodes();
  const btns = [];
  if (v.phase === "choose") {
    btns.push(button("choose-1", "Choose stack 1 as hand", kinds.has("choose-hand"), () => act({ type: "choose-hand", stack: 0 })));
    btns.push(button("choose-2", "Choose stack 2 as hand", kinds.has("choose-hand"), () => act({ type: "choose-hand", stack: 1 })));
  }
  btns.push(button("draw", KIND_LABEL.draw, kinds.has("draw"), () => act({ type: "draw" })));
  if (kinds.has("take-upcard")) btns.push(button("upcard", KIND_LABEL["take-upcard"], true, () => act({ type: "take-upcard" })));
  btns.push(button("pile", "Take pile (P)", kinds.has("take-pile"), takePile));
  const down = mine && myTeamView().opened;
  btns.push(button("lay", down ? "Lay down meld (L)" : "Lay out meld (L)", canMeld() && sel.length > 0, () => act(meldAction())));
  if (mine && !down) btns.push(button("go-down", "Go down (O)", kinds.has("go-down"), () => act({ type: "go-down" })));
  btns.push(button("add", "Add to meld (A)", canMeld() && sel.length > 0 && myTeamView().melds.length > 0, () => { hf.addMode = true; showMessage("Click one of your team's melds, or type its number."); }));
  btns.push(button("discard", "Discard (X)", mine && v.phase === "play" && sel.length === 1, () => act({ type: "discard", card: sel[0] })));
  btns.push(button("foot", KIND_LABEL["pick-up-foot"], kinds.has("pick-up-foot"), () => act({ type: "pick-up-foot" })));
  if (kinds.has("end-turn")) btns.push(button("end", KIND_LABEL["end-turn"], true, () => act({ type: "end-turn" })));
  if (kinds.has("ask")) btns.push(button("ask", KIND_LABEL.ask, true, () => act({ type: "ask" })));
  if (kinds.has("answer")) {
    btns.push(button("yes", "Yes, go out (Y)", true, () => act({ type: "answer", yes: true })));
    btns.push(button("no", "No, not yet (N)", true, () => act({ type: "answer", yes: false })));
  }
  if (v.phase === "ask" && !kinds.has("answer")) btns.push(button("asked", "Waiting for partner's answer", false, () => {}));
  const box = $("#actions");
  box.innerHTML = "";
  for (const b of btns) {
    const el = document.createElement("button");
    el.id = "act-" + b.id; el.textContent = b.label; el.disabled = !b.enabled;
    el.addEventListener("click", b.fn);
    box.appendChild(el);
  }
  $("#pile-options").innerHTML = "";
}
function toggle(i) {
  if (hf.selected.has(i)) hf.selected.delete(i); else hf.selected.add(i);
  hf.focus = [...document.querySelectorAll("#hand .card")].findIndex((e) => Number(e.dataset.i) === i);
  render(); requestPreview();
}
function addTo(meld) {
  const cards = selectedCodes();
  if (!cards.length) { showMessage("Select the cards to add first."); return; }
  hf.addMode = false;
  act({ type: "add", meld, cards });
}
function takePile() {
  const opts = (hf.state.legal || []).filter((a) => a.type === "take-pile");
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
document.addEventListener("keydown", (e) => {
  if ($("#table").hidden || !hf.state || e.target.matches("input, textarea, select")) return;
  const k = e.key.toLowerCase();
  const cards = [...document.querySelectorAll("#hand .card")];
  const click = (id) => { const b = $("#act-" + id); if (b && !b.disabled) b.click(); };
  if (hf.addMode && /^[0-9]$/.test(k)) { addTo(Number(k) - 1); return; }
  if (k === "arrowright" || k === "arrowleft") {
    if (!cards.length) return;
    hf.focus = Math.max(0, Math.min(cards.length - 1, hf.focus + (k === "arrowright" ? 1 : -1)));
    cards[hf.focus].focus(); e.preventDefault();
  } else if (k === " " || k === "enter") {
    const el = document.activeElement;
    if (el && el.dataset && el.dataset.i !== undefined) { toggle(Number(el.dataset.i)); e.preventDefault(); }
  } else if (k === "escape") { hf.selected.clear(); hf.addMode = false; showMessage(""); render(); requestPreview(); }
  else {
    const map = { d: "draw", p: "pile", l: "lay", g: "lay", m: "lay", o: "go-down", a: "add", x: "discard", f: "foot", e: "end", q: "ask", y: "yes", n: "no", 1: "choose-1", 2: "choose-2" };
    if (map[k]) { click(map[k]); e.preventDefault(); }
  }
});
$("#computer").addEventListener("change", (e) => send({ type: "computer", on: e.target.checked }));
