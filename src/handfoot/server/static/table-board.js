// @ts-check
// The table's board drawn from the view the server sent: the turn, pile and stock, the
// other players, the melds (compact on a phone, opened with a tap), the hand.
// Nothing here decides a rule: what may be done comes from the server's legal moves.
// Only drawing: the taps and clicks on what is drawn are handled by table.js.
import { $, cardHTML, cardText, esc } from "./common.js";
import { current, myTeamIndex, setOrder, table } from "./state.js";

/** @typedef {import("./state.js").Meld} Meld @typedef {import("./state.js").Team} Team */

const RANK_NAMES = /** @type {Record<string, string>} */ ({ A: "ace", K: "king", Q: "queen", J: "jack" });
const SUIT_NAMES = /** @type {Record<string, string>} */ ({ C: "clubs", D: "diamonds", H: "hearts", S: "spades" });
// a card's accessible name: "queen of hearts", "10 of spades", "joker"
/** @param {string} code */
export function cardName(code) {
  if (code === "JK") return "joker";
  const rank = code.slice(0, -1);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[code.slice(-1)]}`;
}
/** @param {number} n @param {string} word @param {string} [many] */
export function plural(n, word, many) { return `${n} ${n === 1 ? word : (many || word + "s")}`; }
/** @param {number} i a seat */
function isMe(i) { const s = current(); return s.seat !== null && i === s.seat; }
/** @param {number} i a seat */
function isPartner(i) {
  const s = current(), v = s.view;
  return s.seat !== null && i !== s.seat && v.players[i].team === v.players[s.seat].team;
}
// a seat as this viewer knows it (as the server's move log says it): "You", "Your partner", "Ann"
/** @param {number} i a seat */
export function seatLabel(i) {
  const s = current(), seat = s.seats[i];
  const name = seat.called || (seat.name && seat.name !== "You" ? seat.name
    : seat.kind === "bot" ? `Computer ${i + 1}` : `Player ${i + 1}`);
  if (isMe(i)) return "You";
  if (isPartner(i)) {
    const partners = s.view.players.filter((p) => isPartner(p.seat)).length;
    if (partners === 1 && name === `Player ${i + 1}`) return "Your partner";
    return partners === 1 && !name.includes("(") ? `${name} (your partner)` : `Your partner ${name}`;
  }
  return name;
}
/** @param {number} i a seat */
function seatTitle(i) {
  const seat = current().seats[i];
  const away = seat.kind === "human" && seat.computer ? " (computer playing)" : seat.away ? " (left the table)" : "";
  return seatLabel(i) + away;
}

export function renderTop() {
  const s = current(), v = s.view, me = s.seat;
  const team = v.teams[myTeamIndex()];
  const turn = v.game_over ? "Game over" : s.waiting ? `Hand ${s.waiting.hand} is over`
    : v.actor === me ? "Your turn" : `${seatLabel(v.actor)}'s turn`.replace("You's", "Your");
  $("#info").innerHTML = `<span class="turn ${v.actor === me && !v.game_over && !s.waiting ? "mine" : ""}">${esc(turn)}</span>
    <span class="this-hand">Hand ${v.hand_number} of ${v.hands_in_game}</span>
    <span class="this-hand to-open">${me === null ? "" : team.opened ? "Your team has opened" : team.minimum ? `To open: ${team.minimum} points` : "To open: any points"}</span>
    <span class="totals">${v.totals.map((t, i) => `${i === myTeamIndex() && me !== null ? "Us" : "Team " + (i + 1)} ${t}`).join(" · ")}</span>
    ${s.seeded ? '<span class="seeded" title="Dealt from a seed chosen when the table was set up: whoever chose it can know every card.">Seeded deal: not fair</span>' : ""}`;
  const reason = s.pile_reason;
  $("#pile").innerHTML = `<span class="zone-name">Pile</span>${v.pile_top ? cardHTML(v.pile_top, "", `role="img" aria-label="${cardName(v.pile_top)} on top"`) + `<span class="count">${plural(v.pile_size, "card")}</span>` : "<i>empty</i>"}`;
  $("#pile").classList.toggle("blocked", Boolean(reason));
  $("#pile-why").textContent = reason || "";
  $("#pile-why").hidden = !reason;
  $("#stock").innerHTML = `<span class="zone-name">Stock</span><span class="card back" aria-hidden="true"></span><span class="count">${plural(v.stock_size, "card")}</span>`;
}

