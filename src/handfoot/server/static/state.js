// @ts-check
// The table page's state: the last state message the server sent, and what this person
// is doing with it (the cards selected, the hand's order, the meld being added to). One
// object, `table`; only the functions below change it. Everything else reads it.

/** A card in the record notation: "QH", "10S", "JK". @typedef {string} Card */

/**
 * @typedef {object} Meld
 * @property {number} index
 * @property {string} kind "rank", "sequence" or "wild"
 * @property {string} label "Queens", "♥ sequence", "wild cards"
 * @property {Card[]} cards
 * @property {number} naturals
 * @property {number} wilds
 * @property {boolean} complete a book
 * @property {string | null} book "clean", "dirty", "wild", "sequence", "red-sevens" once complete
 * @property {number} needs cards still needed to complete the book
 * @property {string | null} [book_name] the book in the rule set's words ("red canasta")
 */

/**
 * @typedef {object} Team
 * @property {number} team
 * @property {number[]} seats
 * @property {boolean} opened gone down
 * @property {number} minimum the points this team needs to open in this hand
 * @property {Meld[]} melds
 * @property {Card[]} red_threes
 * @property {string | null} books_to_go_out what the team still needs in books to go out
 * @property {number} total the running score before this hand
 * @property {number} laid_out_points before going down: what the melds laid out are worth
 * @property {string | null} [short_warning] melds laid out short of the opening where taking them back costs a penalty: the warning
 */

/**
 * @typedef {object} Player
 * @property {number} seat
 * @property {number} team
 * @property {number} hand_count
 * @property {number} foot_count 0 once the foot is picked up
 * @property {boolean} in_foot
 * @property {number} foot_turns
 * @property {Card[]} known cards the whole table saw go into this hand
 */

/**
 * The game as one seat sees it (a spectator: the public view).
 * @typedef {object} View
 * @property {string} rules
 * @property {number | null} seat
 * @property {number} hand_number
 * @property {number} hands_in_game
 * @property {"choose" | "draw" | "play" | "ask" | "over"} phase
 * @property {number} turn whose turn it is
 * @property {number} actor who must act now (the partner, when asked to go out)
 * @property {Card[]} hand this seat's cards, by rank (a spectator: none)
 * @property {Player[]} players
 * @property {Team[]} teams
 * @property {Card | null} pile_top
 * @property {number} pile_size
 * @property {string | null} pile_frozen why the player to act cannot take the pile
 * @property {boolean} pile_has_wild
 * @property {number} stock_size
 * @property {Card[][]} stack_tops each seat's two face-up cards while hands are chosen
 * @property {boolean} asked_to_go_out
 * @property {boolean | null} permission
 * @property {number[][]} hand_scores each finished hand's score per team
 * @property {number[]} totals
 * @property {boolean} game_over
 * @property {number[]} winners
 */

/**
 * An action in the record's JSON form, as the engine lists it in `legal`.
 * @typedef {object} Action
 * @property {string} type "draw", "take-pile", "meld", "add", "discard", "go-down", ...
 * @property {Card} [card] a discard's card
 * @property {Card[]} [cards] a meld's or an add's cards
 * @property {number} [meld] the meld added to or taken back
 * @property {Card[]} [shown] the cards shown to take the pile
 * @property {number} [count]
 * @property {Card[][]} [opening] melds laid down with the pile
 * @property {number} [stack] the stack chosen as the hand
 * @property {boolean} [yes] the answer to "may we go out?"
 */

/**
 * @typedef {object} Seat
 * @property {number} seat
 * @property {"human" | "bot"} kind
 * @property {boolean} computer a computer player plays it now
 * @property {string | null} level
 * @property {string} name the name the seat was given (the person's own once they sit)
 * @property {string} [called] its name as the log says it ("Ann", "Computer (hard)")
 * @property {number | null} [rating] the person's rating at this table's rules
 * @property {boolean} [away] the person left the table
 * @property {boolean} [hand_over] away long enough: anyone seated may hand it to the computer
 * @property {boolean} connected
 * @property {boolean} joined
 */

/**
 * One move in the log, in this viewer's words.
 * @typedef {object} LogEntry
 * @property {number} seq
 * @property {number} hand
 * @property {number} seat
 * @property {string} kind the action's type
 * @property {string} text
 */

/**
 * The last finished hand's score.
 * @typedef {object} HandResult
 * @property {number} number
 * @property {"out" | "time" | "stock"} ended_by
 * @property {number | null} went_out
 * @property {{team: number, total: number, lines: [string, number][]}[]} teams
 */

