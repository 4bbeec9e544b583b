"""Checks for grid games: `player decks`, `board`, `setup`, the grid round clauses, `score at end`.

Pipeline place: nodes → merge → checker (**grid checks**) → compiler. `run(checker)` is
called by `Checker.run`; `clause(checker, clause)` checks one grid clause of `round`. Every
problem goes through `checker.report`, in the rule language's own words.
"""
from __future__ import annotations

from ..compile.cardsets_expr import CARD_WORDS, REGIONS, SET_FUNCS, SETS, CardWords
from ..compile.exprs import BASE_NAMES, suggest
from . import check_cards
from . import nodes as n

MAX_CARDS = 1024
MAX_CELLS = 400
BOARD_WORDS = ("floating",)
ADJACENCY = ("adjacent8", "adjacent4")
EVENTS = {"placed": n.MoveCard, "revealed": n.RemoveRevealed}
RESERVED = set(BASE_NAMES) | set(SETS) | set(CARD_WORDS) | set(SET_FUNCS) | set(REGIONS) | {"abs"}
GRID_CLAUSES = (n.Choose, n.Reveal, n.PlaceRevealed, n.Draw)
TRICK_CLAUSES = (n.Deal, n.Pass, n.BidNumber, n.BidCard, n.TrumpFromBid, n.Tricks, n.Repeat)


def words_from_sections(sections: dict) -> CardWords:
    """The card words a rule file defines, for checking (masks are not needed yet)."""
    decks = sections.get("player decks")
    if decks is not None:
        kinds = {h.name.text: 0 for card in decks.cards for h in card.heads}
        kinds.update({c.text: 0 for c in decks.colours})
        seats = [0] * len(decks.colours)
        return CardWords(kinds, [], seats, "board" in sections, [])
    deck = sections.get("deck")
    kinds = {}
    for item in deck.items if deck else ():
        if isinstance(item, n.Suits):
            kinds.update({s.text: 0 for s in item.names})
        elif isinstance(item, (n.Special, n.ColourGroup)):
            kinds[item.name.text] = 0
    cards = dict.fromkeys(check_cards.deck_names(deck)[1], 0) if deck else {}
    return CardWords(kinds, [], None, "board" in sections, None, cards=cards, trumps=[] if deck else None)


def run(checker) -> None:
    """Every grid check in turn."""
    s = checker.s
    decks = s.get("player decks")
    if decks is not None and "deck" in s:
        checker.report(decks, "a game has either one shared `deck` or `player decks`, not both",
                       "remove one of them")
    if decks is not None:
        check_decks(checker, decks)
    elif any(k in s for k in ("board", "setup")):
        item = s.get("board") or s.get("setup")
        checker.report(item, f"`{'board' if 'board' in s else 'setup'}` needs cards that players own",
                       "declare `player decks black, white { ... }`")
    if "board" in s:
        check_board(checker, s["board"])
    if "setup" in s:
        check_setup(checker, s["setup"])
    check_round(checker)
    if "final score" in s:
        checker.exprs().compile(s["final score"].expr, "int")


# ---- cards ---------------------------------------------------------------------------------

def check_decks(checker, decks: n.PlayerDecks) -> None:
    colours = [c.text for c in decks.colours]
    low, high = checker.players_range
    if (low, high) != (len(colours), len(colours)):
        checker.report(decks, f"{len(colours)} colours of decks need exactly {len(colours)} players",
                       f"write `players {len(colours)}`, or list one colour per player")
    _unique(checker, decks.colours, "colour")
    heads = [h for card in decks.cards for h in card.heads]
    if not heads:
        checker.report(decks, "the player decks have no cards", "list cards like `sun 1 scores ...`")
    if len(heads) * len(colours) > MAX_CARDS:
        checker.report(decks, f"the decks have {len(heads) * len(colours)} cards; at most {MAX_CARDS} are supported")
    seen: dict[tuple, n.CardHead] = {}
    counts: dict[str, int] = {}
    for head in heads:
        counts[head.name.text] = counts.get(head.name.text, 0) + 1
    for head in heads:
        key = (head.name.text, head.number)
        if key in seen or (counts[head.name.text] > 1 and head.number is None):
            checker.report(head, f"two cards are both `{head.name.text}"
                                 f"{'' if head.number is None else ' ' + str(head.number)}`",
                           "cards that share a name need different numbers, like `flower 3, flower 4`")
        seen[key] = head
        _not_reserved(checker, head.name, colours)
    for colour in decks.colours:
        if colour.text in RESERVED:
            checker.report(colour, f"`{colour.text}` is a word of the rule language, not a colour")
    for card in decks.cards:
        check_card(checker, card)


def _unique(checker, names, what: str) -> None:
    seen = set()
    for name in names:
        if name.text in seen:
            checker.report(name, f"the {what} `{name.text}` is listed twice")
        seen.add(name.text)


def _not_reserved(checker, name: n.Name, colours) -> None:
    if name.text in RESERVED:
        checker.report(name, f"`{name.text}` is a word of the rule language and cannot name a card",
                       "pick another name")
    elif name.text in colours:
        checker.report(name, f"`{name.text}` is both a colour and a card", "pick another name")