export function renderOthers() {
  const s = current(), v = s.view, me = s.seat;
  $("#others").innerHTML = v.players.filter((p) => p.seat !== me).map((p) => `<div class="player ${p.seat === v.actor && !v.game_over ? "acting" : ""} ${s.seats[p.seat].away ? "away" : ""} ${isPartner(p.seat) ? "partner" : ""}" data-seat="${p.seat}">
    <b>${esc(seatTitle(p.seat))}</b>${s.seats[p.seat].rating != null ? ` <span class="rating">rated ${s.seats[p.seat].rating}</span>` : ""} <span class="counts">hand ${p.hand_count} · ${p.in_foot ? "in foot" : "foot " + p.foot_count}</span>
    ${me !== null && (localStorage.getItem("hf-creator-" + table.id) || s.seats[p.seat].hand_over) && !s.waiting_to_start && s.seats[p.seat].kind === "human" && !s.seats[p.seat].computer && !s.seats[p.seat].connected
      ? `<button class="away" data-seat="${p.seat}">Away: let the computer play</button>` : ""}</div>`).join("");
}

/** The book a meld is on its way to, in the rule set's words ("black canasta").
 * @param {Meld} m */
function goal(m) {
  const w = table.bookWords;
  return (m.kind === "wild" ? w.wild : m.kind === "sequence" ? w.sequence : m.wilds ? w.dirty : w.clean) || w.book;
}
// a meld as a chip (rank, count, clean or dirty) that opens with a tap to show its cards
/** @param {Meld} m @param {Team} t @param {{target: boolean, laidOut: boolean, takeBack: boolean}} opts */
function meldHTML(m, t, opts) {
  const key = `${t.team}-${m.index}`;
  const open = table.openMelds.has(key);
  const cls = ["meld", m.complete ? "book" : "", m.wilds ? "dirty" : "clean", opts.target ? "target" : "",
    opts.laidOut ? "laid-out" : "", open ? "open" : "", table.newMelds.has(key) ? "appear" : ""].join(" ");
  // a complete book shows its rank's card (opened, all of them)
  const shown = m.complete && !open ? [m.cards.find((c) => c !== "JK" && !c.startsWith("2")) || m.cards[0]] : m.cards;
  const takeBack = opts.takeBack ? `<button class="take-back" data-meld="${m.index}" aria-keyshortcuts="B">Take back<span class="key"> (B)</span></button>` : "";
  return `<div class="${cls}" data-meld="${m.index}" data-team="${t.team}" data-key="${key}">
    <button class="chip" type="button" aria-expanded="${open}">
      <b><span class="sr-only">Meld </span>${m.index + 1}.</b> ${esc(m.label)} <span class="n">×${m.cards.length}<span class="sr-only"> cards</span></span> <span class="tag ${m.book || (m.wilds ? "dirty" : "clean")}">${esc(m.complete ? (m.book_name || table.bookWords[m.book || ""] || table.bookWords.book) : `${m.needs} more to a ${goal(m)}`)}</span>${opts.target ? '<span class="sr-only">; select cards and tap to add</span>' : ""}</button>
    <span class="cards">${shown.map((c) => cardHTML(c, "small", `role="img" aria-label="${cardName(c)}"`)).join("")}${shown.length < m.cards.length ? `<span class="more">+${m.cards.length - shown.length}</span>` : ""}</span>${takeBack}</div>`;
}
/** @param {Team} t @param {Meld[]} melds @param {{canAdd: boolean, takeBack: Set<number>}} opts */
function teamHTML(t, melds, opts) {
  const s = current(), me = s.seat, mine = t.team === myTeamIndex() && me !== null;
  const laidOut = !t.opened && melds.length > 0;
  const head = (mine ? "Your team" : "Team " + (t.team + 1)) +
    (t.opened ? "" : laidOut ? ` (laid out, not down yet: ${t.laid_out_points} of ${t.minimum})`
      : t.minimum ? ` (not opened: ${t.minimum} points to open)` : " (not opened)") +
    (t.books_to_go_out ? ` — to go out: ${t.books_to_go_out}` : t.opened ? " — can go out" : "");
  return `<div class="team ${mine ? "mine" : ""}"><h3>${esc(head)}</h3>
    <div class="meld-list">${melds.map((m) => meldHTML(m, t, {
      target: opts.canAdd && mine, laidOut, takeBack: mine && opts.takeBack.has(m.index) })).join("") || "<p>No melds yet.</p>"}</div>
    ${t.red_threes.length ? `<p>Red 3s: ${t.red_threes.map(cardText).join(" ")}</p>` : ""}</div>`;
}
export function renderMelds() {
  const s = current(), v = s.view;
  const legal = s.legal || [];
  const canAdd = legal.some((a) => a.type === "add");
  const takeBack = new Set(legal.filter((a) => a.type === "take-back").map((a) => a.meld));
  // mine first: the melds a person plays on
  const teams = [...v.teams].sort((a, b) => Number(b.team === myTeamIndex()) - Number(a.team === myTeamIndex()));
  $("#melds").innerHTML = teams.map((t) => teamHTML(t, t.melds, { canAdd, takeBack })).join("");
}

