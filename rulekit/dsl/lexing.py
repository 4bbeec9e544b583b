"""Lark's contextual lexer, started lazily: the first parse in a process costs ~2 ms, not ~30.

Pipeline place: **text → nodes** (used by `parser.py` through Lark's `_plugins` hook). Lark's
contextual lexer keeps one scanner per set of terminals a parser state accepts (about 300
for our grammar). Lark builds all of them when the parser is made, and each one, at its
first use, compiles one big alternation of its terminals' regular expressions and checks
every keyword against every pattern: nearly all of a first parse's time, and more than the
parse tables take to load. Here the same scanners are made only for the states a text
reaches, from one compiled pattern per terminal shared by all of them, and the keyword
checks are remembered per (pattern, keyword).

The tokens are exactly Lark's: a scanner tries its terminals in Lark's order and takes the
first that matches, which is what matching Lark's alternation does; keywords that a
pattern also matches are left out and typed by a callback, as Lark's `_create_unless` does.
`tests/test_lexing.py` compares the two lexers token by token.
"""
from __future__ import annotations

import re
from copy import copy

from lark.lexer import BasicLexer, CallChain, ContextualLexer, PatternRE, PatternStr, UnlessCallback

#: (regexp, flags) -> compiled pattern, shared by every scanner
_PATTERNS: dict = {}
#: (pattern regexp, flags, keyword) -> does the pattern match the whole keyword?
_WHOLE: dict = {}


def _compiled(regexp: str, flags: int):
    pattern = _PATTERNS.get((regexp, flags))
    if pattern is None:
        pattern = _PATTERNS[regexp, flags] = re.compile(regexp, flags)
    return pattern


class Scanner:
    """Lark's `Scanner` interface (`match`, `fullmatch`, `allowed_types`), one pattern a terminal."""

    def __init__(self, terminals, flags: int) -> None:
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self._patterns = [(_compiled(t.pattern.to_regexp(), flags), t.name) for t in terminals]

    def match(self, text, pos):
        string, end = text.text, text.end
        for pattern, name in self._patterns:
            found = pattern.match(string, pos, end)
            if found:
                return found.group(0), name
        return None

    def fullmatch(self, text: str):
        for pattern, name in self._patterns:
            if pattern.fullmatch(text):
                return name
        return None


def _matches_whole(retok, keyword: str, flags: int) -> bool:
    regexp = retok.pattern.to_regexp()
    key = (regexp, flags, keyword)
    found = _WHOLE.get(key)
    if found is None:
        m = _compiled(regexp, flags).match(keyword)
        found = _WHOLE[key] = bool(m) and m.group(0) == keyword
    return found


def _unless(terminals, flags: int):
    """Lark's `_create_unless`: keywords a pattern also matches become that pattern's callback."""
    patterns = [t for t in terminals if isinstance(t.pattern, PatternRE)]
    keywords = [t for t in terminals if isinstance(t.pattern, PatternStr)]
    embedded, callback = set(), {}
    for retok in patterns:
        unless = []
        for strtok in keywords:
            if strtok.priority == retok.priority and _matches_whole(retok, strtok.pattern.value, flags):
                unless.append(strtok)
                if strtok.pattern.flags <= retok.pattern.flags:
                    embedded.add(strtok)
        if unless:
            callback[retok.name] = UnlessCallback(Scanner(unless, flags))
    return [t for t in terminals if t not in embedded], callback


class LazyBasicLexer(BasicLexer):
    """A `BasicLexer` whose scanner is built from the shared per-terminal patterns."""

    def _build_scanner(self) -> Scanner:
        if self.re is not re or self.use_bytes:
            return super()._build_scanner()
        terminals, self.callback = _unless(self.terminals, self.g_regex_flags)
        for type_, f in self.user_callbacks.items():
            if type_ in self.callback:
                self.callback[type_] = CallChain(self.callback[type_], f, lambda t, type_=type_: t.type == type_)
            else:
                self.callback[type_] = f
        return Scanner(terminals, self.g_regex_flags)


class _ByState(dict):
    """state -> its lexer, made on first use (one per set of accepted terminals)."""

    def __init__(self, make) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, state):
        lexer = self[state] = self._make(state)
        return lexer


class LazyContextualLexer(ContextualLexer):
    """Lark's `ContextualLexer` with each state's lexer made when a parse first reaches it."""

    BasicLexer = LazyBasicLexer

    def __init__(self, conf, states, always_accept=()) -> None:     # noqa: D107 - as Lark's
        self._states, self._always = states, tuple(always_accept)
        self._by_tokens: dict = {}
        self._conf = copy(conf)
        self._conf.terminals = list(conf.terminals)
        # every terminal is validated once here (when Lark validates at all), not per state
        self.root_lexer = self.BasicLexer(self._conf, None)
        self._conf.skip_validation = True
        self.lexers = _ByState(self._lexer_for)

    def _lexer_for(self, state):
        accepts = self._states[state]
        key = frozenset(accepts)
        lexer = self._by_tokens.get(key)
        if lexer is None:
            conf, by_name = copy(self._conf), self._conf.terminals_by_name
            wanted = set(accepts) | set(conf.ignore) | set(self._always)
            conf.terminals = [by_name[name] for name in wanted if name in by_name]
            lexer = self._by_tokens[key] = self.BasicLexer(conf, None)
        return lexer
