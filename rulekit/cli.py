"""The `rulekit` command line: play, simulate, check and list games.

Pipeline place: api → **cli**. Every command works for any rule file, bundled name or
path, through the public API (`load`, `new_game`, `legal_moves`, `apply`, `view`), and
reads only the view's keys. A finished round's bids, tricks and points come from the view's
`last_round` (`_Rounds`); `simulate` only peeks at the state attribute behind that key to
know when a round has ended, since a view after every move would cost it most of its speed.

    rulekit list
    rulekit play GAME --players 3 --seed 7
    rulekit simulate GAME --players 4 --games 200 --json
    rulekit check rules/*.rules --games 50
    rulekit compile GAME --python
"""
from __future__ import annotations

import json
import random
import re
import time

import click
from rich import box
from rich.columns import Columns
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from . import __version__
from .api import bundled, load
from .errors import IllegalMoveError, RuleError

#: Exit status for bad usage: an unknown game or variant, a player count the game does not allow.
EXIT_USAGE = 2
#: Exit status of `check` when a rule file has problems.
EXIT_PROBLEMS = 1
QUIT_WORDS = frozenset({"q", "quit", "exit"})
#: The square a placing or moving move goes to: `place X at 1,2`, `move X to 0,3`.
_TARGET = re.compile(r"\b(?:at|to)\s+(-?\d+)\s*,\s*(-?\d+)\s*$")


def _console(stderr: bool = False) -> Console:
    return Console(highlight=False, stderr=stderr, soft_wrap=True)


def _stop(message: str, code: int = EXIT_USAGE):
    """Print `message` (plain text, never markup) on stderr and leave with `code`."""
    _console(stderr=True).print(Text(message))
    raise click.exceptions.Exit(code)


def _load(game: str, variants=()):
    try:
        return load(game, variant=list(variants) or None)
    except RuleError as error:
        _stop(str(error))


def _start(game, players, seed):
    try:
        return game.new_game(players=players, seed=seed)
    except ValueError as error:
        _stop(str(error))


def _seat(seat: int, me: int | None = None) -> str:
    return "you" if seat == me else f"seat {seat}"


def _players_text(players: range) -> str:
    if len(players) == 1:
        return str(players[0])
    return f"{players[0]}–{players[-1]}"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulekit")
def main():
    """Play, simulate and check card games written as rule files.

    GAME is a bundled game (see `rulekit list`) or the path of a .rules file.
    """


# ---- rulekit list --------------------------------------------------------------------------

@main.command(name="list")
def list_games():
    """List the bundled games with their player counts and variants."""
    table = Table("game", "title", "players", "variants", box=box.SIMPLE_HEAD)
    for column in table.columns[:3]:      # names, titles and counts whole; variants wrap
        column.no_wrap = True
    for name in bundled():
        table.add_row(*_listing(name))
    _console().print(table)


def _listing(name: str) -> list[Text]:
    try:
        game = load(name)
    except RuleError as error:
        return [Text(name), Text("cannot be loaded: " + str(error.diagnostics[0].message), style="red"),
                Text(""), Text("")]
    variants = "\n".join(f"{key} ({title})" for key, title in game.variants.items()) or "–"
    return [Text(name), Text(game.title), Text(_players_text(game.players)), Text(variants)]


# ---- rulekit play --------------------------------------------------------------------------

@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the game's own).")
@click.option("--seed", "-s", type=int, default=None, help="Seed for the deal and the other seats' moves.")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play with (repeatable).")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat.")
@click.option("--agents", "-a", "agent_names", default="random", show_default=True,
              help="The other seats' agents, comma-separated and cycled (random, flatmc:N, ismcts:N, ismcts:0.5s).")
