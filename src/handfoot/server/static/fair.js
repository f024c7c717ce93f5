// @ts-check
// Provably fair deals.
import { $, api } from "./common.js";

// While a hand is played: the commitment to its deal, to compare with the record later.
/** @param {import("./state.js").StateMessage} s */
export function showSeal(s) {
  let el = $("#seal");
  if (!el) { $("#sheet-box").insertAdjacentHTML("afterend", '<p id="seal" class="hint"></p>'); el = $("#seal"); }
  el.classList.toggle("seeded", !!s.seeded);
  el.textContent = s.seeded
    ? "This table is dealt from a seed chosen when it was set up (for teaching or tests): whoever chose it can know every card. It is not a fair deal, and it is never called verified."
    : s.commitment ? `Hand ${s.commitment.hand} was dealt before play began; its deal is sealed with SHA-256 ${s.commitment.sha256} (the record opens the seal when the game is over).` : "";
  el.title = s.commitment ? s.commitment.sha256 : "";
}
// A finished game's deals, checked in this browser against the commitments shown when
// each hand was dealt, from the record alone (docs/records.md, "Provably fair deals"):
// the page does the hashing (Web Crypto), it does not take the server's word for it.

/** @param {string} text @returns {Promise<string>} SHA-256 of its UTF-8, as lowercase hex */
async function sha256hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * As `handfoot replay` checks them: every hand's deal (card order and exact-grab counts)
 * covered by exactly one commitment, in order, each matching.
 * @param {any} rec the game's record
 * @returns {Promise<{ok: boolean, hands: number, message: string}>}
 */
export async function checkDeals(rec) {
  const hands = Array.isArray(rec.hands) ? rec.hands : [];
  const cs = rec.commitments;
  const no = (/** @type {string} */ message) => ({ ok: false, hands: 0, message });
  if (!Array.isArray(cs)) return no("the record holds no commitments");
  for (let k = 0; k < cs.length; k++) {
    const n = cs[k] && cs[k].hand;
    if (n !== k + 1) return no(cs.slice(0, k).some((c) => c.hand === n) ? `hand ${n}: it has more than one commitment` : `hand ${k + 1}: no commitment covers its deal`);
  }
  const complete = Boolean(rec.result && rec.result.complete);
  if (cs.length < hands.length) return no(`hand ${cs.length + 1}: no commitment covers its deal`);
  if (cs.length > hands.length + (complete ? 0 : 1)) return no(`hand ${cs.length}: there is a commitment, but the record holds no such hand`);
  for (let i = 0; i < hands.length; i++) {
    const deal = hands[i].deal || {}, c = cs[i], grabs = deal.grabs || [];
    if (!Array.isArray(deal.order) || typeof c.salt !== "string" || typeof c.sha256 !== "string") return no(`hand ${i + 1}: the deal is not readable`);
    if (c.v !== 2 && grabs.length) return no(`hand ${i + 1}: its commitment does not cover the deal's exact-grab counts`);
    const text = deal.order.join(" ") + "\n" + (c.v === 2 ? grabs.join(" ") + "\n" : "") + c.salt;
    if (await sha256hex(text) !== c.sha256) return no(`hand ${i + 1}: the deal is not the one committed to when it was dealt`);
  }
  return { ok: true, hands: hands.length, message: "" };
}

/** @type {Record<string, string>} */
const fairWord = {};
/** @param {string} id @param {HTMLElement | null} el */
export async function showFair(id, el) {
  if (!el) return;
  if (!fairWord[id]) {
    try {
      const t = await api(`/api/tables/${id}`);
      const plural = (/** @type {number} */ n) => `${n} hand${n === 1 ? "" : "s"}`;
      if (!t.fair) fairWord[id] = "";
      else if (t.fair.seeded) fairWord[id] = "· not a fair deal: " + t.fair.message;
      else if (!(globalThis.crypto && crypto.subtle)) // (a page not served over https or from this computer)
        fairWord[id] = t.fair.verified ? `· deal verified (${plural(t.fair.hands)}) by the server` : "· deal NOT verified: " + t.fair.message;
      else {
        const r = await checkDeals(await api(`/api/tables/${id}/record`));
        fairWord[id] = r.ok ? `· deal verified (${plural(r.hands)}) by this browser, from the record` : "· deal NOT verified: " + r.message;
      }
    }
    catch (e) { fairWord[id] = ""; }
  }
  el.textContent = fairWord[id];
}
