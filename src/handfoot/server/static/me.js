// @ts-check
// A person's page (/me): their name, their games on this server (finished ones with the
// result and the replay, live ones to rejoin), their ratings beside the computer levels,
// whether they appear on the leaderboard, and the password for signing in elsewhere.
import { $, api, esc } from "./common.js";

/** @param {string} sel @param {(data: any) => Promise<void>} fn */
function onSubmit(sel, fn) {
  const form = $(sel);
  if (!form) return;
  form.addEventListener("submit", async (/** @type {Event} */ e) => {
    e.preventDefault();
    const out = /** @type {HTMLElement} */ (form.querySelector(".form-said"));
    try { await fn(Object.fromEntries(new FormData(form))); }
    catch (err) { if (out) out.textContent = /** @type {Error} */ (err).message; }
  });
}

/** @param {any} g one game */
function gameRow(g) {
  const when = new Date(g.created + "Z").toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  const partners = g.partners.length ? `with ${g.partners.map(esc).join(" and ")}` : "";
  const others = g.names.filter((/** @type {string} */ _, /** @type {number} */ i) => i !== g.seat && !g.partners.includes(g.names[i]));
  if (!g.over) {
    const token = localStorage.getItem("hf-token-" + g.table);
    const url = g.url + (token ? `?token=${encodeURIComponent(token)}` : "");
    return `<tr><td>${esc(when)}</td><td>${esc(g.rules)}</td><td>${partners} against ${others.map(esc).join(" and ")}</td>
      <td>playing</td><td>${token ? `<a href="${esc(url)}">Rejoin</a>` : `<button class="rejoin" data-table="${esc(g.table)}">Rejoin here</button>`}</td></tr>`;
  }
  const mine = g.totals[g.team], best = Math.max(...g.totals.filter((/** @type {number} */ _, /** @type {number} */ i) => i !== g.team));
  return `<tr><td>${esc(when)}</td><td>${esc(g.rules)}</td><td>${partners} against ${others.map(esc).join(" and ")}</td>
    <td class="${g.won ? "won" : "lost"}">${g.won ? "won" : "lost"} ${mine} to ${best}</td>
    <td><a href="${esc(g.replay)}">Replay</a>${g.next ? ` · <a href="/table/${esc(g.next)}">Next game</a>` : ""}</td></tr>`;
}

/** @param {any} me */
function draw(me) {
  $("#me-title").textContent = `${me.name}: your games`;
  const ratings = me.ratings.map((/** @type {any} */ r) => `<tr><td>${esc(r.rules)}</td><td class="num">${r.ordinal.toFixed(1)}</td>
    <td class="num">${r.mu.toFixed(1)} ± ${(2 * r.sigma).toFixed(1)}</td><td class="num">${r.games}</td><td>${esc(r.like)}</td></tr>`).join("");
  $("#me-body").innerHTML = `
  <section class="panel" aria-labelledby="ratings-title"><h3 id="ratings-title">Your ratings</h3>
    ${ratings ? `<table class="ratings"><tr><th>Rules</th><th class="num">Rating</th><th class="num">Skill</th><th class="num">Games</th><th>Beside the computer</th></tr>${ratings}</table>`
      : "<p>No rated game yet: finish a game with the rules as a preset has them (or close to them).</p>"}
    <p><label><input type="checkbox" id="me-board" ${me.leaderboard ? "checked" : ""}> Show me on the <a href="/leaderboard">leaderboard</a></label></p>
  </section>
  <section class="panel" aria-labelledby="games-title"><h3 id="games-title">Games (${me.games.length})</h3>
    ${me.games.length ? `<table class="games"><tr><th>When</th><th>Rules</th><th>Who</th><th>Result</th><th></th></tr>${me.games.map(gameRow).join("")}</table>`
      : '<p>No games yet. <a href="/">Start one</a>.</p>'}
  </section>
  <section class="panel" aria-labelledby="name-title"><h3 id="name-title">Your name and password</h3>
    <form id="rename" class="bar"><label>Name <input name="name" maxlength="40" value="${esc(me.name)}" required></label>
      <button type="submit">Change name</button> <span class="form-said" role="status"></span></form>
    <p class="hint">${me.password ? "You have a password: sign in with your name and it on another phone or computer to find your games there." :
      "To see your games on another phone or computer, set a password; then sign in there with your name and it."}</p>
    <form id="password" class="bar"><label>${me.password ? "New password" : "Password"} <input name="password" type="password" minlength="8" autocomplete="new-password" required></label>
      <button type="submit">Set password</button> <span class="form-said" role="status"></span></form>
  </section>`;
  $("#me-board").addEventListener("change", async (/** @type {any} */ e) => {
    try { draw(await api("/api/me", { leaderboard: e.target.checked })); }
    catch (err) { $("#me-error").textContent = /** @type {Error} */ (err).message; }
  });
  for (const b of document.querySelectorAll("button.rejoin")) {
    b.addEventListener("click", async () => {
      const id = /** @type {HTMLElement} */ (b).dataset.table;
      try {
        const r = await api(`/api/tables/${id}/rejoin`, {});
        localStorage.setItem("hf-token-" + id, r.token);
        location.href = `/table/${id}?token=${encodeURIComponent(r.token)}`;
      } catch (err) { $("#me-error").textContent = /** @type {Error} */ (err).message; }
    });
  }
  onSubmit("#rename", async (d) => draw(await api("/api/me", { name: d.name })));
  onSubmit("#password", async (d) => {
    await api("/api/me/password", { password: d.password });
    draw(await api("/api/me"));
    $("#password .form-said").textContent = "Password set.";
  });
}

function drawStranger() {
  $("#me-title").textContent = "Your games";
  $("#me-body").innerHTML = `<section class="panel"><h3>Who are you?</h3>
    <p>This browser has not played here yet. Say your name to start, or sign in with the name and
      password you set on another phone or computer.</p>
    <form id="new-me" class="bar"><label>Name <input name="name" maxlength="40" autocomplete="nickname" required></label>
      <button type="submit">Save</button> <span class="form-said error" role="alert"></span></form>
    <form id="sign-in" class="bar"><label>Name <input name="name" maxlength="40" autocomplete="username" required></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">Sign in</button> <span class="form-said error" role="alert"></span></form></section>`;
  onSubmit("#new-me", async (d) => draw(await api("/api/me", { name: d.name })));
  onSubmit("#sign-in", async (d) => draw(await api("/api/me/sign-in", { name: d.name, password: d.password })));
}

async function start() {
  let me;
  try { me = await api("/api/me"); } catch (e) { drawStranger(); return; }
  draw(me);
}
start();
