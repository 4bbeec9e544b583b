"""Parsing that goes on past syntax errors, so one mistake does not hide the others.

Pipeline place: text → **parser (recovery)** → nodes → checker. `parse_all` drives Lark's
LALR parser token by token through its interactive parser. At a syntax error it records the
error, then skips to a point where parsing can resume:

- a token that opens a new section (`round`, `follow`, ...) at the start of a line, while a
  `{` block is still open, means the block was not closed: the error is reported at that
  `{` (where it was opened), and the parser closes the block there and goes on;
- otherwise the rest of the line is skipped (with any `{ ... }` it opens), up to the first
  token at the start of a later line, or a `}`, that the parser can take at some depth of
  what it has read (the unfinished clause is dropped, the finished ones are kept);
- at the end of the file, open blocks are closed.

The tree it returns holds only finished clauses, so the checker can still look for unknown
names in it. `Recovered.names_reliable` says whether it may: not when the damage was in a
part that declares names (deck, player decks, table, board, variant, extend).
"""
from __future__ import annotations

from .._records import define
import lark
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.lexer import Token
from lark.parsers.lalr_parser_state import ParserState

#: Syntax errors reported at most; past them the parse stops (the checker is not run).
MAX_SYNTAX_ERRORS = 50
#: Tokens skipped at most while recovering; past them the parse gives up (the errors found
#: so far are reported, the checker is not run), so a long broken file costs little.
MAX_SKIPPED = 4000
#: Sections whose words other sections use: damage there makes name checks unreliable.
DECLARING = frozenset({"deck", "player", "table", "board", "variant", "extend"})


@define
class Recovered:
    """What `parse_all` found: the tree (None if nothing could be saved), every syntax error
    (as the `describe` callback made it), and whether the names in the tree can be trusted."""
    tree: object
    errors: list
    names_reliable: bool = True


def parse_all(parser: lark.Lark, text: str, describe, unclosed) -> Recovered:
    """Parse `text`; `describe(error)` turns a Lark error into a diagnostic, and
    `unclosed(lbrace_token, keyword, before_token)` makes the one for a `{` never closed."""
    run = _Run(parser, text, describe, unclosed)
    return run.parse()


