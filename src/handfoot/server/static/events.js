// @ts-check
// Club events: the list, the players' page (standings, find your table) and the
// organiser's page. The server checks everything; this page only shows and asks.
// One module: the table page's modules are not loaded here.

/** The element the selector finds. @param {string} s @returns {any} */
const $ = (s) => document.querySelector(s);
/** Every element the selector finds (in `root`, else the page).
 * @param {string} s @param {ParentNode} [root] @returns {any[]} */
const $$ = (s, root = document) => [...root.querySelectorAll(s)];
/** The event shown: its key, the server's answer, the round shown (and whether the
 * organiser chose it), the invites and paper sheet open, the refresh timer, and what the
 * rounds and the tie-break were last drawn from.
 * @type {{key: string | null, data: any, round: number, roundChosen?: boolean, invites: Record<string, any>, paper: any, timer: any, roundKey?: string, tieKey?: string}} */
const ev = { key: null, data: null, round: 1, invites: {}, paper: null, timer: null };

function esc(t) { return String(t ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c])); }
async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { const e = Object.assign(new Error(data.error || r.statusText), { status: r.status }); throw e; }
  return data;
}
function say(text, bad = false) {
  const el = $("#org-message");
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("error", bad);
}
function formData(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    out[el.name] = el.type === "checkbox" ? el.checked : el.value;
  }
  return out;
}
function show(id) {
  for (const m of $$("main")) m.hidden = m.id !== id;
}

// --------------------------------------------------------------- standings
function standingTable(lines, kind) {
  if (!lines.length) return "";
  const extra = { team: "Won", player: "Byes", chapter: "" }[kind];
  const head = `<tr><th>Place</th><th>${kind === "team" ? "Team" : kind === "player" ? "Player" : "Chapter"}</th><th class="num">Games</th><th class="num">${kind === "chapter" ? "Average" : "Points"}</th>${extra ? `<th class="num">${extra}</th>` : ""}<th>Note</th></tr>`;
  const rows = lines.map((x) => {
    const cell = kind === "team" ? x.won : kind === "player" ? (x.byes || "") : null;
    const note = [x.note, x.bye_credit ? `bye credit ${x.bye_credit}` : ""].filter(Boolean).join("; ");
    return `<tr><td>${esc(x.place)}</td><td>${esc(x.name)}</td><td class="num">${x.games}</td><td class="num"><b>${x.points}</b></td>${cell !== null ? `<td class="num">${cell}</td>` : ""}<td>${esc(note)}</td></tr>`;
  }).join("");
  return `<table class="standings">${head}${rows}</table>`;
}
const KIND_WORDS = { team: "teams", player: "players", chapter: "chapters" };
const byKind = (kinds) => ["team", "player", "chapter"].filter((k) => kinds.includes(k));
function tieBreakHTML(tb) {
  const how = tb.method === "high-card" ? `a high-card draw, seed ${tb.seed}` : "a play-off";
  const cards = tb.method === "high-card" ? `<br><span class="hint">${tb.detail.map(esc).join("<br>")}</span>` : "";
  return `<p class="tiebreak">First place among the ${KIND_WORDS[tb.kind] || esc(tb.kind)}: <b>${esc(tb.winner)}</b>, who won the tie-break (${how}).${cards}</p>`;
}
function standingsHTML(st) {
  if (!st.teams.length && !st.players.some((p) => p.games)) return "<p>No results yet.</p>";
  let html = "";
  if (st.pending.length) html += `<p class="note">A tie for first place among the ${byKind(st.pending).map((k) => KIND_WORDS[k]).join(" and among the ")} is still to be broken.</p>`;
  html += (st.tie_breaks || []).filter((tb) => tb.in_effect).map(tieBreakHTML).join("");
  html += `<details open><summary><h3>Teams</h3></summary>${standingTable(st.teams, "team")}</details>`;
  html += `<details open><summary><h3>Players</h3></summary>${standingTable(st.players, "player")}</details>`;
  if (st.chapters.length) html += `<details open><summary><h3>Chapters</h3></summary><p class="hint">The average of the chapter's players' points.</p>${standingTable(st.chapters, "chapter")}</details>`;
  return html;
}

