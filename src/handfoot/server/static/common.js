// @ts-check
// Hand and Foot web client. The server is the authority: this page only shows the
// views it receives and sends actions; every rule is checked by the engine.
// What every part of the page uses: finding an element, escaping text, the JSON API, cards.

/** The element the selector finds (the page's own elements: there is one).
 * @param {string} selector
 * @returns {any} */
export const $ = (selector) => document.querySelector(selector);
/** Every element the selector finds (in `root`, else the page).
 * @param {string} selector @param {ParentNode} [root]
 * @returns {any[]} */
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const SUITS = /** @type {Record<string, string>} */ ({ C: "♣", D: "♦", H: "♥", S: "♠" });
const ESCAPES = /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" });

/** Text made safe to put in HTML. @param {unknown} t */
export function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ESCAPES[c]); }

/** GET `path` (no body) or POST `body` as JSON; the answer's JSON, or its error thrown.
 * @param {string} path @param {unknown} [body] @returns {Promise<any>} */
export async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

/** A card face. @param {string} code @param {string} [extra] classes @param {string} [attrs] */
export function cardHTML(code, extra = "", attrs = "") {
  if (code === "JK") return `<span class="card joker ${extra}" ${attrs}><span>★</span><span class="jk">Joker</span></span>`;
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const cls = (suit === "H" || suit === "D" ? "red " : "") + "suit-" + suit.toLowerCase();
  return `<span class="card ${cls} ${extra}" ${attrs}><span>${rank}</span><span class="s">${SUITS[suit]}</span></span>`;
}
/** "Q♥", "Joker". @param {string} code */
export function cardText(code) { return code === "JK" ? "Joker" : code.slice(0, -1) + SUITS[code.slice(-1)]; }
