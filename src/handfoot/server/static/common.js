"use strict";
// Hand and Foot web client. The server is the authority: this page only shows the
// views it receives and sends actions; every rule is checked by the engine.
const $ = (s) => document.querySelector(s);
const hf = { state: null, selected: new Set(), ws: null, token: null,
             table: null, focus: 0, addMode: false, lastPreview: "" };
window.hf = hf;
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const KIND_LABEL = { "draw": "Draw (D)", "take-upcard": "Take the upcard",
  "pick-up-foot": "Pick up foot (F)", "end-turn": "End turn (E)", "ask": "Ask to go out (Q)" };

function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }
async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}
function cardHTML(code, extra = "", attrs = "") {
  if (code === "JK") return `<span class="card joker ${extra}" ${attrs}><span>★</span><span class="jk">JOKER</span></span>`;
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const cls = (suit === "H" || suit === "D" ? "red " : "") + "suit-" + suit.toLowerCase();
  return `<span class="card ${cls} ${extra}" ${attrs}><span>${rank}</span><span class="s">${SUITS[suit]}</span></span>`;
}
function cardText(code) { return code === "JK" ? "Joker" : code.slice(0, -1) + SUITS[code.slice(-1)]; }

// ---------------------------------------------------------------- settings
function applySettings() {
  const size = localStorage.getItem("hf-size") || "1.5";
  const four = localStorage.getItem("hf-four") === "1";
  document.documentElement.style.setProperty("--card", size);
  document.body.classList.toggle("four", four);
  $("#size").value = size; $("#fourcolour").checked = four;
}
$("#size").addEventListener("input", (e) => { localStorage.setItem("hf-size", e.target.value); applySettings(); });
$("#fourcolour").addEventListener("change", (e) => { localStorage.setItem("hf-four", e.target.checked ? "1" : "0"); applySettings(); });