// ------------------------------------------------------------------- list
async function showList() {
  show("ev-list");
  document.title = "Club events — Hand and Foot";
  const [events, sets] = await Promise.all([api("/api/events"), api("/api/rule-sets")]);
  $("#event-list").innerHTML = events.events.length ? `<ul class="events">${events.events.map((e) =>
    `<li><b>${esc(e.name)}</b> — ${esc(e.rules)}, ${e.rounds} round(s), ${e.players} players<br>
     <a href="/events/${e.key}">Players' page</a> · <a href="/events/${e.key}/organiser">Organiser</a></li>`).join("")}</ul>`
    : "<p>No events yet.</p>";
  const sel = $("#create-rules");
  sel.innerHTML = sets.rule_sets.map((r) => `<option value="${esc(r.name)}" data-seats="${r.seats}">${esc(r.name)} — ${esc(r.title)}</option>`).join("");
  const syncSeats = () => { const o = sel.selectedOptions[0]; if (o) $("#create-seats").value = o.dataset.seats === "6" ? "6" : "4"; };
  sel.addEventListener("change", syncSeats);
  syncSeats();
}
$("#create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const d = formData(e.target);
  if (d.password !== d.password2) { $("#create-error").textContent = "The two passwords are not the same."; return; }
  delete d.password2;
  d.rounds = Number(d.rounds);
  d.seats = Number(d.seats);
  try {
    const made = await api("/api/events", d);
    location.href = `/events/${made.key}/organiser`;
  } catch (err) { $("#create-error").textContent = err.message; }
});

// ------------------------------------------------------------ public page
async function showPublic() {
  show("ev-public");
  const d = await api(`/api/events/${ev.key}`);
  document.title = `${d.name} — Hand and Foot`;
  $("#pub-name").textContent = d.name;
  $("#pub-about").textContent = `${d.rules}; ${d.rounds} round(s), ${d.seats} at a table, ${d.players} players. ${d.clock}`;
  $("#pub-progress").innerHTML = d.drawn.map((r) => `Round ${r.round}: ${r.results} of ${r.tables} tables in.`).join("<br>");
  $("#pub-standings").innerHTML = standingsHTML(d.standings);
  $("#pub-organiser").href = `/events/${ev.key}/organiser`;
}
$("#find-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const out = $("#find-result");
  try {
    const d = await api(`/api/events/${ev.key}/find?name=${encodeURIComponent($("#find-name").value)}`);
    out.innerHTML = `<h3>${esc(d.name)}</h3>` + (d.rounds.length ? `<ul class="find">${d.rounds.map((r) => r.bye
      ? `<li>Round ${r.round}: you sit out this round (a bye).</li>`
      : `<li><b>Round ${r.round}: table ${r.table}</b>, seat ${r.seat} — ${esc(r.team)}${r.partners.length ? ", with " + r.partners.map(esc).join(" and ") : ""}; against ${r.opponents.map(esc).join(" and ")}.${r.online ? " This table plays online: use the link the organiser gave you." : ""}${r.result ? " (result in)" : ""}</li>`).join("")}</ul>`
      : "<p>The tables are not drawn yet.</p>");
  } catch (err) { out.innerHTML = `<p class="error">${esc(err.message)}</p>`; }
});

// ------------------------------------------------------------------ login
function showLogin(name) {
  show("ev-login");
  $("#login-name").textContent = name;
  $("#login-public").href = `/events/${ev.key}`;
  $("#login-password").focus();
}
$("#login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    await api(`/api/events/${ev.key}/login`, { password: $("#login-password").value });
    $("#login-password").value = "";
    $("#login-error").textContent = "";
    await showOrganiser();
  } catch (err) { $("#login-error").textContent = err.message; }
});

