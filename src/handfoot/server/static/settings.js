// @ts-check
// The settings in the page's header, kept in this browser: card size, a four-colour
// deck, a sound on this person's turn.
import { $ } from "./common.js";

export function applySettings() {
  const size = localStorage.getItem("hf-size") || "1.5";
  const four = localStorage.getItem("hf-four") === "1";
  document.documentElement.style.setProperty("--card", size);
  document.body.classList.toggle("four", four);
  $("#size").value = size; $("#fourcolour").checked = four;
}

export function soundOn() { return localStorage.getItem("hf-sound") === "1"; }

export function setUpSettings() {
  $("#size").addEventListener("input", (/** @type {any} */ e) => { localStorage.setItem("hf-size", e.target.value); applySettings(); });
  $("#fourcolour").addEventListener("change", (/** @type {any} */ e) => { localStorage.setItem("hf-four", e.target.checked ? "1" : "0"); applySettings(); });
  $("#sound").checked = soundOn();
  $("#sound").addEventListener("change", (/** @type {any} */ e) => localStorage.setItem("hf-sound", e.target.checked ? "1" : "0"));
  applySettings();
}
