"""The card-predicate language: one set of words about cards in follow, lead and trick-winner
rules and in card sets of expressions (`count(taken, spades 12)`), with ranks compared to
numbers, named cards, colours, trumps and lead tests; cards that may always be played; the
lead set by the first card that matches. Tests of the language itself, on small rule texts.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

import rulekit
from rulekit.compile.deck import build_deck
from rulekit.compile.tricks import PredicateTables
from rulekit.dsl.parser import parse
from positions import legal_texts, play, position

SUITS = ("clubs", "diamonds", "hearts", "spades")


def rules(follow="otherwise -> same suit as lead if able", winner="otherwise -> highest card of lead suit",
          score="otherwise -> tricks", deck="", trump="none", players="3"):
    return f"""game "T"
players {players}
deck {{
  suits clubs, diamonds, hearts, spades
  ranks 2..10
  {deck}
  order rank
}}
round {{
  dealer first, then next
  deal 4 each
  trump {trump}
  tricks 4, first led by left of dealer, then by winner
}}
follow {{ {follow} }}
trick winner {{ {winner} }}
score {{ {score} }}
end after 1 rounds
"""


def at(game, hands, trick=(), trump=None):
    current = (trick[-1][0] + 1) % len(hands) if trick else 1
    return position(game, hands, current=current, dealer=0, trick=trick, trump=trump)


# ---- ranks, numbers and named cards ------------------------------------------------------------

@pytest.mark.parametrize("pred, wins", [
    ("rank = 7", 1), ("number >= 9", 2), ("rank != 3 and rank < 8", 1), ("rank <= 3", 0)])
def test_a_rank_comparison_picks_the_winner(pred, wins):
    game = rulekit.loads(rules(winner=f"any {pred} played -> first {pred}\n otherwise -> highest card of lead suit"))
    st = at(game, [["clubs 2"], ["clubs 7"], ["clubs 9"]], trick=[[0, "clubs 3"]])
    play(st, "play clubs 7", "play clubs 9")
    expected = [0, 0, 0]
    expected[wins] = 1
    assert st.view()["tricks_won"] == expected


def test_a_named_card_in_a_follow_rule():
    # with the ten of clubs led, the seven of hearts must be played if held
    game = rulekit.loads(rules(follow="lead is clubs 10 -> hearts 7 if able\n otherwise -> same suit as lead if able"))
    st = at(game, [["spades 2"], ["clubs 3", "hearts 7"], ["diamonds 4"]], trick=[[0, "clubs 10"]])
    assert legal_texts(st) == ["play hearts 7"]
    st = at(game, [["spades 2"], ["clubs 3", "hearts 7"], ["diamonds 4"]], trick=[[0, "clubs 9"]])
    assert legal_texts(st) == ["play clubs 3"]


def test_named_cards_and_ranks_in_card_sets():
    score = "otherwise -> 100 * count(taken, spades 10) + 10 * count(taken, rank >= 9) + count(taken, number = 2)"
    game = rulekit.loads(rules(score=score))
    st = position(game, [["clubs 2"], ["clubs 3"], ["clubs 4"]], current=0, dealer=0, tricks_won=[3, 0, 0])
    view = st.view()
    view["taken"] = [["spades 10", "spades 9", "hearts 2", "diamonds 5"], [], []]
    view["tricks_won"] = [3, 0, 0]
    view.pop("undealt", None)
    st = game.restore(view)
    play(st, "play clubs 2", "play clubs 3", "play clubs 4")
    assert st.scores == [100 + 20 + 1, 0, 1]     # seat 2 took the last trick, and the two of clubs


def test_trump_in_a_card_set_is_this_rounds_trump():
    game = rulekit.loads(rules(score="otherwise -> count(taken, trump)", trump="hearts"))
    view = position(game, [["clubs 2"], ["clubs 3"], ["clubs 4"]], current=0, dealer=0, trump="hearts").view()
    view["taken"] = [["hearts 2", "hearts 9", "spades 3"], [], []]
    view["tricks_won"] = [3, 0, 0]
    view.pop("undealt", None)
    st = game.restore(view)
    play(st, "play clubs 2", "play clubs 3", "play clubs 4")
    assert st.scores == [2, 0, 0]


# ---- one language: the same text names the same cards everywhere ------------------------------

ATOMS = ["clubs", "hearts", "spades 7", "diamonds 2", "rank = 5", "rank >= 8", "number < 4", "rank != 10"]


def predicate_texts():
    atom = hs.sampled_from(ATOMS)
    return hs.recursive(atom, lambda inner: hs.one_of(
        hs.builds(lambda a, b: f"({a} and {b})", inner, inner),
        hs.builds(lambda a, b: f"({a} or {b})", inner, inner),
        hs.builds(lambda a: f"not {a}", inner)), max_leaves=5)


@settings(max_examples=60, deadline=None)
@given(text=predicate_texts())
def test_a_predicate_names_the_same_cards_in_a_trick_and_in_a_card_set(text):
    source = rules(follow=f"otherwise -> {text} if able", score=f"otherwise -> count(hand, {text})")
    sections = {type(i).__name__: i for i in parse(source).items}
    deck = build_deck(sections["Deck"])
    mask = PredicateTables(deck).table(sections["Follow"].cases[0].result.pred)[0][0]
    in_trick = {deck.texts[c] for c in range(deck.size) if mask >> c & 1}
    game = rulekit.loads(source)
    in_set = {card for card in (f"{s} {r}" for s in SUITS for r in range(2, 11))
              if _counted(game, card)}
    assert in_trick == in_set


def _counted(game, card: str) -> bool:
    view = position(game, [[card], [], []], current=0, dealer=0).view()
    st = game.restore(view)
    return st.rules.score(st, 0) == 1


# ---- colours -------------------------------------------------------------------------------------

COLOURS = "colour red: diamonds, hearts\n  colour black: clubs, spades"


def test_same_colour_as_lead_means_the_colour_group_when_colours_are_declared():
    game = rulekit.loads(rules(follow="otherwise -> same colour as lead if able", deck=COLOURS))
    st = at(game, [["spades 2"], ["hearts 3", "clubs 7", "diamonds 9"], ["diamonds 4"]], trick=[[0, "hearts 10"]])
    assert legal_texts(st) == ["play diamonds 9", "play hearts 3"]


def test_without_colours_same_colour_is_same_suit():
    game = rulekit.loads(rules(follow="otherwise -> same colour as lead if able"))
    st = at(game, [["spades 2"], ["hearts 3", "clubs 7", "diamonds 9"], ["diamonds 4"]], trick=[[0, "hearts 10"]])
    assert legal_texts(st) == ["play hearts 3"]


def test_a_colour_name_is_a_predicate_and_a_card_word():
    game = rulekit.loads(rules(winner="any black played -> first black\n otherwise -> highest card of lead suit",
                               deck=COLOURS, score="otherwise -> count(taken, red)"))
    st = at(game, [["hearts 2"], ["clubs 3"], ["diamonds 9"]], trick=[[0, "hearts 10"]])
    play(st, "play clubs 3", "play diamonds 9")
    assert st.view()["tricks_won"] == [0, 1, 0]


# ---- always playable and the card that sets the lead --------------------------------------------

WIZARD_DECK = "card wizard x2\n  card jester x2"
WIZARD_FOLLOW = ("lead suit from first not jester\n lead is wizard -> any\n"
                 " otherwise -> same suit as lead if able, but wizard or jester may always be played")
WIZARD_WINNER = ("any wizard played -> first wizard\n any trump played -> highest trump\n"
                 " otherwise -> highest card of lead suit")


@pytest.fixture(scope="module")
def wizards():
    return rulekit.loads(rules(follow=WIZARD_FOLLOW, winner=WIZARD_WINNER, deck=WIZARD_DECK, trump="spades"))


def test_always_playable_cards_beside_the_obligation(wizards):
    st = at(wizards, [["clubs 2"], ["hearts 3", "hearts 5", "wizard", "spades 9"], ["clubs 4"]],
            trick=[[0, "hearts 10"]])
    assert legal_texts(st) == ["play hearts 3", "play hearts 5", "play wizard"]


def test_always_playable_cards_do_not_make_a_seat_able(wizards):
    st = at(wizards, [["clubs 2"], ["jester", "spades 9", "clubs 5"], ["clubs 4"]], trick=[[0, "hearts 10"]])
    assert legal_texts(st) == ["play clubs 5", "play spades 9", "play jester"]


def test_a_jester_led_sets_no_suit_and_the_next_card_does(wizards):
    st = at(wizards, [["clubs 2"], ["hearts 3", "clubs 5"], ["clubs 4", "hearts 9"]], trick=[[0, "jester"]])
    assert legal_texts(st) == ["play clubs 5", "play hearts 3"]      # no lead yet: anything
    st.apply("play hearts 3")
    assert legal_texts(st) == ["play hearts 9"]                      # hearts set the lead
    st.apply("play hearts 9")
    assert st.view()["tricks_won"] == [0, 0, 1]


def test_only_jesters_the_first_one_wins(wizards):
    st = at(wizards, [["clubs 2"], ["jester"], ["clubs 4"]], trick=[[0, "jester"]])
    st.apply("play jester")
    assert legal_texts(st) == ["play clubs 4"]
    st.apply("play clubs 4")
    assert st.view()["tricks_won"] == [0, 0, 1]                      # the four of clubs set the lead
    st = at(wizards, [["clubs 2"], ["jester"], ["wizard"]], trick=[[0, "jester"]])
    play(st, "play jester", "play wizard")
    assert st.view()["tricks_won"] == [0, 0, 1]


def test_the_first_wizard_wins_even_after_a_trump(wizards):
    st = at(wizards, [["clubs 2"], ["wizard"], ["wizard"]], trick=[[0, "spades 10"]])
    play(st, "play wizard", "play wizard")
    assert st.view()["tricks_won"] == [0, 1, 0]


def test_a_restored_trick_keeps_the_lead_set_by_its_second_card(wizards):
    st = at(wizards, [["clubs 2"], ["hearts 3"], ["clubs 4", "hearts 9"]], trick=[[0, "jester"], [1, "hearts 5"]])
    assert legal_texts(st) == ["play hearts 9"]
    assert wizards.restore(st.view()).view() == st.view()


def test_rule_files_without_the_new_words_use_the_plain_trick_step():
    from rulekit.engine.steps import Tricks
    from rulekit.engine.trick_rules import RuledTricks

    for name in rulekit.bundled():
        for step in rulekit.load(name).new_game(seed=1).rules.steps:
            assert not isinstance(step, RuledTricks)
    plain = rulekit.loads(rules()).new_game(players=3, seed=1).rules.steps
    assert any(getattr(type(s), "generated_from", type(s)) is Tricks for s in plain)    # written out or not


def test_determinize_learns_no_void_from_an_always_playable_card(wizards):
    # a seat that plays a wizard to a lead while holding the lead's suit has shown nothing
    from rulekit.engine.determinize import gather

    found = 0
    for seed in range(60):
        st = wizards.new_game(players=3, seed=seed)
        while not st.is_terminal and not found:
            view = st.view()
            mover, trick = st.current_player, view["trick"]
            hand = view["hands"][mover]
            if trick and trick[0][1] != "wizard" and "wizard" in hand and trick[0][1] != "jester":
                suit = trick[0][1].split()[0]
                if any(c.startswith(suit + " ") for c in hand):
                    st.apply("play wizard")
                    seen = gather(st, (mover + 1) % 3)
                    deck = st.rules.deck
                    suit_cards = sum(1 << c for c, t in enumerate(deck.texts) if t.startswith(suit + " "))
                    assert seen.forbidden[mover] & suit_cards == 0
                    other = st.determinize((mover + 1) % 3, seed=seed)
                    assert other.view((mover + 1) % 3) == st.view((mover + 1) % 3)
                    found += 1
                    break
            st.apply(st.legal_moves()[0])
        if found:
            return
    pytest.fail("no deal had a wizard played beside the lead's suit")


# ---- chains of obligations and first-trick cases ------------------------------------------------

MUST_TRUMP = "otherwise -> same suit as lead if able, else trump if able"


def test_a_seat_that_cannot_follow_must_trump_when_it_can():
    game = rulekit.loads(rules(follow=MUST_TRUMP, trump="spades",
                               winner="any trump played -> highest trump\n otherwise -> highest card of lead suit"))
    st = at(game, [["clubs 2"], ["spades 3", "diamonds 7", "spades 9"], ["diamonds 4"]], trick=[[0, "hearts 10"]],
            trump="spades")
    assert legal_texts(st) == ["play spades 3", "play spades 9"]
    st = at(game, [["clubs 2"], ["hearts 3", "spades 9"], ["diamonds 4"]], trick=[[0, "hearts 10"]], trump="spades")
    assert legal_texts(st) == ["play hearts 3"]
    st = at(game, [["clubs 2"], ["clubs 3", "diamonds 7"], ["diamonds 4"]], trick=[[0, "hearts 10"]], trump="spades")
    assert legal_texts(st) == ["play clubs 3", "play diamonds 7"]


def test_a_first_trick_case_applies_to_the_first_trick_only():
    game = rulekit.loads(rules(follow="first trick -> same suit as lead if able, else not hearts if able\n"
                                      " otherwise -> same suit as lead if able"))
    hands = [["clubs 2"], ["hearts 3", "diamonds 7"], ["diamonds 4"]]
    assert legal_texts(at(game, hands, trick=[[0, "clubs 10"]])) == ["play diamonds 7"]
    later = position(game, hands, current=1, dealer=0, trick=[[0, "clubs 10"]], tricks_won=[1, 0, 0])
    assert legal_texts(later) == ["play diamonds 7", "play hearts 3"]


def test_determinize_reads_what_a_chain_shows():
    # a seat that discards a diamond to a heart lead, with spades trump and must-trump,
    # has shown it holds neither hearts nor spades
    from rulekit.engine.determinize import gather

    game = rulekit.loads(rules(follow=MUST_TRUMP, trump="spades",
                               winner="any trump played -> highest trump\n otherwise -> highest card of lead suit"))
    deck = game.new_game(players=3, seed=0).rules.deck
    suit = {s: sum(1 << c for c, t in enumerate(deck.texts) if t.startswith(s + " ")) for s in SUITS}
    for seed in range(80):
        st = game.new_game(players=3, seed=seed)
        while not st.is_terminal:
            view = st.view()
            mover, before = st.current_player, st.hands[st.current_player]
            move = st.legal_moves()[-1]
            st.apply(move)
            played = before & ~st.hands[mover]
            led = view["trick"][0][1].split()[0] if view["trick"] else None
            if led and not played & suit[led] and not played & suit["spades"]:
                lacking = gather(st, (mover + 1) % 3).forbidden[mover]
                assert lacking & suit[led] == suit[led] and lacking & suit["spades"] == suit["spades"]
                return
    pytest.fail("no seat discarded")


def test_wizard_like_states_keep_every_invariant(wizards):
    from hypothesis import HealthCheck
    from rulekit import testing as rt

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rt.states(wizards, max_moves=40), hs.data())
    def check(state, data):
        rt.check_move(state, lambda s: data.draw(rt.moves(s)), game=wizards)
    check()
    assert rt.check_rules(wizards, games=3, seed=2).ok


def test_a_variant_adds_a_lead_section_and_an_extending_file_replaces_it(tmp_path):
    base = rules(deck="", trump="none") + """
variant no_clubs_lead "Clubs may not be led" {
  lead { otherwise -> not clubs if able }
}
"""
    (tmp_path / "base.rules").write_text(base)
    plain = rulekit.load(tmp_path / "base.rules")
    varied = rulekit.load(tmp_path / "base.rules", variant="no_clubs_lead")
    hands = [["clubs 2", "hearts 3"], ["clubs 4"], ["clubs 5"]]
    assert legal_texts(position(plain, hands, current=0, dealer=2)) == ["play clubs 2", "play hearts 3"]
    assert legal_texts(position(varied, hands, current=0, dealer=2)) == ["play hearts 3"]
    (tmp_path / "house.rules").write_text('extend "base.rules"\ngame "House"\nlead { otherwise -> clubs if able }\n')
    house = rulekit.load(tmp_path / "house.rules")
    assert legal_texts(position(house, hands, current=0, dealer=2)) == ["play clubs 2"]