// -------------------------------------------------------------- organiser
async function showOrganiser() {
  let d;
  try { d = await api(`/api/events/${ev.key}/manage`); }
  catch (err) {
    if (err.status === 401) { const p = await api(`/api/events/${ev.key}`); showLogin(p.name); return; }
    throw err;
  }
  show("ev-org");
  ev.data = d;
  document.title = `${d.name}: organiser — Hand and Foot`;
  $("#org-name").textContent = d.name;
  $("#org-about").textContent = `${d.rules}; ${d.rounds} round(s), ${d.seats} at a table; partners: ${d.partners}; players left over: ${d.odd === "bye" ? "bye" : "individuals"}${d.not_same_chapter ? "; partners from different chapters" : ""}. ${d.clock_text}`;
  $("#org-chat").checked = d.chat;
  $("#org-public").href = `/events/${ev.key}`;
  $("#org-results").href = `/events/${ev.key}/print/results`;
  $("#csv-export").href = $("#csv-export2").href = `/events/${ev.key}/players.csv`;
  const firstOpen = d.rounds_info.find((r) => !r.drawn || r.tables.some((t) => !t.result));
  if (!ev.roundChosen) ev.round = firstOpen ? firstOpen.round : d.rounds;
  renderPlayers();
  renderRounds();
  renderTies();
  $("#org-standings").innerHTML = standingsHTML(d.standings);
  if (!ev.timer) ev.timer = setInterval(refresh, 4000);
}
async function refresh() {
  if (document.hidden || $("#ev-org").hidden) return;
  try {
    const d = await api(`/api/events/${ev.key}/manage`);
    ev.data = d;
    $("#org-standings").innerHTML = standingsHTML(d.standings);
    if (tieKey(d) !== ev.tieKey) renderTies();
    const info = d.rounds_info[ev.round - 1];
    if (roundKey(info) !== ev.roundKey) { renderRounds(); return; }
    // A table that started online or whose result came in gets its new card and buttons;
    // the others only their words (a form being filled in on another card stays as it is).
    if (info.drawn) for (const t of info.tables) {
      const card = document.getElementById(`tcard-${t.number}`);
      if (card && tableKey(t) !== card.dataset.key) {
        card.outerHTML = tableCard(t);
        bindTables(document.getElementById(`tcard-${t.number}`));
        continue;
      }
      const el = document.getElementById(`tstatus-${t.number}`);
      if (el) el.innerHTML = tableStatus(t);
    }
    const clock = document.getElementById("clock-state");
    if (clock) clock.innerHTML = clockText(info.clock);
  } catch (err) { /* the next refresh tries again */ }
}
function renderPlayers() {
  const d = ev.data;
  $("#player-count").textContent = `(${d.players.length})`;
  const drawn = d.rounds_info.some((r) => r.drawn);
  $("#csv-box").hidden = drawn;
  $("#csv-drawn").hidden = !drawn;
  $("#player-list").innerHTML = d.players.length ? `<table><tr><th>Name</th><th>Chapter</th><th>Not to partner</th></tr>${d.players.map((p) =>
    `<tr><td>${esc(p.name)}</td><td>${esc(p.chapter)}</td><td>${esc(p.not_partners.join("; "))}</td></tr>`).join("")}</table>` : "<p>No players yet.</p>";
}
$("#csv-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) $("#csv-text").value = await f.text();
});
$("#csv-load").addEventListener("click", async () => {
  try {
    const r = await api(`/api/events/${ev.key}/players`, { csv: $("#csv-text").value });
    say(r.message);
    $("#csv-text").value = "";
    await showOrganiser();
  } catch (err) { say(err.message, true); }
});
$("#add-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const r = await api(`/api/events/${ev.key}/players`, { add: formData(e.target) });
    say(r.message);
    e.target.reset();
    await showOrganiser();
  } catch (err) { say(err.message, true); }
});
$("#org-logout").addEventListener("click", async () => {
  await api(`/api/events/${ev.key}/logout`, {});
  location.href = `/events/${ev.key}`;
});

