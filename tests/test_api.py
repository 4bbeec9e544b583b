"""The public API contract (shared/design/architecture.md): names, notation, errors."""
from __future__ import annotations

import json

import pytest

import rulekit


def test_bundled_games_load_by_name():
    names = rulekit.bundled()
    assert {"instinct", "insidious-sevens"} <= set(names)
    for name in names:
        assert isinstance(rulekit.load(name), rulekit.Game)


def test_load_by_path_and_from_a_string(tmp_path):
    text = rulekit.load("instinct")  # noqa: F841 - the bundled copy loads
    source = (tmp_path / "mine.rules")
    from rulekit.api import _bundled_dir
    source.write_text((_bundled_dir() / "instinct.rules").read_text())
    by_path = rulekit.load(str(source))
    by_text = rulekit.loads(source.read_text())
    assert by_path.title == by_text.title == "Instinct"
    assert by_path.players == range(2, 7)


def test_unknown_game_is_a_rule_error():
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.load("no-such-game")
    assert "instinct" in str(caught.value), "the error lists the bundled games"


def test_unknown_variant_is_a_rule_error():
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.load("instinct", variant="shrot")
    assert "short" in str(caught.value)


def test_players_outside_the_range_are_refused():
    with pytest.raises(ValueError):
        rulekit.load("instinct").new_game(players=7)


def test_a_player_count_is_checked_once_for_every_entry_point():
    """`checked_players`: what `new_game`, `actions`, the adapters and the testing runner
    check a player count with; None gives 4 when the game allows it, else the fewest."""
    instinct, duell = rulekit.load("instinct"), rulekit.load("duell-der-tiere")
    assert instinct.checked_players() == 4 and duell.checked_players() == 2 and instinct.checked_players(3) == 3
    for bad in (7, 1, 1 << 20000, "4"):
        with pytest.raises(ValueError, match="is for 2..6 players"):
            instinct.checked_players(bad)


def test_moves_print_and_parse_in_the_contract_notation():
    state = rulekit.load("instinct").new_game(players=4, seed=7)
    assert [str(m) for m in state.legal_moves()][:3] == ["bid 0", "bid 1", "bid 2"]
    state.apply("  BID   3 ")
    assert state.history == ["bid 3"]
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    text = str(state.legal_moves()[0])
    assert text.startswith("play ")
    state.apply(text.upper())
    assert state.history[-1] == text


def test_an_illegal_move_names_the_legal_ones_and_changes_nothing():
    state = rulekit.load("instinct").new_game(players=4, seed=7)
    before = json.dumps(state.view())
    for bad in ["bid 12", "play blue 9", "", "jump", 42, None]:
        with pytest.raises(rulekit.IllegalMoveError) as caught:
            state.apply(bad)
        assert "bid 0" in str(caught.value) and "bid 11" in str(caught.value)
        assert json.dumps(state.view()) == before


def test_a_card_not_in_hand_is_illegal():
    state = rulekit.load("instinct").new_game(players=4, seed=7)
    for _ in range(4):
        state.apply("bid 1")
    hand = set(state.view()["hands"][state.current_player])
    missing = next(f"play {s} {r}" for s in ("black", "blue", "green", "red", "white") for r in range(1, 13)
                   if f"{s} {r}" not in hand)
    with pytest.raises(rulekit.IllegalMoveError) as caught:
        state.apply(missing)
    assert caught.value.legal == [str(m) for m in state.legal_moves()]


def test_moves_after_the_end_are_illegal():
    state = rulekit.load("instinct").new_game(players=2, seed=3)
    while not state.is_terminal:
        state.apply(state.legal_moves()[0])
    assert state.current_player is None and state.legal_moves() == []
    with pytest.raises(rulekit.IllegalMoveError):
        state.apply("bid 1")


def test_same_seed_same_game_and_different_seed_different_deal():
    game = rulekit.load("instinct")
    a, b, c = (game.new_game(players=4, seed=s) for s in (5, 5, 6))
    assert a.view() == b.view()
    assert a.view()["hands"] != c.view()["hands"]
    for _ in range(30):
        move = a.legal_moves()[-1]
        a.apply(move)
        b.apply(str(move))
    assert a.view() == b.view()


def test_clone_is_independent():
    state = rulekit.load("insidious-sevens").new_game(players=3, seed=2)
    copy = state.clone()
    before = state.view()
    while not copy.is_terminal:
        copy.apply(copy.legal_moves()[0])
    assert state.view() == before
    assert copy.is_terminal and not state.is_terminal


@pytest.mark.parametrize("name", ["instinct", "insidious-sevens"])
def test_restore_round_trips_at_every_step(name):
    game = rulekit.load(name)
    state = game.new_game(players=3, seed=8)
    for step in range(120):
        view = state.view()
        restored = game.restore(json.loads(json.dumps(view)))
        assert restored.view() == view
        assert [str(m) for m in restored.legal_moves()] == [str(m) for m in state.legal_moves()]
        state.apply(state.legal_moves()[step % len(state.legal_moves())])