def check_card(checker, card: n.CardDef) -> None:
    kinds = {}
    for clause in card.clauses:
        kind = type(clause) if not isinstance(clause, n.CardEffect) else (n.CardEffect, clause.event.text)
        if kind in kinds:
            checker.report(clause, "this card says this twice", "keep one rule of each kind per card")
        kinds[kind] = clause
        if isinstance(clause, n.CardScores):
            checker.exprs().card_rule().compile(clause.expr, "int")
        elif isinstance(clause, n.CardEffect):
            check_effect(checker, clause)
    if (n.CardSlides in kinds or any(isinstance(k, tuple) for k in kinds)) and "board" not in checker.s:
        checker.report(card, "this card is placed on a board, but the rules have no `board`",
                       "add `board 4x4, floating, place adjacent8`")


def check_effect(checker, clause: n.CardEffect) -> None:
    event = clause.event.text
    if not checker.word(clause.event, list(EVENTS), "moment for an effect"):
        return
    if not isinstance(clause.effect, EVENTS[event]):
        shown = "remove ... revealed cards" if isinstance(clause.effect, n.RemoveRevealed) else "move one ... card"
        other = next(e for e, kind in EVENTS.items() if isinstance(clause.effect, kind))
        checker.report(clause, f"`{shown}` happens `when {other}`, not `when {event}`",
                       f"write `when {other}, ...`")
    if isinstance(clause.effect, n.MoveCard):
        for word in clause.effect.words:
            allowed = set(checker.exprs().words.kinds) | {"own", "opponent", "other"}
            if word.text not in allowed:
                checker.report(word, f"`{word.text}` does not describe a card",
                               suggest(word.text, allowed) or "use own, opponent, other or a card name")


# ---- board and set-up -------------------------------------------------------------------------

def check_board(checker, board: n.Board) -> None:
    if board.rows < 1 or board.cols < 1:
        checker.report(board, "a board needs at least one row and one column")
    if board.rows * board.cols > MAX_CELLS:
        checker.report(board, f"a board of {board.rows * board.cols} cells is too large",
                       f"boards have at most {MAX_CELLS} cells")
    seen = set()
    for option in board.options:
        if option.kind in seen:
            checker.report(option, "the board says this twice")
        seen.add(option.kind)
        if option.kind == "word":
            checker.word(option.word, BOARD_WORDS, "kind of board")
        else:
            checker.word(option.word, ADJACENCY, "placement rule")


def check_setup(checker, setup: n.Setup) -> None:
    kinds = set()
    for clause in setup.clauses:
        if type(clause) in kinds:
            checker.report(clause, "set-up says this twice", "keep one clause of each kind")
        kinds.add(type(clause))
        if isinstance(clause, n.Draw):
            check_draw(checker, clause)
        elif isinstance(clause, n.Tiebreaker):
            checker.word(clause.who, ("random",), "way to hand out the tie-breaker")


def check_draw(checker, clause: n.Draw) -> None:
    decks = checker.s.get("player decks")
    size = sum(len(c.heads) for c in decks.cards) if decks else 0
    if clause.count > size:
        checker.report(clause, f"cannot draw {clause.count} cards from a deck of {size}")
    if clause.keep is not None:
        if clause.keep >= clause.count:
            checker.report(clause, f"keeping {clause.keep} of {clause.count} drawn cards keeps them all",
                           "keep fewer cards than are drawn")
        checker.word(clause.rest_to, ("bottom", "top"), "place in the deck")


# ---- the round ---------------------------------------------------------------------------------

def clause(checker, item) -> None:
    """One grid clause of `round` (called by `Checker.check_round`)."""
    if "player decks" not in checker.s:
        checker.report(item, "this round clause needs cards that players own",
                       "declare `player decks ...`, or use deal/bid/tricks for a trick game")
    if isinstance(item, n.PlaceRevealed):
        if item.pick not in ("highest", "lowest"):
            checker.report(item, f"cards are placed `highest` or `lowest` first, not `{item.pick}`")
        checker.word(item.attr, ("number",), "card attribute")
        if "board" not in checker.s:
            checker.report(item, "cards are placed, but the rules have no `board`",
                           "add `board 4x4, floating, place adjacent8`")
        setup = checker.s.get("setup")
        if item.ties_to_holder and not any(isinstance(c, n.Tiebreaker) for c in (setup.clauses if setup else ())):
            checker.report(item, "ties go to the tie-breaker holder, but nobody gets the token",
                           "add `tiebreaker to a random player` to `setup`")
    elif isinstance(item, n.Draw):
        check_draw(checker, item)


def check_round(checker) -> None:
    rnd = checker.s.get("round")
    clauses = rnd.clauses if rnd else ()
    grid = [c for c in clauses if isinstance(c, GRID_CLAUSES)]
    if not grid:
        if "player decks" in checker.s:
            checker.report(checker.s["player decks"], "the rules never say what players do in a round",
                           "add `round { choose a card, simultaneous  reveal  place revealed cards, ... }`")
        return
    tricks = [c for c in clauses if isinstance(c, TRICK_CLAUSES)]
    if tricks:
        checker.report(tricks[0], "a round either plays tricks or places cards, not both")
    kinds = {type(c) for c in grid}
    needs = [(n.Reveal, n.Choose, "cards are revealed, but nobody chooses one", "add `choose a card, simultaneous`"),
             (n.PlaceRevealed, n.Reveal, "cards are placed before they are revealed", "add `reveal`"),
             (n.Choose, n.Reveal, "chosen cards are never revealed", "add `reveal`"),
             (n.Reveal, n.PlaceRevealed, "revealed cards are never placed",
              "add `place revealed cards, highest number first`")]
    for have, need, message, hint in needs:
        if have in kinds and need not in kinds:
            checker.report(next(c for c in grid if isinstance(c, have)), message, hint)
