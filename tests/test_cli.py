"""The `rulekit` command line (rulekit/cli.py), driven through click's CliRunner.

Contract: shared/design/architecture.md (move notation, view keys, errors); each test
names the rulebook sentence or contract line it rests on.
"""
import io
import json
import random
import re
import types
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulekit
from rulekit import cli

RULES = Path(__file__).resolve().parent.parent / "rules"
EXAMPLES = RULES.parent / "examples"
RULE_FILES = sorted(str(p) for p in RULES.glob("*.rules"))
#: Far more "1" answers than any 2-player game needs; the game ends long before they run out.
ALWAYS_FIRST = "1\n" * 5000


def run(*args, input=None):
    return CliRunner().invoke(cli.main, [str(a) for a in args], input=input)


def first_user_move(game: str, players: int, seed: int, seat: int = 0, variant=None) -> str:
    """What `play` offers first as move 1: the other seats play from random.Random(seed)."""
    state = rulekit.load(game, variant=variant).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while state.current_player != seat:
        state.apply(rng.choice(state.legal_moves()))
    return str(state.legal_moves()[0])


def rounds_as_played(game: str, players: int, seed: int, seat: int = 0) -> list[dict]:
    """Each round's `last_round` in the game `play` runs when the user always answers 1."""
    state = rulekit.load(game).new_game(players=players, seed=seed)
    rng, records = random.Random(seed), []
    while not state.is_terminal:
        state.apply(state.legal_moves()[0] if state.current_player == seat else rng.choice(state.legal_moves()))
        record = state.view(seat)["last_round"]
        if record is not None and (not records or record["round"] != records[-1]["round"]):
            records.append(record)
    return records


# ---- list ----------------------------------------------------------------------------------

def test_list_shows_every_bundled_game_with_title_and_players():
    result = run("list")
    assert result.exit_code == 0, result.output
    for name in rulekit.bundled():
        game = rulekit.load(name)
        assert name in result.output
        assert game.title in result.output
        assert f"{game.players[0]}" in result.output
        for variant in game.variants:
            assert variant in result.output


