"use strict";
// ------------------------------------------------------------------ replay
async function showReplay(id) {
  $("#replay").hidden = false;
  if (!$("#replay .fair")) $("#replay-step").insertAdjacentHTML("afterend", ' <span class="fair"></span>');
  showFair(id, $("#replay .fair"));
  $("#replay-record").href = `/api/tables/${id}/record`;
  let step = 0, total = 0;
  let asked = 0;
  const go = async (n) => {
    step = Math.max(0, total ? Math.min(n, total) : n);  // at once, so quick clicks add up
    const mine = ++asked;
    const r = await api(`/api/tables/${id}/replay?step=${step}`);
    if (mine !== asked) return;  // a later click is on its way
    step = r.step; total = r.total;
    $("#replay-step").textContent = `step ${step} of ${total}`;
    $("#replay-slider").max = total; $("#replay-slider").value = step;
    const v0 = r.views[0];
    const last = v0.history.length ? v0.history[v0.history.length - 1] : null;
    $("#replay-body").innerHTML = `<p>Hand ${v0.hand_number}. ${last ? "Last: seat " + (last.seat + 1) + " — " + esc(last.type) + " " + esc(JSON.stringify(Object.fromEntries(Object.entries(last).filter(([k]) => k !== "type" && k !== "seat")))).replace(/[{}"]/g, " ") : ""} · pile ${v0.pile_top ? cardText(v0.pile_top) : "empty"} · stock ${v0.stock_size} · totals ${v0.totals.join(" / ")}</p>` +
      r.views.map((v) => `<div class="team"><b>Seat ${v.seat + 1}</b> (team ${v.players[v.seat].team + 1}) ${v.hand.map((c) => cardHTML(c, "small")).join("")}</div>`).join("") +
      v0.teams.map((t) => `<div class="team"><b>Team ${t.team + 1}</b> ${t.melds.map((m) => `<div class="meld">${esc(m.label)}: ${m.cards.map((c) => cardHTML(c, "small")).join("")}</div>`).join("")}</div>`).join("");
  };
  $("#replay-first").onclick = () => go(0);
  $("#replay-prev").onclick = () => go(step - 1);
  $("#replay-next").onclick = () => go(step + 1);
  $("#replay-last").onclick = () => go(total);
  $("#replay-slider").onchange = (e) => go(Number(e.target.value));
  await go(0);
}
