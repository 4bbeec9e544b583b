"""`rulekit replay FILE`: step through a saved game (a replay file, see `rulekit.replay`).

Pipeline place: replay → **cli** (registered on the `rulekit` click group by `rulekit.cli`).
Each move is printed as `rulekit play` shows the game: the board before the move (the full
truth, or one seat's view with `--seat`), then who moved and what. In a terminal it waits
for Enter between moves; `--no-pause` (or input that is not a terminal) prints straight
through. A replay that records a failure is checked again at its end: the exit status is 1
while the failure still happens, 0 once it does not.
"""
from __future__ import annotations

import sys

import click
from rich.console import Group
from rich.text import Text

from . import cli
from .replay import ReplayError, read

#: Exit status of `replay` when the recorded failure still happens.
EXIT_STILL_FAILS = 1


@cli.main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, help="Show what this seat sees (default: the full truth).")
@click.option("--pause/--no-pause", default=None,
              help="Wait for Enter between moves (default: when input is a terminal).")
@click.option("--moves-only", is_flag=True, help="Print only the moves, not the board before each.")
@click.option("--upto", type=click.IntRange(min=0), default=None, help="Stop after this many moves.")
@click.option("--invariants", "invariant_files", multiple=True, type=click.Path(dir_okay=False),
              help="A Python file of your own @invariant functions, to check a recorded failure of one "
                   "of them again (it is run as your code).")
def replay(file, seat, pause, moves_only, upto, invariant_files):
    """Step through the replay FILE (written by `rulekit check --replay-out` or `play --save`).

    In a terminal, Enter shows the next move, a number jumps to that move, `q` quits.
    """
    console = cli._console()
    try:
        saved = read(file)
        game = saved.load_game()
        state = saved.new_game(game)
    except ReplayError as error:
        cli._stop(str(error))
    if seat is not None and not 0 <= seat < state.n:
        cli._stop(f"no seat {seat}: seats are 0..{state.n - 1}")
    if pause is None:
        pause = _is_terminal(sys.stdin)
    _print_header(console, saved, game)
    moves = saved.moves if upto is None else saved.moves[:upto]
    walk = _Walk(console, state, seat, pause, moves_only)
    try:
        finished = walk.run(moves)
    except ReplayError as error:
        cli._stop(str(error), 1)
    if not finished:
        console.print("Replay stopped.")
        return
    walk.show_end()
    if saved.failure is not None and len(moves) == len(saved.moves):
        from .cli_check import _load_invariants
        _recheck(console, saved, game, state, _load_invariants(invariant_files))


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _print_header(console, saved, game) -> None:
    variants = f" ({', '.join(saved.variants)})" if saved.variants else ""
    console.print(Text(f"{game.title}{variants}, {saved.players} players, seed {saved.seed}: "
                       f"{len(saved.moves)} moves ({saved.game})", style="bold"))
    if saved.note:
        console.print(Text(f"note: {saved.note}"))
    if saved.failure is not None:
        what = saved.failure.invariant or saved.failure.kind
        console.print(Text(f"recorded failure ({saved.failure.kind}): {what}: {saved.failure.message}",
                           style="red"))


