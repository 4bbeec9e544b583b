"""`rulekit compile GAME --python`: the Python module the generator writes for a game.

Pipeline place: codegen → **cli** (registered on the `rulekit` click group by `rulekit.cli`).
Prints the source `rulekit.compile.codegen` generates and runs for the game's hot steps
(for one variant and player count); without `--python`, which steps are written out and
which run as the engine's hand-written classes.
"""
from __future__ import annotations

import click

from . import cli
from .errors import RuleError


@cli.main.command(name="compile")
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to compile with (repeatable).")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the game's own).")
@click.option("--python", "python", is_flag=True, help="Print the generated Python module.")
def compile_game(game, variants, players, python):
    """Show what the generator makes of GAME (a bundled name or a .rules file)."""
    from .compile.codegen import covered, source_of

    loaded = cli._load(game, variants)
    players = loaded.checked_players() if players is None else players
    if players not in loaded.players:
        cli._stop(f"{loaded.title} is for {cli._players_text(loaded.players)} players, not {players}")
    try:
        rules = loaded.ruleset(players)
    except RuleError as error:
        cli._stop(str(error))
    if python:
        click.echo(source_of(rules), nl=False)
        return
    for index, (name, done) in enumerate(covered(rules)):
        click.echo(f"step {index}: {name}: {'generated' if done else 'runs as written (engine/)'}")
    click.echo("rulekit compile GAME --python prints the generated module.")