function clockText(c) {
  if (!c) return "The clock has not been started.";
  const t = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  if (c.called) return `Time was called at ${t(c.called)}.`;
  return `Started at ${t(c.started)}` + (c.warning_at ? `; warning at ${t(c.warning_at)}` : "") + (c.ends_at ? `; time is called at <b>${t(c.ends_at)}</b>.` : ".");
}
function totalsText(t, totals) {
  return totals.map((x, k) => `${esc(t.teams[k].label.replace(/ \(.*\)$/, ""))} <b>${x}</b>`).join(", ");
}
function tableStatus(t) {
  if (t.result) {
    const r = t.result;
    return `<span class="done">Result in (${r.source === "online" ? "played online" : "score sheets"}${r.time_called ? ", time called" : ""}): ${totalsText(t, r.totals)}</span>`;
  }
  if (t.online) {
    const o = t.online;
    const who = o.seats.map((s) => `${esc(s.name)}${s.computer ? " (computer)" : s.connected ? " ✓" : " (not here)"}`).join(", ");
    return `<span class="playing">Playing online: hand ${o.hand_number}; ${totalsText(t, o.totals)}${o.time_called ? "; time called" : ""}</span><br><span class="hint">${who}</span>`;
  }
  return "<span>Not started.</span>";
}
function roundKey(info) { return JSON.stringify([info.round, info.drawn, info.seed ?? null, info.tables ? info.tables.length : 0]); }
function tableKey(t) { return JSON.stringify([t.result ? [t.result.source, t.result.totals] : null, t.online ? t.online.table_id : null]); }
function renderRounds() {
  const d = ev.data;
  ev.roundKey = roundKey(d.rounds_info[ev.round - 1]);
  $("#round-tabs").innerHTML = d.rounds_info.map((r) => `<button type="button" role="tab" class="tab ${r.round === ev.round ? "on" : ""}" data-round="${r.round}" aria-selected="${r.round === ev.round}">Round ${r.round}${r.drawn ? "" : " (not drawn)"}</button>`).join("");
  for (const b of $$("#round-tabs .tab")) {
    b.addEventListener("click", () => { ev.round = Number(b.dataset.round); ev.roundChosen = true; renderRounds(); });
  }
  const info = d.rounds_info[ev.round - 1];
  const canDraw = !info.drawn || (!info.has_results && !info.later_drawn && !info.tables.some((t) => t.online));
  const prevDrawn = ev.round === 1 || d.rounds_info[ev.round - 2].drawn;
  let html = "";
  if (canDraw && prevDrawn) {
    const form = `<form id="draw-form" class="row"><label>Seed (announce it first) <input id="draw-seed" type="number" min="0" value="${Math.floor(Math.random() * 10000)}"></label>
      <button class="big" type="submit">${info.drawn ? "Draw round " + ev.round + " again" : "Draw round " + ev.round}</button></form>`;
    html += info.drawn ? `<details class="redraw"><summary>Draw this round again (a late arrival, a mistake)</summary>${form}</details>` : form;
  } else if (!info.drawn) {
    html += `<p>Draw round ${ev.round - 1} first.</p>`;
  }
  if (info.drawn) {
    html += `<p>Drawn with seed <b>${info.seed}</b>. <a href="/events/${ev.key}/print/assignments/${ev.round}" target="_blank">Print the table assignments</a> · <a href="/events/${ev.key}/print/score-sheets/${ev.round}" target="_blank">Print the score sheets</a></p>`;
    html += info.notes.map((n) => `<p class="note">${esc(n)}</p>`).join("");
    if (info.byes.length) html += `<p>Sitting out (bye): ${info.byes.map(esc).join(", ")}</p>`;
    html += `<div class="clock"><h3>The clock</h3><p id="clock-state">${clockText(info.clock)}</p><p class="row">
      ${d.time_limit ? `<button type="button" data-clock="start">Start the clock (${d.time_limit} minutes)</button>` : ""}
      <button type="button" data-clock="warn">Send the warning now</button>
      <button type="button" data-clock="call">Call time now</button></p>
      <p class="hint">Time is called at the tables playing online; ${d.when_time_is_called === "end-hand" ? "the hand being played ends as it stands" : "the hand being played is finished"}, and no new hand starts. Paper tables: tick "time was called" when entering their sheets.</p></div>`;
    html += `<div class="tablecards">${info.tables.map((t) => tableCard(t)).join("")}</div>`;
  }
  $("#round-body").innerHTML = html;
  const form = $("#draw-form");
  if (form) form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const r = await api(`/api/events/${ev.key}/draw`, { round: ev.round, seed: $("#draw-seed").value });
      say(`Round ${r.round} drawn with seed ${r.seed}.` + (r.notes.length ? " " + r.notes.join(" ") : ""));
      await showOrganiser();
    } catch (err) { say(err.message, true); }
  });
  for (const b of $$("[data-clock]")) {
    b.addEventListener("click", async () => {
      if (b.dataset.clock === "call" && !confirm(`Call time for round ${ev.round} now?`)) return;
      try {
        const r = await api(`/api/events/${ev.key}/clock`, { round: ev.round, do: b.dataset.clock });
        say(r.message);
        $("#clock-state").innerHTML = clockText(r.clock);
      } catch (err) { say(err.message, true); }
    });
  }
  bindTables($("#round-body"));
}
function bindTables(root) {
  for (const b of $$("[data-online]", root)) b.addEventListener("click", () => startOnline(Number(b.dataset.online)));
  for (const b of $$("[data-paper]", root)) b.addEventListener("click", () => openPaper(Number(b.dataset.paper)));
  for (const b of $$("[data-newlink]", root)) {
    b.addEventListener("click", async () => {
      const [t, s] = b.dataset.newlink.split(":").map(Number);
      try {
        const r = await api(`/api/events/${ev.key}/invite`, { round: ev.round, table: t, seat: s });
        const k = `${ev.round}:${t}`;
        ev.invites[k] = ev.invites[k] || {};
        ev.invites[k][s] = r.url;
        say(`A new link for ${r.name}; the old one no longer works.`);
        renderRounds();
      } catch (err) { say(err.message, true); }
    });
  }
}
function tableCard(t) {
  const k = `${ev.round}:${t.number}`;
  const teams = t.teams.map((tm) => `<div><b>${esc(tm.label)}</b>: ${tm.players.map(esc).join(" &amp; ")}</div>`).join("");
  let actions = "";
  if (!t.result && !t.online) {
    actions = `<details class="online"><summary>Play online</summary>
      <p class="hint">Each player gets a secret link to their own seat. Tick the seats of players who are not here: the computer plays them.</p>
      ${t.seats.map((name, s) => `<label class="check"><input type="checkbox" class="comp-${t.number}" value="${s}"> Seat ${s + 1}: ${esc(name)} — computer plays</label>`).join("")}
      <label>Computer level <select id="level-${t.number}">${ev.data.levels.map((l) => `<option ${l === ev.data.default_level ? "selected" : ""}>${esc(l)}</option>`).join("")}</select></label>
      <button type="button" class="big" data-online="${t.number}">Start table ${t.number} online</button></details>
      <button type="button" data-paper="${t.number}">Enter the score sheets</button>`;
  } else if (t.result && t.result.source === "paper") {
    actions = `<button type="button" data-paper="${t.number}">Correct the score sheets</button>`;
  }
  if (t.online && !t.result) {
    const links = ev.invites[k] || {};
    actions += `<div class="invites"><b>Invite links</b> (one for each player; give each only to its player):<ul>${t.seats.map((name, s) =>
      `<li>Seat ${s + 1}, ${esc(name)}: ${links[s] ? `<a class="invite" href="${esc(links[s])}" target="_blank">${esc(links[s])}</a>` : "<i>given out</i>"} <button type="button" class="small" data-newlink="${t.number}:${s}">New link</button></li>`).join("")}</ul>
      <a href="/table/${t.online.table_id}" target="_blank">Watch the table</a></div>`;
  }
  return `<div class="tablecard" id="tcard-${t.number}" data-key="${esc(tableKey(t))}"><h3>Table ${t.number}${t.individuals ? " (individuals)" : ""}</h3>${teams}
    <p id="tstatus-${t.number}">${tableStatus(t)}</p>${actions}</div>`;
}
async function startOnline(number) {
  const computer = [...$$(`.comp-${number}:checked`)].map((c) => Number(c.value));
  try {
    const r = await api(`/api/events/${ev.key}/online`, { round: ev.round, table: number, computer, level: $(`#level-${number}`).value });
    ev.invites[`${ev.round}:${number}`] = Object.fromEntries(r.invites.map((i) => [i.seat, i.url]));
    say(`Table ${number} is playing online. Give each player their own link.`);
    await showOrganiser();
  } catch (err) { say(err.message, true); }
}

