"""The record classes of `rulekit/_records.py` behave as the attrs classes they replace.

Syntax-tree nodes, diagnostics and compiled parts were `attrs.frozen` / `attrs.define`
classes; the cheaper records must keep what code (ours and users') relied on: construction
by position or keyword with defaults, frozen fields, equality and hashing by class and
fields, reprs, pickling and copying, `__match_args__`, and `attrs.fields`/`attrs.evolve`.
"""
from __future__ import annotations

import copy
import pickle

import attrs
import pytest

from rulekit import Diagnostic
from rulekit._records import Factory, FrozenInstanceError, define, evolve, frozen
from rulekit.dsl import nodes as n


@frozen
class Point:
    """A test record."""
    x: int
    y: int = 0
    label: str | None = None

    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


@define
class Bag:
    name: str
    items: list = Factory(list)


def test_construction_by_position_and_keyword_with_defaults():
    assert Point(1) == Point(1, 0, None) == Point(x=1) == Point(y=0, x=1)
    assert (Point(1, 2).x, Point(1, 2).y, Point(1, 2).label) == (1, 2, None)
    assert Point(3, -4).norm() == 7 and Point.__doc__ == "A test record."
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, z=3)


def test_frozen_fields_cannot_be_set_or_deleted():
    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2
    with pytest.raises(AttributeError):
        del p.y
    with pytest.raises(AttributeError):
        p.other = 1                       # slots: no new attributes either
    assert p.x == 1


def test_equality_and_hash_by_class_and_fields():
    assert Point(1, 2) != Point(2, 1)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(1, 3)}) == 2

    @frozen
    class Other:
        x: int
        y: int = 0
        label: str | None = None
    assert Point(1) != Other(1) and not (Point(1) == Other(1))
    assert Point(1) != (1, 0, None)


def test_repr_names_every_field():
    assert repr(Point(1, label="a")) == "Point(x=1, y=0, label='a')"
    assert repr(n.Name("bid")) == "Name(text='bid', span=None)"


def test_pickle_copy_and_deepcopy():
    p = Point(1, 2, "z")
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.copy(p) == p and copy.deepcopy(p) == p
    span = n.Span("f", 1, 2, 1, 5)
    name = n.Name("colour", span)
    assert pickle.loads(pickle.dumps(name)) == name and copy.deepcopy(name).span == span


def test_evolve_ours_and_attrs():
    p = Point(1, 2)
    assert evolve(p, y=5) == Point(1, 5)
    assert attrs.evolve(p, label="q") == Point(1, 2, "q")
    assert [f.name for f in attrs.fields(Point)] == ["x", "y", "label"]
    assert attrs.has(Point)
    assert p == Point(1, 2), "evolve copies"


def test_match_args():
    match Point(4, 5):
        case Point(x, y):
            assert (x, y) == (4, 5)
        case _:
            pytest.fail("no match")


def test_mutable_records_take_factory_defaults_and_do_not_hash():
    a, b = Bag("a"), Bag("b")
    a.items.append(1)
    assert b.items == [] and a.items == [1]
    a.name = "c"
    assert a == Bag("c", [1]) and a != Bag("c")
    with pytest.raises(TypeError):
        hash(a)


def test_a_mandatory_field_after_a_default_is_refused():
    with pytest.raises(ValueError):
        @frozen
        class Bad:
            a: int = 0
            b: int


def test_diagnostics_are_still_frozen_values():
    d = Diagnostic("f.rules", 3, 4, "oops", "try this")
    assert d == Diagnostic("f.rules", 3, 4, "oops", "try this")
    assert list(dict.fromkeys([d, Diagnostic("f.rules", 3, 4, "oops", "try this")])) == [d]
    assert str(d) == "f.rules:3:4: oops\n    hint: try this"
    with pytest.raises(AttributeError):
        d.line = 5


def test_every_node_class_is_a_slots_record_with_a_span():
    classes = [v for v in vars(n).values() if isinstance(v, type) and hasattr(v, "__attrs_attrs__")]
    assert len(classes) > 100
    for cls in classes:
        names = [f.name for f in cls.__attrs_attrs__]
        assert not hasattr(cls.__new__(cls), "__dict__"), cls        # slots, as attrs made them
        if cls is not n.Span:
            assert "span" in names, cls


def test_state_pickled_by_attrs_is_read_back():
    """attrs pickled a slots instance as {field: value} (older versions: the values)."""
    for state in ({"file": "f", "line": 1, "column": 2, "message": "m", "hint": None,
                   "source_line": None, "end_column": None},
                  ("f", 1, 2, "m", None, None, None)):
        d = Diagnostic.__new__(Diagnostic)
        d.__setstate__(state)
        assert d == Diagnostic("f", 1, 2, "m")