// the hand in the order the person chose: by rank (as sent), by suit, or their own
const SUIT_ORDER = /** @type {Record<string, number>} */ ({ C: 0, D: 1, H: 2, S: 3, K: 4 });
const RANK_ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK"];
function handOrder() {
  const hand = current().view.hand;
  const idx = hand.map((_, i) => i);
  if (table.sort === "suit") {
    const rank = (/** @type {string} */ c) => RANK_ORDER.indexOf(c === "JK" ? "JK" : c.slice(0, -1));
    return idx.sort((a, b) => (SUIT_ORDER[hand[a].slice(-1)] - SUIT_ORDER[hand[b].slice(-1)]) || (rank(hand[a]) - rank(hand[b])) || a - b);
  }
  if (table.sort === "own" && table.ownOrder.length) {
    /** @type {number[]} */
    const out = [], used = new Set();
    for (const code of table.ownOrder) {
      const i = idx.find((k) => hand[k] === code && !used.has(k));
      if (i !== undefined) { used.add(i); out.push(i); }
    }
    return out.concat(idx.filter((k) => !used.has(k)));
  }
  return idx;
}
function freshIndices() {
  const s = current(), hand = s.view.hand, left = [...(s.fresh || [])], out = new Set();
  for (let i = hand.length - 1; i >= 0 && left.length; i--) {
    const k = left.indexOf(hand[i]);
    if (k >= 0) { left.splice(k, 1); out.add(i); }
  }
  return out;
}
export function renderHand() {
  const s = current(), v = s.view, me = s.seat;
  const box = $("#hand");
  // hand and foot still to be chosen (once chosen, the hand is shown while the others choose)
  if (v.phase === "choose" && me !== null && v.stack_tops.length && !v.hand.length) { renderStacks(); return; }
  const fresh = freshIndices();
  const order = handOrder();
  setOrder(order);
  box.setAttribute("aria-label", me === null ? "Hands are hidden" : `Your hand, ${plural(v.hand.length, "card")}`);
  box.innerHTML = order.map((i, pos) => {
    const c = v.hand[i], sel = table.selected.has(i);
    return cardHTML(c, (sel ? "selected " : "") + (fresh.has(i) ? "fresh" : ""),
      `tabindex="${pos === table.focus ? 0 : -1}" role="button" aria-pressed="${sel}" data-i="${i}" data-pos="${pos}" data-code="${c}" aria-label="${cardName(c)}${fresh.has(i) ? ", just drawn" : ""}"`);
  }).join("") || (me === null ? "<p>You are watching: hands are hidden.</p>" : "<p>No cards in your hand.</p>");
}
// hand and foot chosen by the player (alabama-samboree): the two stacks, each with its face-up card
function renderStacks() {
  const s = current(), v = s.view, me = /** @type {number} */ (s.seat);
  const tops = v.stack_tops[me];
  const legal = (s.legal || []).some((a) => a.type === "choose-hand");
  $("#hand").setAttribute("aria-label", "Your two stacks");
  $("#hand").innerHTML = `<div class="stacks">${[0, 1].map((k) => `<div class="stack">
      <span class="stack-name">Stack ${k + 1}</span>
      ${cardHTML(tops[k], "", `role="img" aria-label="${cardName(tops[k])} face up"`)}
      <span class="under">and the cards under it</span>
      <button class="take-stack big" id="act-choose-${k + 1}" data-stack="${k}" ${legal ? "" : "disabled"}>Take this stack as your hand</button></div>`).join("")}</div>
    <p class="stack-note">The other stack becomes your foot, for later.</p>`;
}