# ---- play ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", rulekit.bundled())
def test_play_a_whole_two_player_game_answering_one(name):
    # Contract: "Game.new_game(...) ──▶ State ── legal_moves() / apply(move)"; any
    # bundled game plays to its end when the user always takes the first legal move.
    result = run("play", name, "--players", 2, "--seed", 11, input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert "Game abandoned" not in result.output
    assert "Final scores" in result.output
    assert re.search(r"Game over after \d+ rounds\. Winners: (you|seat 1)", result.output)
    assert "seat 1: " in result.output          # the other seat's moves, one line each
    assert f"you: {first_user_move(name, 2, 11)}" in result.output


def test_play_with_a_variant_and_another_seat():
    # Instinct: "play until someone scores 60 points or until each player has dealt twice"
    result = run("play", "instinct", "-p", 3, "-s", 5, "--variant", "short", "--seat", 1, input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert "you are seat 1" in result.output
    assert "Game over after" in result.output
    assert f"you: {first_user_move('instinct', 3, 5, seat=1, variant='short')}" in result.output


def test_an_illegal_typed_move_is_refused_and_the_game_goes_on():
    # Contract: "apply of an illegal move raises rulekit.IllegalMoveError (it names the move
    # and the legal ones) and leaves the state exactly as it was."
    result = run("play", "instinct", "-p", 2, "-s", 3, "-v", "short", input="play nonsense\n" + ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    error = result.output.index("illegal move 'play nonsense'")
    assert "Legal moves:" in result.output[error:]
    # the state did not change: the first move the user makes is still the first one offered
    first_move = result.output.index("you: ")
    assert first_move > error
    assert result.output[first_move:].startswith(f"you: {first_user_move('instinct', 2, 3, variant='short')}\n")
    assert "Final scores" in result.output


def test_moves_can_be_typed_in_move_notation():
    # Contract: "`str(move)` is the move's text, and `apply` accepts that text. Case and
    # extra spaces do not matter."
    typed = first_user_move("instinct", 2, 4).upper().replace(" ", "   ")
    result = run("play", "instinct", "-p", 2, "-s", 4, input=typed + "\nq\n")
    assert result.exit_code == 0, result.output
    assert f"you: {first_user_move('instinct', 2, 4)}" in result.output


def test_a_number_off_the_list_asks_again():
    result = run("play", "instinct", "-p", 2, "-s", 4, input="99\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "no move number 99" in result.output
    assert f"you: {first_user_move('instinct', 2, 4)}" in result.output


@pytest.mark.parametrize("answers", ["q\n", "quit\n", ""])
def test_quit_or_end_of_input_leaves_cleanly(answers):
    result = run("play", "instinct", "-p", 2, "-s", 4, input=answers)
    assert result.exit_code == 0, result.output
    assert "Game abandoned." in result.output
    assert result.exception is None


def test_other_seats_hidden_choices_stay_face_down():
    # Sevens: "every player selects 1 card from their hand and places it face down in front
    # of them. Once all players have decided their bid, the cards are revealed simultaneously."
    result = run("play", "insidious-sevens", "-p", 3, "-s", 4, "--seat", 2, input="q\n")
    assert result.exit_code == 0, result.output
    assert "seat 0: bid (face down)" in result.output
    assert "seat 1: bid (face down)" in result.output
    assert not re.search(r"seat [01]: bid [a-z]+ \d", result.output)


def test_the_board_shows_hand_scores_and_numbered_moves():
    # Contract view keys: "scores", "hands", "bids", "trick", "trump".
    result = run("play", "insidious-sevens", "-p", 3, "-s", 4, "--seat", 2, input="1\n1\nq\n")
    state = rulekit.load("insidious-sevens").new_game(players=3, seed=4)
    assert "your hand: " in result.output
    assert re.search(r"^1\. bid \w+ \d", result.output, re.M)
    assert "round 1, play, trump:" in result.output
    assert re.search(r"\d \(\w+ \d\)", result.output)            # a revealed bid and its card
    assert "trick: " in result.output
    assert state.view(2)["hands"][2][0] in result.output


def round_block(output: str, number: int) -> str:
    start = output.index(f"— round {number} is over")
    end = output.find(f"round {number + 1}", start)
    return output[start:] if end < 0 else output[start:end]


def test_each_finished_round_shows_bids_tricks_points_and_scores():
    # Instinct: "If you capture exactly as many tricks as you bid, you get 10 points. If you
    # capture more or fewer tricks than you bid, you get 0 points." The round's table shows
    # each seat's bid, tricks captured, the points they earned and the running total.
    result = run("play", "instinct", "-p", 3, "-s", 5, input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    records = rounds_as_played("instinct", 3, 5)
    assert len(records) >= 2
    for record in records:
        block = round_block(result.output, record["round"])
        for seat, name in enumerate(["you", "seat 1", "seat 2"]):
            row = (rf"^\s+{name}\s+{record['bids'][seat]}\s+{record['tricks_won'][seat]}\s+"
                   rf"{re.escape(format(record['points'][seat], '+d'))}\s+{record['scores'][seat]}\s*$")
            assert re.search(row, block, re.M), block
    # the last round is shown too, before the final scores
    assert result.output.index(f"— round {records[-1]['round']} is over") < result.output.index("Final scores")


def test_every_trick_of_a_round_is_announced_the_last_one_included():
    # Instinct: "Round: A round consists of 11 tricks." The move that takes the last trick
    # also ends the round, so its taker is only in the view's `last_round`.
    result = run("play", "instinct", "-p", 3, "-s", 5, input=ALWAYS_FIRST)
    first_round = result.output[:result.output.index("— round 1 is over")]
    assert first_round.count(" took the trick") == 11


def test_a_game_without_bids_shows_only_tricks_and_points_per_round():
    # examples/plain-whist.rules: "score { otherwise -> tricks }" — a point a trick, no bidding.
    result = run("play", EXAMPLES / "plain-whist.rules", "-s", 3, input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    block = round_block(result.output, 1)
    header = next(line for line in block.splitlines() if "points" in line)
    assert header.split() == ["seat", "tricks", "points", "score"]
    tricks = [int(m[1]) for m in re.finditer(r"^\s+(?:you|seat \d)\s+(\d+)\s+\+\1\s", block, re.M)]
    assert len(tricks) == 4 and sum(tricks) == 13


def test_rounds_reports_each_finished_round_once():
    # `last_round` is None before the first round ends, then the round just finished.
    rounds = cli._Rounds()
    first = {"round": 1, "bids": [2, 0], "tricks_won": [2, 9], "points": [10, 0], "scores": [10, 0]}
    assert rounds.finished({"last_round": None}) is None
    assert rounds.finished({"last_round": first}) == first
    assert rounds.finished({"last_round": dict(first)}) is None
    assert rounds.finished({"last_round": dict(first, round=2)})["round"] == 2


@pytest.mark.parametrize("args", [("play", "no-such-game"), ("simulate", "no-such-game"),
                                  ("play", "instinct", "--variant", "no-such-variant"),
                                  ("play", "instinct", "--players", 9), ("simulate", "instinct", "-p", 1),
                                  ("play", "instinct", "-p", 2, "--seat", 2)])
def test_bad_game_variant_or_count_exits_2_without_a_traceback(args):
    result = run(*args, input="q\n")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    if "no-such-game" in args:
        # Contract: RuleError's `str()` lists the bundled games in its hint.
        assert "no rule file 'no-such-game'" in result.output
        assert all(name in result.output for name in rulekit.bundled())


# ---- grid display --------------------------------------------------------------------------

def render(renderable) -> str:
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_a_grid_view_is_drawn_with_the_squares_a_move_may_fill():
    # Contract: grid games' views have `display` (list of {"row", "col", "card", "owner"});
    # `place wolf at 1,2` is row,col in the frame where the first card lies at 0,0.
    display = [{"row": 0, "col": 0, "card": "lynx 3", "owner": 0},
               {"row": 0, "col": 1, "card": "hare 7", "owner": 1}]
    legal = ["place lynx 5 at -1, 0", "place lynx 5 at 1,2", "move hare 7 to 1,2", "slide lynx into row 0 from left"]
    text = render(cli._grid(display, 0, legal))
    lines = text.splitlines()
    assert "lynx 3" in text and "hare 7" in text
    assert "(1)" in text and "(2,3)" in text
    header = next(line for line in lines if re.search(r"\b0\b.*\b1\b.*\b2\b", line))
    assert "-1" not in header                       # columns 0..2, rows -1..1
    assert sum(1 for line in lines if re.match(r"│\s*-?1\s*│", line)) == 2
    assert cli._grid([], 0, ["slide lynx into row 0 from left"]) is None


def test_deck_sizes_and_tiebreaker_are_shown_when_present():
    view = {"game": "G", "phase": "place", "round": 2, "current_player": 0, "scores": [3, 4],
            "hands": [["lynx 5"], None], "hand_sizes": [1, 1], "deck_sizes": [9, 8], "tiebreaker": 1,
            "display": [{"row": 0, "col": 0, "card": "lynx 3", "owner": 0}], "winners": []}
    text = render(cli._board(view, 0, ["place lynx 5 at 0,1"], set()))
    assert re.search(r"you\s+3\s+1\s+9", text)
    assert re.search(r"seat 1\s+4\s+1\s+8\s+tiebreaker", text)
    assert "your hand: lynx 5" in text and "1. place lynx 5 at 0,1" in text


def test_a_grid_square_shows_its_points_and_every_move_onto_it():
    # grid views: each display entry may carry the "points" the card would score now; three
    # cards that may move to one square (`move cat to 0,3`) are three numbers there.
    display = [{"row": 0, "col": 0, "card": "lynx 3", "owner": 0, "points": 2},
               {"row": 0, "col": 1, "card": "hare 7", "owner": 1, "points": 0}]
    legal = [f"move {card} to 0,2" for card in ("lynx 3", "hare 7", "newt 1", "toad 4")]
    text = render(cli._grid(display, 0, legal))
    assert re.search(r"you \+2\s", text)
    assert "seat 1 +" not in text
    assert "(1,2,3,…)" in text


def test_revealed_removed_and_pending_effect_are_shown():
    # Duell: "Reveal your chosen card."; the Snake "Remove[s] the Snake AND your opponent's
    # card from the game"; the Raccoon: "After you placed it, you must move 1 of your other cards".
    view = {"game": "G", "phase": "place", "round": 3, "current_player": 0, "scores": [0, 0],
            "hands": [["lynx 5"], None], "hand_sizes": [1, 2], "winners": [], "display": [],
            "revealed": ["stag 11", None], "removed": [["newt 1"], ["adder"]],
            "pending_effect": {"seat": 0, "card": "stag 11", "effect": "move"}}
    text = render(cli._board(view, 0, ["move lynx 3 to 0,1"], set()))
    assert "revealed: you: stag 11\n" in text
    assert "out of the game: you: newt 1; seat 1: adder" in text
    assert "you: stag 11 still to resolve (move)" in text


def duell_answers(seed: int) -> list[str]:
    """Moves for seat 0 picked by random.Random(1000 + seed) in the game `play` runs from `seed`."""
    state = rulekit.load("duell-der-tiere").new_game(players=2, seed=seed)
    rng, mine, answers = random.Random(seed), random.Random(1000 + seed), []
    while not state.is_terminal:
        if state.current_player == 0:
            answers.append(str(mine.choice(state.legal_moves())))
            state.apply(answers[-1])
        else:
            state.apply(rng.choice(state.legal_moves()))
    return answers


@pytest.mark.skipif("duell-der-tiere" not in rulekit.bundled(), reason="the grid game is not bundled")
def test_a_grid_game_is_played_with_typed_placing_sliding_and_moving():
    # Duell: "Slide the Deer from outside the display into any row or column with 1–3 cards."
    # "After you placed it, you must move 1 of your other cards from the display to any other
    # empty space". Contract: `slide deer into row 1 from left`, `move cat to 0,3`; case and
    # extra spaces do not matter.
    seed, answers = next((seed, answers) for seed, answers in ((seed, duell_answers(seed)) for seed in range(20, 80))
                         if {"slide", "move"} <= {answer.split()[0] for answer in answers})
    result = run("play", "duell-der-tiere", "-s", seed, input="".join(a.upper().replace(" ", "  ") + "\n"
                                                                      for a in answers))
    assert result.exit_code == 0, result.output
    assert "illegal move" not in result.output
    for answer in answers:
        assert f"you: {answer}\n" in result.output
    assert "still to resolve (move)" in result.output
    assert "— round 1 is over (no points scored)" in result.output


@pytest.mark.skipif("duell-der-tiere" not in rulekit.bundled(), reason="the grid game is not bundled")
def test_points_scored_when_the_game_ends_are_shown_apart():
    # Duell: "The game ends at the end of a round once the 4×4 display is full ... Proceed to
    # scoring." Those points come after the last round, so the final table shows them apart.
    result = run("play", "duell-der-tiere", "-s", 3, input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    state = rulekit.load("duell-der-tiere").new_game(players=2, seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(state.legal_moves()[0] if state.current_player == 0 else rng.choice(state.legal_moves()))
    final = result.output[result.output.index("Final scores"):]
    added = [score - total for score, total in zip(state.scores, state.view()["last_round"]["scores"])]
    assert any(added)           # the display scores only at the end ("score at end" in the rule file)
    assert re.search(r"seat\s+at game end\s+score", final)
    for seat, name in enumerate(["you", "seat 1"]):
        assert re.search(rf"{name}\s+{re.escape(format(added[seat], '+d'))}\s+{state.scores[seat]}", final)


def test_a_tie_on_score_decided_by_tie_breaks_is_said():
    # Duell: "In case of a tie, the player who scored points with more cards wins."
    assert cli._tie_broken({"scores": [5, 5], "winners": [0]})
    assert not cli._tie_broken({"scores": [5, 5], "winners": [0, 1]})
    assert not cli._tie_broken({"scores": [6, 5], "winners": [0]})


# ---- simulate ------------------------------------------------------------------------------

def simulate_json(*args):
    result = run("simulate", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_simulate_json_gives_sane_numbers():
    # Instinct: "If there is a tie for high score, both players win the game." — shared wins
    # split a game, so the win shares add up to 1.
    summary = simulate_json("instinct", "--players", 4, "--games", 20, "--seed", 1)
    assert summary["games"] == 20 and summary["players"] == 4
    assert summary["decisions"] > 0
    assert summary["mean_decisions"] == summary["decisions"] / 20
    assert summary["mean_rounds"] >= 1
    assert sum(summary["win_share"]) == pytest.approx(1)
    assert len(summary["mean_score"]) == 4 and all(s >= 0 for s in summary["mean_score"])
    assert all(0 <= rate <= 1 for rate in summary["bid_success"])


def round_results(game: str, players: int, seeds) -> tuple[list[int], list[int]]:
    """Made and played rounds per seat, judged by each round's score change (see callers)."""
    made, rounds = [0] * players, [0] * players
    for seed in seeds:
        state = rulekit.load(game).new_game(players=players, seed=seed)
        rng, before = random.Random(seed), list(state.scores)
        while not state.is_terminal:
            round_ = state.view()["round"]
            state.apply(rng.choice(state.legal_moves()))
            if state.is_terminal or state.view()["round"] != round_:
                for seat in range(players):
                    made[seat] += state.scores[seat] > before[seat]
                    rounds[seat] += 1
                before = list(state.scores)
    return made, rounds


@pytest.mark.parametrize("game, players", [("instinct", 3), ("insidious-sevens", 3)])
def test_bid_success_is_the_share_of_rounds_bid_exactly(game, players):
    # Instinct: "If you capture exactly as many tricks as you bid, you get 10 points. If you
    # capture more or fewer tricks than you bid, you get 0 points."
    # Sevens: "Players whose bid exactly matched ... score the number they bid + 2 points";
    # "Players whose bid was wrong score no points and lose 1 point for each trick".
    # (3 players, so no Pico points.) So a round's score went up exactly when the bid was made.
    summary = simulate_json(game, "-p", players, "-n", 8, "-s", 40)
    made, rounds = round_results(game, players, range(40, 48))
    assert summary["bid_success"] == pytest.approx([m / r for m, r in zip(made, rounds)])


def test_simulate_without_bids_has_no_bid_success():
    # examples/plain-whist.rules has no bidding step: there is no bid to make or miss.
    summary = simulate_json(EXAMPLES / "plain-whist.rules", "-n", 3)
    assert summary["bid_success"] is None
    assert summary["mean_rounds"] == 4
    result = run("simulate", EXAMPLES / "plain-whist.rules", "-n", 3)
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and "bid success" not in result.output


def test_simulate_is_reproducible_from_the_seed():
    # Contract: "Seeds make everything reproducible: the same rule file, seed and moves give the same game."
    first, again = (simulate_json("insidious-sevens", "-p", 2, "-n", 5, "-s", 9) for _ in range(2))
    for key in ("seconds", "decisions_per_second", "games_per_second"):
        first.pop(key), again.pop(key)
    assert first == again
    assert first["variants"] == []


def test_simulate_prints_a_summary_table():
    result = run("simulate", "insidious-sevens", "-p", 3, "-n", 4, "--variant", "pico")
    assert result.exit_code == 0, result.output
    for label in ("games", "decisions/s", "mean length", "mean score", "win share", "bid success"):
        assert label in result.output
    assert "(pico)" in result.output


# ---- check: tests/test_cli_check.py ---------------------------------------------------------