@click.option("--save", "save", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the game to this replay file at the end (`rulekit replay FILE` steps through it).")
def play(game, players, seed, variants, seat, agent_names, save):
    """Play GAME against agents in the terminal.

    Answer with the number of a legal move or its text (`play blue 9`); `help` explains
    the moves; `q` quits.
    """
    from .agents import make_agent, parse_agents
    from .agents.base import AgentError

    try:
        agent_list = parse_agents(agent_names)
    except AgentError as error:
        _stop(str(error))
    loaded = _load(game, variants)
    if seed is None:
        seed = random.randrange(2**32)
    state = _start(loaded, players, seed)
    if not 0 <= seat < len(state.scores):
        _stop(f"no seat {seat}: seats are 0..{len(state.scores) - 1}")
    console = _console()
    console.print(Text(f"{loaded.title}, {len(state.scores)} players, seed {seed}; you are seat {seat}.",
                       style="bold"))
    others = [p for p in range(state.n) if p != seat]
    # `random` seats share one random.Random(seed), as `play` always did: the same seed, the same game
    names = {p: agent_list[i % len(agent_list)] for i, p in enumerate(others)}
    agents = {p: make_agent(name, f"{seed}/{p}") for p, name in names.items() if name != "random"}
    session = _Session(console, state, seat, random.Random(seed), agents, loaded)
    finished = session.run()
    if finished:
        session.finish()
    else:
        console.print("Game abandoned.")
    if save:
        _save(console, state, game, save)


def _save(console: Console, state, game: str, path: str) -> None:
    from .replay import Replay

    try:
        Replay.of(state, game).write(path)
    except OSError as error:
        _stop(f"cannot write {path}: {error}")
    console.print(Text(f"Saved to {path} ({len(state.history)} moves): rulekit replay {path}"))


class _Session:
    """One game in the terminal: the user at one seat, random players at the others."""

    def __init__(self, console: Console, state, seat: int, rng: random.Random, agents=None, game=None):
        self.console, self.state, self.seat, self.rng = console, state, seat, rng
        self.agents, self.game = agents or {}, game
        self.seen: set[str] = set()
        self.rounds = _Rounds()

    def run(self) -> bool:
        """Play to the end; False when the user quits."""
        state = self.state
        while not state.is_terminal:
            before = state.view(self.seat)
            if state.current_player == self.seat:
                if not self.user_turn(before):
                    return False
            else:
                self.other_turn(before)
            self.after_move(before)
        return True

    def user_turn(self, view: dict) -> bool:
        legal = self.state.legal_moves()
        self.console.print(_board(view, self.seat, legal, self.notice(view, legal)))
        while True:
            answer = _ask()
            if answer is None:
                return False
            if answer.lower() in ("help", "?"):
                from .cli_help import move_help
                self.console.print(move_help(self.game, self.state, self.seat, legal))
                continue
            move = self.pick(answer, legal)
            if move is not None and self.try_apply(move, legal):
                self.console.print(Text(f"you: {self.state.history[-1]}"))
                return True

    def pick(self, answer: str, legal: list):
        """The move meant by an answer: a number from the list, or text for `apply`."""
        if not answer:
            self.console.print(_numbered(legal))
            return None
        number = _move_number(answer)
        if number is not None:
            if 1 <= number <= len(legal):
                return legal[number - 1]
            shown = answer if len(answer) <= 12 else answer[:12] + "..."
            self.console.print(Text(f"no move number {shown}: pick 1..{len(legal)}", style="red"))
            return None
        return answer

    def try_apply(self, move, legal: list) -> bool:
        try:
            self.state.apply(move)
        except IllegalMoveError as error:
            reason = str(error).split(". Legal moves:")[0]      # the list follows once, numbered
            self.console.print(Text(f"{reason}. Legal moves:", style="red"))
            self.console.print(_numbered(legal))
            self.console.print(Text("(`help` explains the moves)", style="dim"))
            return False
        return True

    def other_turn(self, before: dict) -> None:
        mover = self.state.current_player
        agent = self.agents.get(mover)
        move = agent.choose(self.state.for_seat(mover)) if agent else self.rng.choice(self.state.legal_moves())
        self.state.apply(move)
        text = str(move)
        if _hidden(before, self.state.view(self.seat), mover):
            text = text.split(" ", 1)[0] + " (face down)"
        self.console.print(Text(f"{_seat(mover)}: {text}"))

    def after_move(self, before: dict) -> None:
        """Say who took a trick, and show a round's bids, tricks and points when it ends."""
        view = self.state.view(self.seat)
        finished = self.rounds.finished(view)
        tricks = finished["tricks_won"] if finished else view.get("tricks_won")
        for seat in _gained(before.get("tricks_won"), tricks):
            self.console.print(Text(f"  {_seat(seat, self.seat)} took the trick", style="dim"))
        if finished:
            self.console.print(_round_result(finished, self.seat))

    def notice(self, view: dict, legal: list) -> set[str]:
        """Which optional columns to show: once bids or tricks appear, they stay."""
        if any(b is not None for b in view.get("bids") or []) or any(str(m).startswith("bid ") for m in legal):
            self.seen.add("bids")
        if view.get("trick") or view.get("last_trick") or any(view.get("tricks_won") or []):
            self.seen.add("tricks")
        return self.seen

    def finish(self) -> None:
        view = self.state.view(self.seat)
        at_end = _points_at_end(view)
        table = Table("seat", *(["at game end"] if at_end else []), "score", title="Final scores",
                      box=box.SIMPLE_HEAD)
        for seat, score in enumerate(view["scores"]):
            mark = " ★" if seat in view["winners"] else ""
            table.add_row(_seat(seat, self.seat), *([f"{at_end[seat]:+d}"] if at_end else []), f"{score}{mark}")
        self.console.print(table)
        names = ", ".join(_seat(seat, self.seat) for seat in view["winners"])
        self.console.print(Text(f"Game over after {view.get('round')} rounds. Winners: {names}", style="bold"))
        if _tie_broken(view):
            self.console.print(Text("Tied on score: the game's tie-breaks decided.", style="dim"))


def _tie_broken(view: dict) -> bool:
    """Does a seat that did not win have a winner's score?"""
    best = {view["scores"][seat] for seat in view["winners"]}
    return any(score in best for seat, score in enumerate(view["scores"]) if seat not in view["winners"])


def _points_at_end(view: dict) -> list[int] | None:
    """Points added once the game is over (`score at end`), beyond the last round's totals."""
    record = view.get("last_round")
    if record is None:
        return None
    added = [final - total for final, total in zip(view["scores"], record["scores"])]
    return added if any(added) else None


def _move_number(answer: str) -> int | None:
    """The number an answer of ASCII digits gives (0 for one too long to be a move's number),
    or None for any other text (`²` and other digits of other scripts are text, not numbers)."""
    if not (answer.isascii() and answer.isdigit()):
        return None
    return int(answer) if len(answer) <= 9 else 0


def _ask() -> str | None:
    """The user's answer, stripped; None to quit (`q` or end of input)."""
    try:
        answer = click.prompt("your move (number or text, help, q quits)", default="", show_default=False,
                              prompt_suffix=" > ")
    except (click.Abort, EOFError):
        return None
    answer = answer.strip()
    return None if answer.lower() in QUIT_WORDS else answer


def _hidden(before: dict, after: dict, mover: int) -> bool:
    """Was the move a simultaneous choice the user may not see yet?"""
    earlier = before.get("choices") or []
    later = after.get("choices") or []
    return any(c is not None for c in earlier) or (mover < len(later) and later[mover] == "hidden")


def _gained(before: list | None, after: list | None) -> list[int]:
    """Seats whose trick count went up (the round's last trick shows only in `last_round`)."""
    return [seat for seat, (old, new) in enumerate(zip(before or [], after or [])) if new > old]


def _round_result(finished: dict, me: int) -> Table | Text:
    """A finished round (a view's `last_round`): bids and tricks where the game has them, points, scores.

    A round that had no bids or tricks and scored nothing is one line.
    """
    bids, tricks = finished.get("bids") or [], finished.get("tricks_won") or []
    if not any(tricks) and all(b is None for b in bids) and not any(finished["points"]):
        return Text(f"— round {finished['round']} is over (no points scored)", style="bold")
    columns = [("points", lambda s: f"{finished['points'][s]:+d}"), ("score", lambda s: str(finished["scores"][s]))]
    if any(tricks) or any(b is not None for b in bids):
        columns.insert(0, ("tricks", lambda s: str(tricks[s])))
    if any(b is not None for b in bids):
        columns.insert(0, ("bid", lambda s: "–" if bids[s] is None else str(bids[s])))
    table = Table("seat", *(title for title, _ in columns), title=f"— round {finished['round']} is over",
                  title_justify="left", title_style="bold", box=box.SIMPLE_HEAD)
    for seat in range(len(finished["points"])):
        table.add_row(Text(_seat(seat, me), style="bold" if seat == me else ""), *(cell(seat) for _, cell in columns))
    return table


def _cards(played: list, me: int) -> str:
    return ", ".join(f"{_seat(seat, me)}: {card}" for seat, card in played)


def _board(view: dict, me: int, legal: list, seen: set[str]) -> Group:
    parts = [_header(view), _seats(view, me, seen)]
    for label, key in (("trick", "trick"), ("last trick", "last_trick")):
        if view.get(key):
            parts.append(Text(f"{label}: {_cards(view[key], me)}"))
    if "display" in view:
        grid = _grid(view["display"], me, legal)
        if grid is not None:
            parts.append(grid)
    if isinstance(view.get("tiebreaker"), str):
        parts.append(Text(f"tiebreaker: {view['tiebreaker']}"))
    effect = view.get("pending_effect")
    if isinstance(effect, dict) and effect.get("card") is not None:
        parts.append(Text(f"{_seat(effect.get('seat'), me)}: {effect['card']} still to resolve "
                          f"({effect.get('effect', 'effect')})", style="bold"))
    for label, key in (("revealed", "revealed"), ("out of the game", "removed")):
        shown = _seat_cards(view.get(key), me)
        if shown:
            parts.append(Text(f"{label}: {shown}"))
    hand = (view.get("hands") or [None] * (me + 1))[me]
    if hand is not None:
        parts.append(Text("your hand: " + (", ".join(hand) or "(empty)"), style="bold"))
    parts.append(_numbered(legal))
    return Group(*parts)


def _seat_cards(values, me: int) -> str:
    """`you: lynx 3; seat 1: hare 7` from a per-seat list of a card text (or a list of them) or null."""
    shown = []
    for seat, value in enumerate(values if isinstance(values, list) else []):
        cards = value if isinstance(value, list) else [] if value is None else [value]
        if cards:
            shown.append(f"{_seat(seat, me)}: {', '.join(map(str, cards))}")
    return "; ".join(shown)


def _header(view: dict) -> Text:
    text = f"\n{view.get('game', '')} — round {view.get('round')}, {view.get('phase')}"
    if view.get("trump") is not None:
        text += f", trump: {view['trump']}"
    return Text(text, style="bold")


def _seats(view: dict, me: int, seen: set[str]) -> Table:
    columns = _seat_columns(view, seen)
    table = Table("seat", *(title for title, _ in columns), "", box=box.SIMPLE_HEAD)
    for seat in range(len(view["scores"])):
        cells = [Text(_seat(seat, me), style="bold" if seat == me else "")]
        cells += [Text(cell(seat, me)) for _, cell in columns]
        table.add_row(*cells, Text(_roles(view, seat)))
    return table


def _seat_columns(view: dict, seen: set[str]) -> list:
    """(title, cell(seat, me)) for each column this view has something to say in."""
    columns = [("score", lambda s, me: str(view["scores"][s]))]
    if "hand_sizes" in view:
        columns.append(("cards", lambda s, me: str(view["hand_sizes"][s])))
    if view.get("deck_sizes") is not None:
        columns.append(("deck", lambda s, me: str(view["deck_sizes"][s])))
    if "bids" in seen and view.get("bids") is not None:
        columns.append(("bid", lambda s, me: _bid(view, s)))
    if "tricks" in seen and view.get("tricks_won") is not None:
        columns.append(("tricks", lambda s, me: str(view["tricks_won"][s])))
    if any(c is not None for c in view.get("choices") or []):
        columns.append(("choice", lambda s, me: _choice(view["choices"][s])))
    return columns


def _bid(view: dict, seat: int) -> str:
    bid = view["bids"][seat]
    card = (view.get("bid_cards") or [None] * (seat + 1))[seat]
    if bid is None:
        return "–"
    return f"{bid} ({card})" if card is not None else str(bid)


def _choice(choice) -> str:
    if choice is None:
        return "–"
    if choice == "hidden":
        return "chosen"
    return ", ".join(choice) if isinstance(choice, list) else str(choice)


def _roles(view: dict, seat: int) -> str:
    roles = []
    for key, word in (("dealer", "dealer"), ("leader", "leads"), ("tiebreaker", "tiebreaker")):
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value == seat:
            roles.append(word)
    if view.get("current_player") == seat:
        roles.append("to move")
    return ", ".join(roles)


def _numbered(legal: list) -> Columns:
    return Columns([Text(f"{i}. {move}") for i, move in enumerate(legal, 1)], padding=(0, 3))


def _targets(legal: list) -> dict[tuple[int, int], list[int]]:
    """Squares the legal moves place or move a card to, with the moves' numbers."""
    found: dict[tuple[int, int], list[int]] = {}
    for number, move in enumerate(legal, 1):
        match = _TARGET.search(str(move))
        if match:
            found.setdefault((int(match[1]), int(match[2])), []).append(number)
    return found


def _grid(display: list, me: int, legal: list) -> Table | None:
    """The display as a table, with the empty squares a legal move may fill."""
    cards = {(cell["row"], cell["col"]): cell for cell in display}
    targets = _targets(legal)
    squares = set(cards) | set(targets)
    if not squares:
        return None
    rows = range(min(r for r, _ in squares), max(r for r, _ in squares) + 1)
    cols = range(min(c for _, c in squares), max(c for _, c in squares) + 1)
    table = Table("", *(str(c) for c in cols), box=box.SQUARE, show_lines=True)
    for row in rows:
        table.add_row(str(row), *(_square(cards.get((row, col)), targets.get((row, col)), me) for col in cols))
    return table


def _square(cell: dict | None, numbers: list[int] | None, me: int) -> Text:
    if cell is not None:
        owner = cell.get("owner")
        text = Text(str(cell["card"]), style="bold" if owner == me else "")
        points = cell.get("points")
        worth = f" +{points}" if isinstance(points, int) and points > 0 else ""
        text.append("\n" + (_seat(owner, me) if isinstance(owner, int) else str(owner or "")) + worth, style="dim")
        return text
    if numbers:
        shown = ",".join(map(str, numbers[:3])) + (",…" if len(numbers) > 3 else "")
        return Text(f"({shown})", style="dim")
    return Text("")


# ---- rulekit simulate ----------------------------------------------------------------------

def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True, disable=not console.is_terminal)


class _Rounds:
    """Finished rounds as views report them in `last_round`, each one once.

    The move that ends a round also starts the next, so its result is only in `last_round`:
    None before the first round ends, then {"round", "bids", "tricks_won", "points", "scores"}.
    """

    def __init__(self):
        self.seen: int | None = None

    def finished(self, view: dict) -> dict | None:
        """The round `view` says has just ended, if it is not the one seen last; else None."""
        record = view.get("last_round")
        if record is None or record["round"] == self.seen:
            return None
        self.seen = record["round"]
        return record


# `rulekit simulate` lives in cli_simulate.py (over rulekit/simulate.py).


# ---- rulekit check, rulekit replay: in rulekit/cli_check.py and rulekit/cli_replay.py --------

from . import cli_check, cli_replay  # noqa: E402,F401 - register `rulekit check` and `rulekit replay`
from . import cli_simulate  # noqa: E402,F401 - registers `rulekit simulate` on the group
from . import cli_compile  # noqa: E402,F401 - registers `rulekit compile` (the generated Python)

if __name__ == "__main__":
    main()