/**
 * The server's state message: sent after every change, with this seat's own view.
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {string} table the table's id
 * @property {number} seq the moves made so far
 * @property {number | null} seat this viewer's seat (null: a spectator)
 * @property {string} rules the rule set's name
 * @property {Seat[]} seats
 * @property {boolean} waiting_to_start until every person has joined (or the host starts)
 * @property {View} view
 * @property {Action[]} legal the engine's moves for this seat, when it is to act
 * @property {HandResult | null} last_hand
 * @property {string | null} notice the monitor's word (the clock's warning, time called)
 * @property {boolean} time_called
 * @property {{hand: number, sha256: string}} commitment the deal's seal
 * @property {boolean} seeded dealt from a seed chosen when the table was set up (not a fair deal)
 * @property {LogEntry[]} log the recent moves, newest first
 * @property {Card[]} fresh the cards this seat just drew or took
 * @property {string | null} pile_reason why this seat could not take the pile
 * @property {Record<string, string>} [reasons] the greyed buttons of this seat's turn
 *   ("draw", "pile", "lay", "add", "discard", "go-down"), each with the engine's why
 * @property {Meld[][] | null} final_melds each team's melds when the last hand ended
 * @property {number | null} [went_out] the first seat to go out in this hand (where play goes on)
 * @property {{hand: number, ready: number[], people: number[]} | null} waiting
 *   between hands: who pressed "Next hand", and who is looked for
 */

/**
 * The server's word on a meld being selected.
 * @typedef {object} Preview
 * @property {boolean} ok
 * @property {string} message
 * @property {number} value
 * @property {number | null} [minimum] the opening minimum (null once the team is down)
 * @property {Record<string, string>} [reasons] the greyed buttons with these cards, and why
 */

/**
 * The table page's state.
 * @typedef {object} TableClient
 * @property {string | null} id the table's id
 * @property {string | null} token the invite's token (null: watching)
 * @property {StateMessage | null} state the last state message
 * @property {boolean} hintAllowed
 * @property {Record<string, string>} bookWords the rule set's words for its books
 * @property {string | null} goingOn where going out does not end the hand: that play goes on, and why
 * @property {Set<number>} selected indices into the hand (as sent) of the selected cards
 * @property {number} focus the position in the hand as shown of the card with the focus
 * @property {number[]} order the hand's indices in the order shown
 * @property {Card[]} ownOrder the hand in the person's own order (sort "own")
 * @property {"rank" | "suit" | "own"} sort
 * @property {boolean} dragged a drag just ended: the click after it is not a tap
 * @property {boolean} addMode a meld to add to is being chosen
 * @property {number} addNum the meld number typed so far
 * @property {Preview | null} preview the server's word on the selected cards
 * @property {string} previewKey the selected cards the preview was asked for
 * @property {Set<string>} openMelds the melds opened with a tap ("team-index")
 * @property {Set<string>} newMelds the melds new since the previous state
 * @property {number | undefined} lastSeq
 * @property {number | undefined} lastHand
 * @property {number | undefined} logSeen the newest move already shown in the log
 * @property {boolean} wasMine the last state was this person's turn
 */

const SORTS = ["rank", "suit", "own"];
const savedSort = localStorage.getItem("hf-sort") || "rank";

/** @type {TableClient} */
export const table = {
  id: null, token: null, state: null, hintAllowed: true,
  bookWords: { book: "book", clean: "clean book", dirty: "dirty book" }, goingOn: null,
  selected: new Set(), focus: 0, order: [], ownOrder: [],
  sort: /** @type {"rank" | "suit" | "own"} */ (SORTS.includes(savedSort) ? savedSort : "rank"),
  dragged: false, addMode: false, addNum: 0, preview: null, previewKey: "",
  openMelds: new Set(), newMelds: new Set(),
  lastSeq: undefined, lastHand: undefined, logSeen: undefined, wasMine: false,
};

// ------------------------------------------------------------------ changing it

/** The table this page shows, and the seat's token (none: watching).
 * @param {string} id @param {string | null} token */
export function openTable(id, token) { table.id = id; table.token = token; }

/** @param {boolean} allowed */
export function allowHints(allowed) { table.hintAllowed = allowed; }
/** @param {Record<string, string> | undefined} words */
export function setBookWords(words) { if (words) table.bookWords = words; }
/** @param {string | null | undefined} text */
export function setGoingOn(text) { table.goingOn = text || null; }
/** Why each greyed button of this turn is greyed: the server's word on the cards
 * selected, where it has come, else on the turn as it stands. @returns {Record<string, string>} */
export function reasons() {
  const s = table.state;
  const base = (s && s.reasons) || {};
  if (!table.selected.size) return base;
  const p = table.preview;
  if (p && p.reasons && table.previewKey === selectedKey()) return p.reasons;
  // (the selection's word not come yet: only what does not depend on it)
  return Object.fromEntries(Object.entries(base).filter(([k]) => !["lay", "add", "discard"].includes(k)));
}

/** A new state message: selections that no longer exist are forgotten; a move clears
 * the selection and its preview (and a new hand the person's own order).
 * @param {StateMessage} m
 * @returns {{previous: StateMessage | null, moved: boolean}} */