// ------------------------------------------------------------- tie-breaks
// Shown only when every round has been played, every table's result is in and first
// place is tied; the server
// draws the cards (the same draw as `handfoot event tiebreak`) and keeps it.
function tieKey(d) { return JSON.stringify([d.tie_break, d.standings.tied, d.standings.missing.length, d.rounds_to_draw.length]); }
function renderTies() {
  const d = ev.data, st = d.standings;
  ev.tieKey = tieKey(d);
  const open = d.tie_break !== "none" && st.pending.length > 0 && st.missing.length === 0
    && d.rounds_to_draw.length === 0;
  $("#tie-panel").hidden = !open;
  if (!open) $("#tie-error").textContent = "";
  $("#tie-body").innerHTML = !open ? "" : byKind(st.pending).map((kind) => {
    const names = st.tied[kind] || [];
    const lines = st[KIND_WORDS[kind]] || [];
    const points = lines.length ? lines[0].points : "";
    const seed = Math.floor(Math.random() * 10000);
    const draw = `<form class="row tie-draw" data-kind="${kind}"><label>Seed (announce it first) <input type="number" min="0" class="tie-seed" value="${seed}"></label>
      <button class="big" type="submit">Draw high cards</button></form>`;
    const how = d.tie_break === "high-card"
      ? `<p>The rules break the tie by a high-card draw: in the order of their names, each draws a card from a deck shuffled with the seed; the highest card wins (suits do not count), and any still tied draw again.</p>${draw}`
      : `<p>The rules break the tie by a short play-off game, played now. When it is over, enter the winner:</p>
        <form class="row tie-playoff" data-kind="${kind}"><label>Winner of the play-off <select class="tie-winner"><option value="">— choose —</option>${names.map((n) => `<option>${esc(n)}</option>`).join("")}</select></label>
        <button class="big" type="submit">Enter the winner</button></form>
        <details class="tie-or-draw"><summary>Or a high-card draw, if time dictates</summary>${draw}</details>`;
    return `<div class="tie"><h3>First place among the ${KIND_WORDS[kind]} is tied</h3>
      <p>${names.map((n) => `<b>${esc(n)}</b>`).join(" and ")}: ${points} points each.</p>${how}</div>`;
  }).join("");
  for (const f of $$("#tie-body form.tie-draw")) {
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const seed = f.querySelector(".tie-seed").value;
      if (!confirm(`Draw high cards with seed ${seed}? The draw is final.`)) return;
      await breakTie({ kind: f.dataset.kind, seed });
    });
  }
  for (const f of $$("#tie-body form.tie-playoff")) {
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const winner = f.querySelector(".tie-winner").value;
      if (!winner) { $("#tie-error").textContent = "Choose the winner of the play-off."; return; }
      if (!confirm(`${winner} won the play-off?`)) return;
      await breakTie({ kind: f.dataset.kind, winner });
    });
  }
}
async function breakTie(body) {
  $("#tie-error").textContent = "";
  try {
    const r = await api(`/api/events/${ev.key}/tiebreak`, body);
    say(r.message);
    await showOrganiser();
    $("#org-standings").scrollIntoView({ behavior: "smooth" });
  } catch (err) { $("#tie-error").textContent = err.message; }
}

