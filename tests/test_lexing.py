"""The lazily started contextual lexer (`rulekit/dsl/lexing.py`) gives Lark's own tokens.

Every rule file of the repository (shipped, examples, the broken ones with their syntax
errors) and random mixtures of the language's words are lexed and parsed twice: by the
parser rulekit uses and by Lark's stock contextual lexer over the same tables. Tokens,
trees and errors must be the same.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import lark
import pytest
from hypothesis import given, settings, strategies as st

from rulekit.dsl import grammar as p
from rulekit.dsl.lexing import LazyContextualLexer

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(f for f in ROOT.rglob("*.rules") if ".venv" not in f.parts and "site-packages" not in f.parts)


@lru_cache(maxsize=1)
def stock() -> lark.Lark:
    """The same grammar, with Lark's own lexer and no cache."""
    text = (ROOT / "rulekit" / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    return lark.Lark(text, **p._OPTIONS)


def outcome(parser: lark.Lark, text: str):
    """The tokens the parser saw and its tree, or the error it raised (type and place)."""
    seen = []
    try:
        interactive = parser.parse_interactive(text)
        for token in interactive.iter_parse():
            seen.append((token.type, str(token), token.line, token.column, token.end_line, token.end_column))
        tree = interactive.resume_parse()
    except lark.exceptions.UnexpectedInput as error:
        return seen, (type(error).__name__, error.line, error.column, getattr(error, "token", None))
    return seen, tree


def test_rulekit_uses_the_lazy_lexer():
    assert isinstance(p.grammar_parser().parser.lexer, LazyContextualLexer)


@pytest.mark.parametrize("path", FILES, ids=lambda f: str(f.relative_to(ROOT)))
def test_every_rule_file_lexes_and_parses_as_with_larks_lexer(path):
    text = path.read_text(encoding="utf-8")
    assert outcome(p.grammar_parser(), text) == outcome(stock(), text)


WORDS = ["game", "players", "deck", "suits", "ranks", "round", "deal", "each", "bid", "play",
         "score", "end", "when", "if", "then", "else", "and", "or", "not", "trump", "lead",
         "follow", "{", "}", "(", ")", "[", "]", ",", "..", "<", "=", "+", "-", "*", ":", "->",
         "3", "12", '"Title"', "x6", "red", "blue", "hand", "tricks", "variant", "table",
         "#", "\n", " ", "  ", "suit", "rank", "\t", "winner", "dealer", "left", "of", "@", "é", "'"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
def test_any_mixture_of_words_gives_the_same_tokens_and_errors(text):
    assert outcome(p.grammar_parser(), text) == outcome(stock(), text)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(FILES), st.data())
def test_a_rule_file_cut_or_spliced_anywhere_gives_the_same_result(path, data):
    text = path.read_text(encoding="utf-8")
    cut = data.draw(st.integers(0, len(text)))
    extra = data.draw(st.sampled_from(WORDS))
    for variant in (text[:cut], text[:cut] + extra + text[cut:]):
        assert outcome(p.grammar_parser(), variant) == outcome(stock(), variant)