export function receiveState(m) {
  const previous = table.state, v = m.view;
  table.state = m;
  table.selected = new Set([...table.selected].filter((i) => i < v.hand.length));
  const moved = table.lastSeq !== undefined && table.lastSeq !== m.seq;
  if (moved) {
    table.selected.clear(); table.preview = null;
    if (table.lastHand !== v.hand_number) table.ownOrder = [];
  }
  table.lastSeq = m.seq; table.lastHand = v.hand_number;
  return { previous, moved };
}

/** The melds that were not on the table in the previous state (drawn as "appear");
 * none when the board is drawn again without a new state.
 * @param {StateMessage | null | undefined} previous */
export function markNewMelds(previous) {
  const now = /** @type {StateMessage} */ (table.state);
  table.newMelds = new Set();
  if (!previous || previous.view.hand_number !== now.view.hand_number) return;
  const before = new Set(previous.view.teams.flatMap((t) => t.melds.map((m) => `${t.team}-${m.index}`)));
  for (const t of now.view.teams) for (const m of t.melds) {
    const key = `${t.team}-${m.index}`;
    if (!before.has(key)) table.newMelds.add(key);
  }
}

/** A card tapped (or Space): selected, or no longer; the focus goes with it.
 * @param {number} i */
export function toggleCard(i) {
  if (table.selected.has(i)) table.selected.delete(i); else table.selected.add(i);
  const pos = table.order.indexOf(i);
  if (pos >= 0) table.focus = pos;
  table.addMode = false;
}

/** Only this card selected, unless it is already (a card dragged onto a meld).
 * @param {number} i */
export function selectWith(i) {
  if (!table.selected.has(i)) { table.selected.clear(); table.selected.add(i); }
}

export function clearSelection() { table.selected.clear(); table.addMode = false; }

/** @param {number} pos */
export function setFocus(pos) { table.focus = pos; }

/** The hand's order as drawn; the focus kept on a card of it.
 * @param {number[]} order */
export function setOrder(order) {
  table.order = order;
  if (table.focus >= order.length) table.focus = Math.max(0, order.length - 1);
}

/** @param {"rank" | "suit" | "own"} how */
export function setSort(how) {
  table.sort = how; localStorage.setItem("hf-sort", how);
  if (how !== "own") table.ownOrder = [];
}

/** The card at `from` (an index into the hand) dragged to just before `before`.
 * @param {number} from @param {number} before */
export function moveCard(from, before) {
  const hand = /** @type {StateMessage} */ (table.state).view.hand;
  const order = table.order.filter((k) => k !== from);
  order.splice(order.indexOf(before), 0, from);
  table.ownOrder = order.map((k) => hand[k]);
  setSort("own");
  table.focus = order.indexOf(from);
}

/** "Add to meld": the next tap on a meld (or its number typed) says which. */
export function startAdding() { table.addMode = true; table.addNum = 0; }
export function stopAdding() { table.addMode = false; }

/** A digit of the meld's number typed while adding; returns the number so far.
 * @param {number} digit */
export function typeMeldDigit(digit) { table.addNum = table.addNum * 10 + digit; return table.addNum; }
/** The meld's number typed, and the typing started again. */
export function takeMeldNumber() { const n = table.addNum; table.addNum = 0; return n; }

/** A preview asked for the selected cards (null: none asked, the selection too small).
 * @param {string} key */
export function askPreview(key) { table.preview = null; table.previewKey = key; }

/** @param {Preview} p */
export function setPreview(p) { table.preview = p; }

/** A meld opened with a tap (or closed again); returns whether it is open.
 * @param {string} key */
export function toggleMeldOpen(key) {
  if (table.openMelds.has(key)) table.openMelds.delete(key); else table.openMelds.add(key);
  return table.openMelds.has(key);
}

/** @param {boolean} on */
export function setDragged(on) { table.dragged = on; }

/** The newest move shown in the log (-1: none yet). @param {number} seq */
export function seeLog(seq) { table.logSeen = seq; }

/** Whether it is this person's turn now; returns whether it just became so.
 * @param {boolean} mine */
export function noteTurn(mine) { const now = mine && !table.wasMine; table.wasMine = mine; return now; }

// ------------------------------------------------------------------ reading it

/** The last state message (only called once one has come). */
export function current() { return /** @type {StateMessage} */ (table.state); }
/** @returns {Action[]} */
export function legal() { return table.state?.legal || []; }
export function legalKinds() { return new Set(legal().map((a) => a.type)); }
export function myTurn() {
  const s = table.state;
  return Boolean(s && s.seat !== null && s.view.actor === s.seat && !s.view.game_over && !s.waiting);
}
/** The selected cards, in the hand's order. @returns {Card[]} */
export function selectedCodes() {
  const hand = current().view.hand;
  return [...table.selected].sort((a, b) => a - b).map((i) => hand[i]);
}
export const selectedKey = () => selectedCodes().join(" ");
/** This viewer's team (a spectator: the first). */
export function myTeamIndex() { const s = current(); return s.seat === null ? 0 : s.view.players[s.seat].team; }
export function myTeamView() { const s = current(); return s.view.teams[s.view.players[/** @type {number} */ (s.seat)].team]; }