// ------------------------------------------------------------ paper sheets
async function openPaper(number) {
  const info = ev.data.rounds_info[ev.round - 1];
  const t = info.tables.find((x) => x.number === number);
  const correcting = Boolean(t.result && t.result.source === "paper");
  ev.paper = { round: ev.round, table: t, hands: 0 };
  $("#paper-title").textContent = `Round ${ev.round}, table ${number}: ${correcting ? "correct the score sheets" : "the score sheets"}`;
  $("#paper-hands").innerHTML = "";
  $("#paper-result").innerHTML = "";
  $("#paper-error").textContent = "";
  $("#paper-time").checked = false;
  // correcting: the sheets entered before, filled in, to change what is wrong
  let before = null;
  if (correcting) {
    try { before = await api(`/api/events/${ev.key}/paper?round=${ev.round}&table=${number}`); }
    catch (err) { $("#paper-error").textContent = err.message; }
  }
  $("#paper-correcting").hidden = !before;
  const entered = before ? before.hands : [];
  for (let h = 0; h < Math.max(t.hands, entered.length); h++) fillHand(addHand(), entered[h]);
  if (before) $("#paper-time").checked = before.time_called;
  $("#paper-panel").hidden = false;
  $("#paper-panel").scrollIntoView({ behavior: "smooth" });
}
function fillHand(div, hand) {
  if (!hand) return;
  div.querySelector(".went_out").value = hand.went_out === null ? "" : String(hand.went_out);
  $$(".team-entry", div).forEach((fs, k) => {
    const team = hand.teams[k];
    if (!team) return;
    setEntry(fs, team.entry === "totals" ? "totals" : "melds");
    for (const el of $$(".total", fs)) el.value = String((team.totals || {})[el.dataset.key] || 0);
    fs.querySelector(".melds").value = team.melds;
    for (const key of ["red_threes", "exact_deals", "short_openings", "penalties"]) {
      const el = fs.querySelector("." + key);
      if (el) el.value = String(team[key] || 0);
    }
    $$(".player-entry", fs).forEach((pe, j) => {
      const p = team.players[j] || { hand: "", foot: "" };
      pe.querySelector(".hand").value = p.hand;
      pe.querySelector(".foot").value = p.foot;
    });
  });
}
function addHand() {
  const p = ev.paper, t = p.table, f = ev.data.form;
  const h = p.hands++;
  const num = (cls, label) => `<label>${label} <input type="number" min="0" value="0" class="${cls}"></label>`;
  const teams = t.teams.map((tm, k) => `<fieldset class="team-entry" data-team="${k}" data-entry="melds"><legend>${esc(tm.label)}: ${tm.players.map(esc).join(" &amp; ")}</legend>
    <div class="row entry-choice" role="radiogroup" aria-label="How ${esc(tm.label)} is entered">
      <label class="check"><input type="radio" name="entry-${h}-${k}" value="melds" checked> Meld by meld</label>
      <label class="check"><input type="radio" name="entry-${h}-${k}" value="totals"> By totals, as on the printed sheet</label></div>
    <div class="by-melds">
    <label>Melds on the table, one a line <textarea class="melds" rows="4" spellcheck="false" placeholder="KH KD KS KC KH KD KS&#10;AH AD AC 2C"></textarea></label>
    ${tm.players.map((name) => `<div class="row player-entry"><b>${esc(name)}</b>
      <label>Cards left in hand <input class="hand" spellcheck="false" autocomplete="off"></label>
      <label>Foot, if never picked up <input class="foot" spellcheck="false" autocomplete="off"></label></div>`).join("")}
    </div>
    <div class="by-totals totals-grid" hidden>${f.totals.map((x) => `<label>${esc(x.label)} <input type="number" min="0" value="0" class="total" data-key="${esc(x.key)}"></label>`).join("")}</div>
    <div class="row">${f.red_threes ? num("red_threes", "Red 3s on the board") : ""}${f.exact_deals ? num("exact_deals", "Exact deals") : ""}${f.short_openings ? num("short_openings", "Short melds shown") : ""}${num("penalties", "Other penalties")}</div>
  </fieldset>`).join("");
  const div = document.createElement("div");
  div.className = "hand-entry";
  div.dataset.hand = String(h);
  div.innerHTML = `<h3>Hand ${h + 1}</h3><label>Went out <select class="went_out"><option value="">nobody</option>${t.teams.map((tm, k) => `<option value="${k}">${esc(tm.label)}</option>`).join("")}</select></label>${teams}`;
  for (const r of $$(".entry-choice input", div)) {
    r.addEventListener("change", () => setEntry(r.closest(".team-entry"), r.value));
  }
  $("#paper-hands").appendChild(div);
  return div;
}
// a team is entered meld by meld (with each player's cards left) or by totals
function setEntry(fs, entry) {
  fs.dataset.entry = entry;
  for (const r of $$(".entry-choice input", fs)) r.checked = r.value === entry;
  fs.querySelector(".by-melds").hidden = entry !== "melds";
  fs.querySelector(".by-totals").hidden = entry !== "totals";
}
function paperHands() {
  const hands = [...$$("#paper-hands .hand-entry")].map((div) => ({
    went_out: div.querySelector(".went_out").value === "" ? null : Number(div.querySelector(".went_out").value),
    teams: [...$$(".team-entry", div)].map((fs) => {
      const team = { entry: fs.dataset.entry, melds: fs.querySelector(".melds").value, players: [...$$(".player-entry", fs)].map((pe) => ({ hand: pe.querySelector(".hand").value, foot: pe.querySelector(".foot").value })), totals: {} };
      for (const el of $$(".total", fs)) team.totals[el.dataset.key] = Number(el.value || 0);
      if (team.entry === "totals") { team.melds = ""; team.players = team.players.map(() => ({ hand: "", foot: "" })); }
      for (const key of ["red_threes", "exact_deals", "short_openings", "penalties"]) {
        const el = fs.querySelector("." + key);
        if (el) team[key] = Number(el.value || 0);
      }
      return team;
    }),
  }));
  // hands left blank at the end were not played (time was called)
  const blank = (h) => h.went_out === null && h.teams.every((t) => !t.melds.trim() && t.players.every((p) => !p.hand.trim() && !p.foot.trim()) && Object.values(t.totals).every((x) => !x) && !t.penalties && !t.red_threes && !t.exact_deals && !t.short_openings);
  while (hands.length > 1 && blank(hands[hands.length - 1])) hands.pop();
  return hands;
}
async function sendPaper(save) {
  const p = ev.paper;
  $("#paper-error").textContent = "";
  try {
    const r = await api(`/api/events/${ev.key}/paper`, { round: p.round, table: p.table.number, hands: paperHands(), time_called: $("#paper-time").checked, save });
    const head = r.teams.map((n, k) => `<th class="num">${esc(p.table.teams[k].label)}<br><span class="hint">${esc(n)}</span></th>`).join("");
    const rows = r.hands.map((h, i) => `<tr><td>Hand ${i + 1}</td>${h.map((x) => `<td class="num">${x}</td>`).join("")}</tr>`).join("");
    $("#paper-result").innerHTML = `<table class="standings"><tr><th></th>${head}</tr>${rows}<tr class="total"><td><b>Total</b></td>${r.totals.map((x) => `<td class="num"><b>${x}</b></td>`).join("")}</tr></table>` +
      `<p class="${r.saved ? "done" : ""}">${r.saved ? "Saved. The standings are updated." : "Not saved yet: check the totals against the sheet, then save."}</p>`;
    if (save) { say(`Round ${p.round}, table ${p.table.number}: result saved.`); await showOrganiser(); }
  } catch (err) { $("#paper-error").textContent = err.message; }
}
$("#paper-add").addEventListener("click", () => addHand());
$("#paper-check").addEventListener("click", () => sendPaper(false));
$("#paper-save").addEventListener("click", () => sendPaper(true));
$("#paper-close").addEventListener("click", () => { $("#paper-panel").hidden = true; ev.paper = null; });

// ------------------------------------------------------------------ start
(async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  ev.key = parts[1] || null;
  try {
    if (!ev.key) await showList();
    else if (parts[2] === "organiser") await showOrganiser();
    else { await showPublic(); setInterval(() => { if (!document.hidden) showPublic(); }, 10000); }
  } catch (err) {
    show("ev-list");
    $("#event-list").innerHTML = `<p class="error">${esc(err.message)}</p><p><a href="/events">All events</a></p>`;
  }
})();
// chat at the event's tables: the organiser turns it on or off
$("#org-chat").addEventListener("change", async (e) => {
  try {
    const r = await api(`/api/events/${ev.key}/chat`, { on: e.target.checked });
    $("#org-message").textContent = r.chat ? "Chat is on at this event's tables." : "Chat is off at this event's tables.";
  } catch (err) { e.target.checked = !e.target.checked; $("#org-message").textContent = err.message; }
});
