"""The syntax trees of rule texts parsed before, kept by the text's hash.

Pipeline place: text → **parser (kept parses)** → nodes. Loading a rule file is mostly
parsing it: importing Lark, reading its tables and running its parser cost about two thirds
of a first load in a new process (the checks and the compiler after it much less). So a text
that parsed without errors is kept: in this process (a bounded table of trees; the nodes are
frozen, so the same tree serves every load) and on disk in this user's private cache folder
(`cache_dir.py`), and a later load of the same text, in this process or a new one, gets the
same nodes without Lark. Texts with syntax errors are always parsed (their diagnostics come
from Lark).

The key is the SHA-256 of this format, rulekit's version, the Python version, rulekit's own
sources (`cache_dir.sources_digest`: the grammar and the tree builder are among them), the
file name (spans carry it) and the text. An entry is data only, read with `marshal` (which
runs nothing): the tree as nested tuples, a node as a list of its class's name and its fields
in order. Reading it back builds nodes only of the classes of `nodes` and `auction_nodes`,
only from ints, strings, bools, None and tuples; anything else, or any entry that does not
read back exactly so, is ignored and the text parsed again. A tree holding a value of any
other kind is not kept at all.
"""
from __future__ import annotations

import contextlib
import hashlib
import sys

from . import auction_nodes, nodes

FORMAT = 1
#: trees kept in this process (emptied when full), and entries kept in the cache folder
LIMIT = 64
KEEP = 256

_ATOMS = (int, str, bool, type(None), float)
_TREES: dict[str, object] = {}
_CLASSES: dict[str, type] = {}


class _NotKept(Exception):
    """A value no entry can hold."""


def read(text: str, file: str):
    """The tree of `text` parsed before (a `RuleFile`), or None."""
    key = _key(text, file)
    tree = _TREES.get(key)
    if tree is not None:
        return tree
    from ..cache_dir import read_entry
    data = read_entry(_name(key))
    if type(data) is tuple and len(data) == 3 and data[0] == FORMAT and data[1] == key:
        with contextlib.suppress(ValueError, TypeError, RecursionError, _NotKept):
            tree = _decode(data[2])
            if type(tree) is nodes.RuleFile:
                _keep(key, tree)
                return tree
    return None


def write(text: str, file: str, tree) -> None:
    """Keep the tree `text` parsed to (errors-free), in this process and on disk."""
    try:
        encoded = _encode(tree)
    except (_NotKept, RecursionError):
        return
    key = _key(text, file)
    _keep(key, tree)
    from ..cache_dir import write_entry
    write_entry(_name(key), (FORMAT, key, encoded), KEEP)


def _keep(key: str, tree) -> None:
    if len(_TREES) >= LIMIT:
        _TREES.clear()
    _TREES[key] = tree


def _key(text: str, file: str) -> str:
    from .. import __version__
    from ..cache_dir import sources_digest
    head = repr((FORMAT, __version__, sys.version, sources_digest(), file))
    digest = hashlib.sha256(head.encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _name(key: str) -> str:
    return f"parse-{key[:40]}.nodes"


# ---- the tree as data -------------------------------------------------------------------------

def _classes() -> dict[str, type]:
    """The node classes an entry may name: the frozen records of `nodes` and `auction_nodes`."""
    if not _CLASSES:
        for module in (nodes, auction_nodes):
            for name, value in vars(module).items():
                if (isinstance(value, type) and value.__module__ == module.__name__
                        and hasattr(value, "__attrs_attrs__") and getattr(value, "__hash__", None) is not None):
                    _CLASSES[_name_of(value)] = value
    return _CLASSES


def _name_of(cls) -> str:
    return f"{str(cls.__module__).rpartition('.')[2]}.{cls.__name__}"


def _encode(value):
    """`value` as marshal data: atoms as they are, tuples as tuples, a node as a list of its
    class's name and its fields (iteratively: no depth limit of ours)."""
    kind = value.__class__
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(_encode(item) for item in value)
    name = _name_of(kind)
    if _classes().get(name) is not kind:
        raise _NotKept(name)
    return [name] + [_encode(getattr(value, field.name)) for field in kind.__attrs_attrs__]


def _decode(data):
    kind = data.__class__
    if kind in _ATOMS:
        return data
    if kind is tuple:
        return tuple(_decode(item) for item in data)
    if kind is not list or not data or data[0].__class__ is not str:
        raise _NotKept(repr(kind))
    cls = _classes().get(data[0])
    if cls is None or len(data) - 1 != len(cls.__attrs_attrs__):
        raise _NotKept(data[0])
    return cls(*[_decode(item) for item in data[1:]])
