"""rulekit: card games as rule files, compiled to a fast engine.

    >>> import rulekit
    >>> game = rulekit.load(rulekit.bundled()[0])
    >>> state = game.new_game(seed=7)
    >>> state.apply(state.legal_moves()[0])
"""
from .api import Game, bundled, load, loads
from .compile.views import ViewError
from .engine.moves import Move
from .engine.state import State
from .errors import Diagnostic, IllegalMoveError, RuleError, RulekitError
from . import pickling as _pickling  # noqa: F401  (registers how a State pickles)

__all__ = ["Game", "State", "Move", "load", "loads", "bundled", "RuleError", "IllegalMoveError",
           "RulekitError", "Diagnostic", "ViewError"]
__version__ = "0.1.0"
