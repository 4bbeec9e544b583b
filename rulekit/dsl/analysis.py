"""Static analysis beyond name and type checks: rules that can never work as written.

Pipeline place: nodes → merge → checker (**analysis**) → compiler. `run` is called by the
checker after its own checks, with the checker itself, so it can `report` in the same way.
"""
from __future__ import annotations

from . import nodes as n


def run(checker) -> None:
    """Every analysis in turn; each reports through `checker.report`."""
    follow_never_reads_followed(checker)


def follow_never_reads_followed(checker) -> None:
    """`card that followed` is defined by the follow rule, so the follow rule cannot use it."""
    follow = checker.s.get("follow")
    for case in follow.cases if follow else ():
        result = case.result
        for pred in _preds(getattr(result, "pred", None)):
            if isinstance(pred, n.PFollowed):
                checker.report(pred, "the follow rule cannot use `that followed`: it defines it",
                               "say what may be played, like `same suit as lead if able`")


def _preds(pred):
    stack = [pred] if pred is not None else []
    while stack:
        node = stack.pop()
        yield node
        for field in ("left", "right", "operand"):
            child = getattr(node, field, None)
            if child is not None:
                stack.append(child)
