// @ts-check
// Drag and drop in the hand: a card dropped on another card moves it there (the hand then
// keeps the person's own order); dropped on one of the team's melds, the card (or, if it
// is selected, all the selected cards) is added to it; the engine checks the move as it
// checks a click. Clicking and the keys keep working; on a touch screen a sideways drag
// reorders (an upward one scrolls the page, and a tap on the meld adds).
import { $ } from "./common.js";
import { moveCard, selectWith, setDragged } from "./state.js";
import { addTo, render } from "./table.js";

/** @type {{card: HTMLElement, x: number, y: number, id: number, moving: boolean, ghost: HTMLElement | null} | null} */
let drag = null;

export function setUpDragging() {
  const hand = $("#hand");
  hand.addEventListener("pointerdown", (/** @type {PointerEvent} */ e) => {
    const card = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest(".card[data-i]"));
    if (!card || e.button !== 0) return;
    drag = { card, x: e.clientX, y: e.clientY, id: e.pointerId, moving: false, ghost: null };
  });
  document.addEventListener("pointermove", (/** @type {PointerEvent} */ e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.moving) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 10) return;
      drag.moving = true;
      setDragged(true);
      drag.card.classList.add("dragging");
      drag.ghost = /** @type {HTMLElement} */ (drag.card.cloneNode(true));
      drag.ghost.classList.add("ghost");
      drag.ghost.removeAttribute("id");
      drag.ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(drag.ghost);
    }
    const ghost = /** @type {HTMLElement} */ (drag.ghost);
    ghost.style.left = `${e.clientX - 20}px`;
    ghost.style.top = `${e.clientY - 30}px`;
    for (const el of document.querySelectorAll(".drop-before, .meld.drop")) el.classList.remove("drop-before", "drop");
    const over = dropTarget(e.clientX, e.clientY);
    if (over && over.kind === "card") over.el.classList.add("drop-before");
    if (over && over.kind === "meld") over.el.classList.add("drop");
    e.preventDefault();
  });
  const end = (/** @type {PointerEvent} */ e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moving) return;
    d.ghost?.remove();
    d.card.classList.remove("dragging");
    for (const el of document.querySelectorAll(".drop-before, .meld.drop")) el.classList.remove("drop-before", "drop");
    setTimeout(() => { setDragged(false); }, 0);  // the click that follows a drag is not a tap
    if (e.type === "pointercancel") return;
    const over = dropTarget(e.clientX, e.clientY);
    const i = Number(d.card.dataset.i);
    // the hand in the person's own order: the dragged card goes just before the other
    if (over && over.kind === "card") { moveCard(i, Number(over.el.dataset.i)); render(); }
    else if (over && over.kind === "meld") {
      selectWith(i);
      addTo(Number(over.el.dataset.meld));
    }
  };
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", end);
}

/** What a card dropped at (x, y) lands on: another card of the hand, or a meld it may be added to.
 * @param {number} x @param {number} y @returns {{kind: "card" | "meld", el: HTMLElement} | null} */
function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const card = /** @type {HTMLElement | null} */ (el.closest("#hand .card[data-i]"));
  if (card && !card.classList.contains("dragging")) return { kind: "card", el: card };
  const meld = /** @type {HTMLElement | null} */ (el.closest("#melds .meld.target"));
  return meld ? { kind: "meld", el: meld } : null;
}