class _Run:
    def __init__(self, parser, text, describe, unclosed):
        self.interactive = parser.parse_interactive(text)
        self.state: ParserState = self.interactive.parser_state
        self.thread = self.interactive.lexer_thread
        self.text, self.describe, self.unclosed = text, describe, unclosed
        self.found = Recovered(None, [])
        self.skipping, self.skip_depth = False, 0
        self.last_line, self.error_line = 0, None
        self.last_token: Token | None = None
        self.skipped = 0

    # ---- the loop ----------------------------------------------------------------------------

    def parse(self) -> Recovered:
        try:
            return self._parse()
        except _GiveUp:
            self.found.tree, self.found.names_reliable = None, False
            return self.found

    def _parse(self) -> Recovered:
        while len(self.found.errors) < MAX_SYNTAX_ERRORS:
            try:
                for token in self.thread.lex(self.state):
                    self.token(token)
                    if len(self.found.errors) >= MAX_SYNTAX_ERRORS:
                        return self.found
                break
            except UnexpectedCharacters as error:
                self.characters(error)
            except UnexpectedToken as error:        # the contextual lexer: read, not in context
                self.token(error.token)
        else:
            return self.found
        self.found.tree = self.end()
        return self.found

    def token(self, token: Token) -> None:
        first = token.line != self.last_line
        self.last_line, self.last_token = token.end_line or token.line, token
        if self.skipping:
            self.skip(token, first)
            return
        try:
            self.state.feed_token(token)
        except UnexpectedToken as error:
            self.error(error, token, first)

    def characters(self, error: UnexpectedCharacters) -> None:
        self._spend()
        if error.line != self.error_line:
            self.report(error, error.line)
        line_counter = self.thread.state.line_ctr
        if line_counter.char_pos == error.pos_in_stream:
            line_counter.feed(self.text[error.pos_in_stream:error.pos_in_stream + 1])

    # ---- errors ------------------------------------------------------------------------------

    def report(self, error, line: int, token: Token | None = None) -> None:
        self.found.errors.append(self.describe(error))
        self.error_line = line
        if self.found.names_reliable and self._damaged_item(token) in DECLARING | {None}:
            self.found.names_reliable = False

    def _damaged_item(self, token: Token | None) -> str | None:
        """The first word of the top-level item the parser is inside (or the error's word,
        suggested as a section keyword, when it is between items)."""
        for value in self.state.value_stack:
            if isinstance(value, Token):
                return str(value)
        if token is not None and token.type != "$END":
            return _closest_section(str(token), self.state)
        return "end of file"

    def error(self, error: UnexpectedToken, token: Token, first: bool) -> None:
        if first and self._closes_a_block(token):
            return
        if token.line != self.error_line:
            self.report(error, token.line, token)
        self.skipping, self.skip_depth = True, 0
        self.skip(token, False)

    def _closes_a_block(self, token: Token) -> bool:
        """A section keyword at the start of a line inside an open block: report the block's
        `{` as never closed, close it, and go on with the token."""
        if token.type not in self._top_level_terminals() or self._innermost_brace() is None:
            return False
        brace, keyword = self._innermost_brace()
        if not self._feed_at_some_depth(Token.new_borrow_pos("RBRACE", "}", token)):
            return False
        self.found.errors.append(self.unclosed(brace, keyword, token))
        self.error_line = token.line
        if self._damaged_item_is_declaring(keyword):
            self.found.names_reliable = False
        try:
            self.state.feed_token(token)
        except UnexpectedToken as error:
            self.error(error, token, False)
        return True

    @staticmethod
    def _damaged_item_is_declaring(keyword: str) -> bool:
        return keyword.split(" ")[0] in DECLARING

    def skip(self, token: Token, first: bool) -> None:
        """While skipping: drop tokens up to one the parser can take again."""
        self._spend()
        if token.type == "LBRACE":
            self.skip_depth += 1
            return
        if token.type == "RBRACE" and self.skip_depth > 0:
            self.skip_depth -= 1
            return
        if token.type == "RBRACE" or (first and self.skip_depth == 0):
            if self._feed_at_some_depth(token):
                self.skipping = False

    def _spend(self) -> None:
        self.skipped += 1
        if self.skipped > MAX_SKIPPED:
            raise _GiveUp

    # ---- the parser's stacks -------------------------------------------------------------

    def _feed_at_some_depth(self, token: Token, is_end: bool = False):
        """Feed `token` at the innermost depth of the stacks that takes it; keep that state.
        Returns True (or the tree, at the end) when one does."""
        states, values = self.state.state_stack, self.state.value_stack
        table = self.state.parse_conf.states
        for depth in range(len(states), 0, -1):
            if token.type not in table[states[depth - 1]]:
                continue                # no action at all there: no need to try
            trial = ParserState(self.state.parse_conf, self.state.lexer, states[:depth], values[:depth - 1])
            try:
                result = trial.feed_token(token, is_end)
            except UnexpectedToken:
                continue
            self.state.state_stack[:] = trial.state_stack
            self.state.value_stack[:] = trial.value_stack
            return result if is_end else True
        return None if is_end else False

    def _innermost_brace(self):
        """The last `{` still open, and the keywords before it (`trick winner`)."""
        values = self.state.value_stack
        for index in range(len(values) - 1, -1, -1):
            value = values[index]
            if isinstance(value, Token) and value.type == "LBRACE":
                words = []
                for before in reversed(values[:index]):
                    if not isinstance(before, Token):
                        break
                    words.append(before)
                words.reverse()
                keyword = " ".join(str(w) for w in words if w.type not in ("NAME", "STRING", "INT"))
                return value, keyword or "block"
        return None

    def _top_level_terminals(self) -> set:
        conf = self.state.parse_conf
        return {t for t in conf.states[conf.start_state] if t.isupper() and t != "$END"}

    def end(self):
        """Feed the end of the file, closing the blocks still open; the tree, or None."""
        last = self.last_token
        end = Token.new_borrow_pos("$END", "", last) if last is not None else Token("$END", "", 0, 1, 1)
        for _ in range(len(self.state.state_stack) + 1):
            try:
                return self.state.feed_token(end, True)
            except UnexpectedToken as error:
                brace = self._innermost_brace()
                if brace is not None and self._feed_at_some_depth(Token.new_borrow_pos("RBRACE", "}", end)):
                    self.found.errors.append(self.unclosed(brace[0], brace[1], None))
                    if self._damaged_item_is_declaring(brace[1]):
                        self.found.names_reliable = False
                    continue
                if self.skipping is False or end.line != self.error_line:
                    self.report(error, end.line, end)
                return self._feed_at_some_depth(end, True)
        return None


class _GiveUp(Exception):
    """Too much skipped: stop recovering."""


def _closest_section(word: str, state: ParserState) -> str | None:
    """The section keyword a misspelt word between items most likely means."""
    import difflib

    conf = state.parse_conf
    names = [t.lower() for t in conf.states[conf.start_state] if t.isupper() and t != "$END"]
    close = difflib.get_close_matches(word.lower(), names, n=1, cutoff=0.6)
    return close[0] if close else None