def test_restored_state_plays_on_like_the_original():
    game = rulekit.load("insidious-sevens")
    state = game.new_game(players=4, seed=3)
    for _ in range(40):
        state.apply(state.legal_moves()[0])
    restored = game.restore(state.view())
    while not state.is_terminal:
        move = state.legal_moves()[-1]
        state.apply(move)
        restored.apply(str(move))
    assert restored.scores == state.scores and restored.winners == state.winners


def test_a_seat_sees_only_its_own_hand():
    state = rulekit.load("instinct").new_game(players=4, seed=1)
    for seat in range(4):
        view = state.view(seat)
        assert view["hands"][seat] == state.view()["hands"][seat]
        assert all(h is None for p, h in enumerate(view["hands"]) if p != seat)
        assert "undealt" not in view and "seed" not in view and "history" not in view
        assert view["hand_sizes"] == [11] * 4


def test_views_are_json_and_have_the_contract_keys():
    for name in ("instinct", "insidious-sevens"):
        state = rulekit.load(name).new_game(players=3, seed=1)
        view = state.view(0)
        json.dumps(view)
        for key in ("phase", "round", "current_player", "scores", "hands", "hand_sizes", "is_terminal",
                    "winners", "dealer", "leader", "bids", "tricks_won", "trick", "trump"):
            assert key in view, key


def test_view_of_a_bad_seat():
    state = rulekit.load("instinct").new_game(players=3, seed=1)
    with pytest.raises(ValueError):
        state.view(3)


def test_restore_rejects_nonsense():
    game = rulekit.load("instinct")
    with pytest.raises(rulekit.ViewError):
        game.restore({"players": 3, "hands": [["blue 99"], [], []], "phase": "play", "current_player": 0})
    with pytest.raises(rulekit.ViewError):
        game.restore({"players": 2, "hands": [["trump"] * 7, []], "phase": "play", "current_player": 0})


def test_rule_error_carries_diagnostics():
    with pytest.raises(rulekit.RuleError) as caught:
        rulekit.loads('game "x"\nplayers 2..4\ndeck { suits a, b\n ranks 1..3 }\nround { dealer rnadom }\n')
    error = caught.value
    assert isinstance(error, rulekit.RulekitError)
    dealer = next(d for d in error.diagnostics if "dealer" in d.message)
    assert (dealer.line, dealer.column) == (5, 16)
    assert any("never say when the game ends" in d.message for d in error.diagnostics)
    assert "did you mean `random`" in str(error)
    assert "^" in str(error)


@pytest.mark.parametrize("text", ["", "game", "}}}}", "x" * 5000, "players 1..2 players 3..4",
                                  "end when " + "-" * 3000 + "1", "table t { 1..0: 1 }",
                                  'extend "../../etc/passwd"', "\x00\x01", "deck { card x x0 }"])
def test_nothing_but_rule_error_escapes_loads(text):
    with pytest.raises(rulekit.RuleError):
        rulekit.loads(text)


def test_extend_and_override(tmp_path):
    (tmp_path / "house.rules").write_text('extend "instinct"\ngame "House Instinct"\n'
                                          "table bonus { 0: 5, else: 0 }\nend when max(score) >= 150\n")
    game = rulekit.load(str(tmp_path / "house.rules"))
    assert game.title == "House Instinct"
    assert game.variants == {"short": "Short game", "table": "Table play (Player Errors)"}
    state = game.new_game(players=3, seed=1)
    while not state.is_terminal:
        state.apply(state.legal_moves()[0])
    assert max(state.scores) >= 150


def test_last_round_shows_what_the_finished_round_left():
    state = rulekit.load("instinct").new_game(players=3, seed=4)
    assert state.view(1)["last_round"] is None
    while state.view()["round"] == 1:
        state.apply(state.legal_moves()[0])
    record = state.view(1)["last_round"]
    assert record["round"] == 1
    assert sum(record["tricks_won"]) == 11
    assert record["scores"] == state.scores
    made = [b == t for b, t in zip(record["bids"], record["tricks_won"])]
    assert [p > 0 for p in record["points"]] == made


def test_restore_needs_the_full_view():
    game = rulekit.load("instinct")
    state = game.new_game(players=3, seed=2)
    with pytest.raises(rulekit.ViewError, match="full view"):
        game.restore(state.view(0))


def test_a_games_rules_for_a_count_are_the_same_object_each_time_and_follow_the_variants():
    """`Game.ruleset` (asked by every `new_game`) answers a count it answered before from a
    table by the selected variants and the count."""
    game = rulekit.load("instinct")
    four = game.ruleset(4)
    assert game.ruleset(4) is four
    game.select("short")
    short = game.ruleset(4)
    assert short is not four and short.variants == ["short"] and game.ruleset(4) is short
    game.select(None)
    assert game.ruleset(4) is four and game.new_game(4, seed=1).rules is four
