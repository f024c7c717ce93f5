"""A rule set told in plain words, for "This table's rules" at the table.

Each sentence is made from the rule set's own settings (and the books in its own
words), so a house rule shows up as the club plays it.

>>> from handfoot.rules import preset
>>> lines = rules_in_words(preset("classic"))
>>> lines[0]
'4 players in 2 teams of 2: partners sit across from each other.'
>>> any(line.startswith("To go out your team needs") for line in lines)
True
"""

from __future__ import annotations

from handfoot.rules import Rules

__all__ = ["rules_in_words"]


def _n(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def book_words(rules: Rules) -> dict[str, str]:
    """What the rule set's sheet calls a book and its kinds, for the table page's melds:
    {"book": "canasta", "clean": "red canasta", "dirty": "black canasta", ...}."""
    w = rules.words
    return {"book": w.book, **{kind: w.name(kind) for kind in
                               ("clean", "dirty", "wild", "sequence", "red-sevens")}}


#: each built-in rule set in one line for someone choosing a first game: where it comes
#: from and what is special about it
ABOUT: dict[str, str] = {
    "classic": "The game as it is usually described: any points open, with one clean and "
               "one dirty meld; clean and dirty books.",
    "texas-good-sam": "A Texas club's tournament sheet: one long hand with red and black "
                      "canastas; going out does not end it.",
    "alabama-samboree": "An Alabama club's tournament sheet: you choose hand or foot; "
                        "openings of 90, 120 and 150 points.",
    "samba": "Canasta Hand and Foot: same-suit runs (sambas) count as books; openings "
             "rise from 50 to 120.",
    "six-deck": "Six decks and four hands; openings rise from 50 to 150 points.",
}
#: the rule set chosen for someone's first game
FIRST_GAME = "classic"
#: turns in a hand, all seats together, as the medium computer players play it (the mean
#: of six seeded hands of each rule set): what a game's length is estimated from
TURNS_PER_HAND: dict[str, int] = {"classic": 55, "texas-good-sam": 93,
                                  "alabama-samboree": 44, "samba": 73, "six-deck": 55}
#: seconds a person's turn takes, and a computer player's (its moves shown one by one)
PERSON_TURN, COMPUTER_TURN = 30, 5


def game_minutes(rules: Rules, base: str, people: int) -> int:
    """About how long a game of ``rules`` takes with ``people`` people at the table (the
    others computer players), in minutes, rounded to five; ``base``: the built-in rule set
    it starts from."""
    seats = rules.players.seats
    turns = TURNS_PER_HAND.get(base, 60) * rules.game.hands
    per_turn = (people * PERSON_TURN + (seats - people) * COMPUTER_TURN) / seats
    return max(5, round(turns * per_turn / 60 / 5) * 5)


def going_on(rules: Rules) -> str | None:
    """Where going out does not end the hand: that play goes on, and why (None where
    going out ends it)."""
    if rules.going_out.hand_ends != "stock-drawn":
        return None
    bonus = "" if rules.scores.going_out else ", and going out earns no bonus"
    return ("In these rules going out does not end the hand: play goes on until the stock "
            f"has been drawn, so that every card laid down still scores{bonus}. A player "
            "who went out draws again on their next turn.")


def rules_in_words(rules: Rules) -> list[str]:
    """What opens, the pile, the melds, books to go out, the scores: one sentence each."""
    return [_players(rules), _deal(rules), _turn(rules), _opening(rules), *_pile(rules),
            _melds(rules), *_take_back(rules), _going_out(rules), *_scores(rules),
            _game(rules)]


def _players(rules: Rules) -> str:
    p = rules.players
    if p.teams == p.seats:
        return f"{p.seats} players, each on their own."
    size = p.seats // p.teams
    across = ": partners sit across from each other" if size == 2 else ""
    return f"{p.seats} players in {p.teams} teams of {size}{across}."


def _deal(rules: Rules) -> str:
    d = rules.deal
    text = f"Each player is dealt a hand of {d.hand_size} cards and a foot of {d.foot_size}"
    if d.choose_hand == "seeing-tops":
        text += ("; you see the top card of each stack and choose which one is your hand "
                 "(the other is your foot)")
    return text + "; the foot is picked up once the hand is played out."


def _turn(rules: Rules) -> str:
    t = rules.turn
    draw = (_join([str(n) for n in t.draw_by_hand]) + " cards, hand by hand,"
            if t.draw_by_hand else _n(t.draw, "card"))
    return (f"Each turn: draw {draw} from the stock or take the pile, lay down what you "
            "can, then discard one card.")


def _opening(rules: Rules) -> str:
    o = rules.opening
    if o.by_score:
        pts = _join([f"{m} once your team has {s}" for s, m in o.by_score])
        text = f"To open (your team's first lay-down) you need {pts} points"
    elif len(set(o.minimums)) == 1:
        text = (f"To open (your team's first lay-down) you need {o.minimums[0]} points"
                if o.minimums[0] else "Your team may open with any points")
    else:
        per = _join([f"{m} in hand {i + 1}" for i, m in enumerate(o.minimums)])
        text = f"To open (your team's first lay-down) you need {per}"
        if rules.game.hands > len(o.minimums):
            text += f" (and {o.minimums[-1]} after that)"
    needs = []
    if o.clean_melds:
        needs.append(_n(o.clean_melds, "clean meld"))
    if o.dirty_melds:
        needs.append(_n(o.dirty_melds, "dirty meld"))
    if o.books:
        needs.append(_n(o.books, f"complete {rules.words.book}"))
    if needs:
        text += ", with at least " + _join(needs)
    return text + "."


def _pile(rules: Rules) -> list[str]:
    p = rules.pile
    shows = {"natural-pair": "two natural cards of the top card's rank",
             "natural-and-wild": "one natural of that rank and a wild card",
             "meld-on-board": "a meld of that rank your team already has down"}
    how = " or ".join(shows[s] for s in p.show)
    if p.take_max == 0 and p.take_min == 0:
        count = "the whole pile"
    elif p.take_min == p.take_max:
        count = f"the top {p.take_min} cards"
    elif p.take_max == 0:
        count = f"at least {p.take_min} cards, up to the whole pile"
    else:
        count = f"{p.take_min} to {p.take_max} cards"
    out = [f"To take the pile, show {how}; you take {count}."]
    frozen = "A 3 or a wild card on top of the pile means nobody can take it"
    if p.min_size > 1:
        frozen += f", and it must hold at least {p.min_size} cards"
    out.append(frozen + ".")
    if p.before_opening == "never":
        out.append("Your team must have opened before it can take the pile.")
    else:
        out.append("A team that has not opened may take the pile to open with it.")
    if p.wild_freezes_until_taken:
        out.append("A wild card thrown on the pile freezes it until it is taken: "
                   "then only a natural pair takes it.")
    return out


def _melds(rules: Rules) -> str:
    m = rules.meld
    text = (f"A meld is {m.min_size} or more cards of one rank, at least {m.min_naturals} "
            f"of them natural and at most {m.max_wilds} wild (2s and jokers); "
            f"{m.book_size} cards make a {rules.words.book}")
    if m.sequences:
        text += f"; same-suit runs make a {rules.words.sequence}"
    return text + ". 3s are never melded." if rules.threes.black_melded == "never" \
        else text + "."


def _take_back(rules: Rules) -> list[str]:
    if not rules.turn.take_back_turn:
        return []
    return ["You may take back the cards you added and the melds you laid this turn, "
            "until you discard (a friendly table's house rule)."]


def _going_out(rules: Rules) -> str:
    g = rules.going_out
    w = rules.words
    books = []
    if g.clean_books:
        books.append(f"{g.clean_books} {w.name('clean', g.clean_books)}")
    if g.dirty_books:
        books.append(f"{g.dirty_books} {w.name('dirty', g.dirty_books)}")
    if g.wild_books:
        books.append(f"{g.wild_books} {w.name('wild', g.wild_books)}")
    if g.sequence_books:
        books.append(f"{g.sequence_books} {w.name('sequence', g.sequence_books)}")
    text = f"To go out your team needs {_join(books) or 'no books'}"
    text += ", and you must have played your foot"
    if g.permission and rules.players.teams != rules.players.seats:
        text += "; ask your partner first"
    return text + "."


def _scores(rules: Rules) -> list[str]:
    s = rules.scores
    w = rules.words
    books = [f"{w.name('clean')} {s.clean_book}", f"{w.name('dirty')} {s.dirty_book}"]
    if rules.meld.wild_melds:
        books.append(f"{w.name('wild')} {s.wild_book}")
    if rules.meld.sequences:
        books.append(f"{w.name('sequence')} {s.sequence_book}")
    values: dict[int, list[str]] = {}
    for rank, pts in s.values:
        values.setdefault(pts, []).append(rank)
    cards = "; ".join(f"{', '.join(ranks)}: {pts}" for pts, ranks in values.items())
    return [f"Scores: {_join(books)}, going out {s.going_out}.",
            f"Cards count (on the table, or against you if held at the end): {cards}; "
            f"a red 3 held {s.red_three_held}, a black 3 held {s.black_three_held}."]


def _game(rules: Rules) -> str:
    g = rules.game
    text = f"A game is {_n(g.hands, 'hand')}"
    if g.target_score:
        text += f", or until a team reaches {g.target_score}"
    return text + "."
