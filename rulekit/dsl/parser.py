"""Rule text → syntax tree (`nodes`): the bounds on untrusted text, and the parses kept.

Pipeline place: **text → nodes** → checker → compiler. Untrusted text is bounded before
Lark sees it (size, nesting; `grammar.py` bounds the depth and the numbers), so no input can
exhaust the stack or the memory. A text that parsed without errors is kept by its hash
(`parse_cache.py`: in this process, and in this user's private cache folder), so loading a
known rule file again, in this process or a new one, neither imports Lark nor parses.
"""
from __future__ import annotations

from functools import lru_cache

from .._records import define
from ..errors import Diagnostic, RuleError
from . import nodes as n

MAX_TEXT = 200_000          # characters in one rule file
MAX_NESTING = 48            # brackets open at once
MAX_DEPTH = 120             # depth of the parse tree
MAX_INT = 1_000_000         # largest number a rule may write


@define
class Parsed:
    """A parse that went on past syntax errors: the nodes of what could be read (None when
    nothing could), the syntax errors, and whether unknown names in the nodes may be reported
    (False when the errors were in a part that declares names)."""
    rules: n.RuleFile | None
    errors: list[Diagnostic]
    names_reliable: bool = True


def parse(text: str, file: str = "<rules>") -> n.RuleFile:
    """Parse rule text into a `RuleFile`, or raise `RuleError` with every syntax error."""
    parsed = parse_all(text, file)
    if parsed.errors:
        raise RuleError(parsed.errors)
    return parsed.rules


def parse_all(text: str, file: str = "<rules>") -> Parsed:
    """Parse rule text, recovering from syntax errors (see `recover`). Text past the bounds
    (size, nesting, depth) still raises `RuleError` at once. A text parsed before without
    errors gives the same nodes again without Lark (`parse_cache`)."""
    _check_bounds(text, file)
    from . import parse_cache
    rules = parse_cache.read(text, file)
    if rules is not None:
        return Parsed(rules, [], True)
    from .grammar import parse_tree
    parsed = parse_tree(text, file)
    if parsed.rules is not None and not parsed.errors:
        parse_cache.write(text, file, parsed.rules)
    return parsed


def grammar_parser():
    """The Lark parser of the rule language (built once per process; `grammar.py`)."""
    from .grammar import grammar_parser
    return grammar_parser()


def source_line(text: str, line: int) -> str | None:
    lines = source_lines(text)
    return lines[line - 1] if 0 < line <= len(lines) else None


@lru_cache(maxsize=16)
def source_lines(text: str) -> tuple[str, ...]:
    """The lines of a text, split once however many diagnostics quote it (as Lark counts
    lines: only \\n ends one). Every diagnostic on a line shares that line's one string."""
    return tuple(text.split("\n"))


def diagnostic_at(text, file, line, column, message, hint=None, end_column=None) -> Diagnostic:
    return Diagnostic(file, line, column, message, hint, source_line(text, line), end_column)


def _check_bounds(text: str, file: str) -> None:
    if len(text) > MAX_TEXT:
        raise RuleError([Diagnostic(file, 1, 1, f"the rule file is too long ({len(text)} characters)",
                                    f"keep rule files under {MAX_TEXT} characters")])
    depth, line, column = 0, 1, 0
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        elif char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise RuleError([diagnostic_at(text, file, line, column, "brackets are nested too deeply",
                                               f"at most {MAX_NESTING} brackets may be open at once")])
        elif char in ")]}":
            depth = max(0, depth - 1)