class _Walk:
    """The moves of a replay applied one by one, each shown as `rulekit play` shows the game."""

    def __init__(self, console, state, seat, pause: bool, moves_only: bool):
        self.console, self.state, self.seat = console, state, seat
        self.pause, self.moves_only = pause, moves_only
        self.seen: set[str] = set()
        self.rounds = cli._Rounds()
        self.jump_to = 0

    def run(self, moves) -> bool:
        """Apply every move; False when the user quits."""
        for number, move in enumerate(moves, 1):
            view = self.view()
            showing = not self.moves_only and number > self.jump_to
            if showing:
                self.console.print(self.board(view))
            mover = self.state.current_player
            self.apply(number, move, len(moves))
            self.console.print(Text(f"move {number}/{len(moves)}: {cli._seat(mover)}: {move}",
                                    style="bold" if showing else ""))
            self.after_move(view)
            if self.pause and number > self.jump_to and number < len(moves) and not self.ask(len(moves)):
                return False
        return True

    def view(self) -> dict:
        return self.state.view(self.seat)

    def board(self, view: dict) -> Group:
        """The board as `rulekit play` draws it; with the full truth, every seat's hand."""
        legal = self.state.legal_moves()
        me = self.seat if self.seat is not None else self.state.current_player
        self.notice(view, legal)
        if self.seat is not None:       # another seat's options are not the viewer's to see
            mine = legal if self.state.current_player == self.seat else []
            return cli._board(view, self.seat, mine, self.seen)
        parts = [cli._header(view), cli._seats(view, -1, self.seen)]
        for label, key in (("trick", "trick"), ("last trick", "last_trick")):
            if view.get(key):
                parts.append(Text(f"{label}: {cli._cards(view[key], -1)}"))
        if "display" in view:
            grid = cli._grid(view["display"], -1, legal)
            if grid is not None:
                parts.append(grid)
        for seat, hand in enumerate(view.get("hands") or []):
            if hand is not None:
                parts.append(Text(f"seat {seat} holds: " + (", ".join(hand) or "(empty)"),
                                  style="bold" if seat == me else ""))
        parts.append(cli._numbered(legal))
        return Group(*parts)

    def notice(self, view: dict, legal: list) -> None:
        if any(b is not None for b in view.get("bids") or []) or any(str(m).startswith("bid ") for m in legal):
            self.seen.add("bids")
        if view.get("trick") or view.get("last_trick") or any(view.get("tricks_won") or []):
            self.seen.add("tricks")

    def apply(self, number: int, move: str, total: int) -> None:
        from .replay import _apply
        _apply(self.state, number, move, total)

    def after_move(self, before: dict) -> None:
        view = self.view()
        finished = self.rounds.finished(view)
        tricks = finished["tricks_won"] if finished else view.get("tricks_won")
        for seat in cli._gained(before.get("tricks_won"), tricks):
            self.console.print(Text(f"  {cli._seat(seat, self.seat)} took the trick", style="dim"))
        if finished:
            self.console.print(cli._round_result(finished, self.seat))

    def ask(self, total: int) -> bool:
        try:
            answer = click.prompt("Enter: next move, a number: go to that move, q: quit", default="",
                                  show_default=False, prompt_suffix=" > ").strip()
        except (click.Abort, EOFError):
            return False
        if answer.lower() in cli.QUIT_WORDS:
            return False
        if answer.isascii() and answer.isdigit() and len(answer) < 10:
            self.jump_to = min(int(answer), total) - 1
        return True

    def show_end(self) -> None:
        view = self.view()
        if not self.moves_only:
            self.console.print(self.board(view) if not self.state.is_terminal else cli._header(view))
        if self.state.is_terminal:
            scores = ", ".join(f"{cli._seat(s, self.seat)}: {score}" for s, score in enumerate(view["scores"]))
            winners = ", ".join(cli._seat(s, self.seat) for s in view["winners"])
            self.console.print(Text(f"Game over after {view.get('round')} rounds. Scores: {scores}. "
                                    f"Winners: {winners}", style="bold"))
        else:
            self.console.print(Text(f"End of the replay: round {view.get('round')}, "
                                    f"{cli._seat(self.state.current_player, self.seat)} to move.", style="bold"))


def _recheck(console, saved, game, state, invariants=()) -> None:
    """Check the recorded failure again on the replayed game; exit 1 while it still happens."""
    from .testing.replaying import known, still_fails
    name = saved.failure.invariant or saved.failure.kind
    if not known(saved.failure.invariant, invariants):
        console.print(Text(f"{name} is not a built-in invariant: give the file that defines it "
                           "(--invariants FILE.py) to check the recorded failure again", style="yellow"))
        return
    message = still_fails(saved, game, state, invariants)
    if message is None:
        console.print(Text(f"{name} holds now: the recorded failure no longer happens", style="green"))
        return
    console.print(Text(f"{name} still fails: {message}", style="red"))
    raise click.exceptions.Exit(EXIT_STILL_FAILS)
