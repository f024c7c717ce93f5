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
// A finished game's deals, checked against the commitments shown when each hand was dealt.
/** @type {Record<string, string>} */
const fairWord = {};
/** @param {string} id @param {HTMLElement | null} el */
export async function showFair(id, el) {
  if (!el) return;
  if (!fairWord[id]) {
    try { const t = await api(`/api/tables/${id}`); fairWord[id] = t.fair ? (t.fair.verified ? `· deal verified (${t.fair.hands} hand${t.fair.hands === 1 ? "" : "s"})` : t.fair.seeded ? "· not a fair deal: " + t.fair.message : "· deal NOT verified: " + t.fair.message) : ""; }
    catch (e) { fairWord[id] = ""; }
  }
  el.textContent = fairWord[id];
}
