"""The one exception tree of rulekit, and diagnostics.

`RulekitError` is the root; `RuleError` is raised while loading a rule file and carries
every diagnostic found; `IllegalMoveError` is raised while playing and names the legal moves.
"""
from __future__ import annotations

from ._records import frozen

MAX_SHOWN = 20
#: Legal moves an `IllegalMoveError` message lists before "and N more".
MOVES_SHOWN = 12
#: Diagnostics one `RuleError` keeps at most; the rest are only counted ("... and N more").
MAX_DIAGNOSTICS = 100
#: Characters of a source line shown around the caret; longer lines are cut to this window.
LINE_WINDOW = 100


@frozen
class Diagnostic:
    """One problem in a rule file: where, what, and how to fix it."""
    file: str
    line: int
    column: int
    message: str
    hint: str | None = None
    source_line: str | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.message}"
        if self.source_line is not None:
            width = 1
            if self.end_column and self.end_column > self.column:
                width = self.end_column - self.column
            line, column = _window(self.source_line, self.column)
            text += f"\n    {line}\n    {' ' * (column - 1)}{'^' * min(width, LINE_WINDOW)}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


def _window(line: str, column: int) -> tuple[str, int]:
    """A long line cut to `LINE_WINDOW` characters around `column`, and the column in it."""
    if len(line) <= LINE_WINDOW + 20:
        return line, column
    start = max(0, min(column - 1 - LINE_WINDOW // 2, len(line) - LINE_WINDOW))
    cut = line[start:start + LINE_WINDOW]
    prefix = "..." if start > 0 else ""
    suffix = "..." if start + LINE_WINDOW < len(line) else ""
    return prefix + cut + suffix, column - start + len(prefix)


class RulekitError(Exception):
    """Root of every error rulekit raises on purpose."""


class RuleError(RulekitError):
    """A rule file that cannot be loaded; `diagnostics` lists every problem found."""

    def __init__(self, diagnostics, omitted: int = 0):
        found = list(diagnostics)
        self.diagnostics = found[:MAX_DIAGNOSTICS]
        #: Problems found beyond the `MAX_DIAGNOSTICS` kept: counted, not described.
        self.omitted = omitted + len(found) - len(self.diagnostics)
        super().__init__(self._render())

    def _render(self) -> str:
        shown = [str(d) for d in self.diagnostics[:MAX_SHOWN]]
        count = len(self.diagnostics) + self.omitted
        rest = count - len(shown)
        if rest > 0:
            shown.append(f"... and {rest} more")
        head = f"{count} problem{'s' if count != 1 else ''} in the rules:"
        return "\n".join([head] + shown)


class IllegalMoveError(RulekitError):
    """A move that is not legal in this state; the state is unchanged.

    `legal` lists every legal move; the message shows the first few and how many more."""

    def __init__(self, move, legal, reason: str | None = None):
        self.move = str(move)
        self.legal = [str(m) for m in legal]
        listed = ", ".join(self.legal[:MOVES_SHOWN]) if self.legal else "none (the game is over)"
        if len(self.legal) > MOVES_SHOWN:
            listed += f" and {len(self.legal) - MOVES_SHOWN} more"
        text = f"illegal move {_clipped(self.move)!r}"
        if reason:
            text += f": {reason}"
        super().__init__(f"{text}. Legal moves: {listed}")


def shown(value, limit: int = 60) -> str:
    """A value from a caller for a message: short, and never the text of a giant int (which
    Python refuses to make past `sys.get_int_max_str_digits()` digits) or a failing repr."""
    if value.__class__ is int and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit number"
    try:
        text = repr(value)
    except Exception:   # noqa: BLE001 - a value whose repr fails is shown by its type
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def _clipped(text: str, limit: int = 80) -> str:
    """A user's text, cut to `limit` characters for a message."""
    return text if len(text) <= limit else text[:limit] + "..."


class ViewError(RulekitError, ValueError):
    """A view given to `Game.restore` that does not describe a state of this game."""
