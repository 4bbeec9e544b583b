"""The generated module of a game kept on disk by what it is made from: a first load in a new
process runs neither the generator nor `compile`.

Pipeline place: compiler → codegen → **codegen_cache** → engine. `codegen.install` asks here
first. An entry is keyed by the SHA-256 of everything the generated module depends on: this
format, rulekit's version, the Python version, rulekit's own sources (each file's name, size
and modification time, as Python's bytecode cache checks a module's source), and the game's
title and checked sections exactly as `build_ruleset` gets them (their `repr`: every node
with every field, so another variant or player count, or an edited file, is another key).

An entry holds the module's source (for tracebacks and `linecache`), its compiled code, the
generated class names, and a recipe for each object the loader hands the module
(`Writer.bind`): how to find it again in the freshly built `Ruleset` — a path of attribute
names, list indices and dict keys from the rules or their sections, a module-level name of
rulekit or of the standard library, a plain value, a tuple or list of such, or a method of
one. A path is taken before the generator runs, so it leads only to what any build of the
same sections has; it enters a dict by a str key, or a memo keyed by objects' ids by the
path of the key's object (an id is not shared by another process). An object the generator
makes (`made`: a pass's tables) is found by a path from its making: a rulekit maker marked
`rebuilds`, called again on the objects it was made from (found by their recipes), once per
load. A game with an object no recipe reaches keeps an entry without recipes: its source
is generated at each load, and the code is reused while the source is the same.

Safety: entries live in this user's private cache folder only (`cache_dir.py`), are written
to a temporary file and renamed, and are read with `marshal` (data and code, nothing run on
reading). An entry that does not read back, is of another format or key, or whose recipes
do not find objects of the recorded types, is ignored: the module is generated and the entry
written anew.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import sys
import types

FORMAT = 1

#: how many entries the cache folder keeps (the newest; about 100 KB each)
KEEP = 256

#: modules outside rulekit whose names a recipe may use (the loader hands in a few of theirs)
STANDARD = ("builtins", "copyreg", "itertools", "operator", "functools")

_ATOMS = (int, str, bool, float, type(None))
_ATOM_KINDS = frozenset(_ATOMS)


class Entry:
    """A generated module: its source and code, the generated class names ({step index or
    `end_round`: name}, the state class's name or None) and the recipes of its
    bound objects (None: some object has none)."""

    __slots__ = ("digest", "source", "code", "classes", "state", "recipes")

    def __init__(self, digest: str, source: str, code, classes: dict, state, recipes):
        self.digest, self.source, self.code = digest, source, code
        self.classes, self.state, self.recipes = classes, state, recipes

    def data(self, key: str) -> tuple:
        return (FORMAT, key, self.digest, self.source, self.code, tuple(self.classes.items()), self.state,
                self.recipes)


#: entries read or written by this process, by key
_ENTRIES: dict[str, Entry] = {}


def key_of(title: str, sections) -> str:
    """The key of the module generated from these checked sections under this title."""
    from .. import __version__
    from ..cache_dir import sources_digest
    text = repr((FORMAT, __version__, sys.version, sys.implementation.cache_tag, sources_digest(), title,
                 sorted(sections.items())))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def read(key: str) -> Entry | None:
    """The entry of a key: from this process, else from the cache folder; None if there is
    none, or what is there is not an entry of this key."""
    entry = _ENTRIES.get(key)
    if entry is not None:
        return entry
    from ..cache_dir import read_entry
    data = read_entry(_name(key))
    if (type(data) is tuple and len(data) == 8 and data[0] == FORMAT and data[1] == key
            and isinstance(data[4], types.CodeType) and _wellformed(data)):
        entry = _ENTRIES[key] = Entry(data[2], data[3], data[4], dict(data[5]), data[6], data[7])
        return entry
    return None


def _wellformed(data: tuple) -> bool:
    _, _, digest, source, code, classes, state, recipes = data
    return (type(digest) is str and type(source) is str and type(classes) is tuple
            and all(type(pair) is tuple and len(pair) == 2 and type(pair[0]) in (int, str)
                    and (pair[1] is None or type(pair[1]) is str) for pair in classes)
            and (state is None or type(state) is str) and (recipes is None or type(recipes) is tuple)
            and code.co_filename.endswith(f"#{digest[:12]}>"))


def write(key: str, entry: Entry) -> None:
    """Keep an entry for this process and, when there is a private cache folder, on disk."""
    _ENTRIES[key] = entry
    from ..cache_dir import write_entry
    write_entry(_name(key), entry.data(key), KEEP)      # entries of other Python versions count too


def _name(key: str) -> str:
    return f"codegen-{sys.implementation.cache_tag}-{key[:40]}.code"


# ---- recipes ------------------------------------------------------------------------------------

#: (maker, its arguments, what it made) of each `made` call while a recording is on, else None
_MADE: list | None = None


@contextlib.contextmanager
def recording():
    """The makings (`made`) of the generator run inside, as a list."""
    global _MADE
    outer, _MADE = _MADE, []
    try:
        yield _MADE
    finally:
        _MADE = outer


def made(maker, *args):
    """`maker(*args)`, made so that a recipe makes it again: `maker` is a module-level function
    or class of rulekit marked `rebuilds = True` (its result depends on its arguments only),
    `args` are objects the recipes reach."""
    obj = maker(*args)
    if _MADE is not None:
        _MADE.append((maker, args, obj))
    return obj


def places(root: tuple, start: tuple = (), found: dict | None = None) -> tuple[dict, list]:
    """({id: path} of every object reachable from `root`, the objects themselves): read
    before the generator runs, and kept alive while it does (so no id is reused). `root` is
    (the root, the checked sections they were built from). A dict keyed by objects' ids (a
    memo) is entered by the path of the key's object. With `start` and `found`: what is
    reachable from `root` (at path `start`) and not in `found` yet is added to it."""
    found = {} if found is None else found
    if id(root) in found:
        return found, [root]
    found[id(root)] = start
    kept, memos, done = [root], [], 0
    while True:
        while done < len(kept):                       # breadth first
            obj = kept[done]
            done += 1
            if (obj.__class__ is list or obj.__class__ is tuple) and set(map(type, obj)) <= _ATOM_KINDS:
                continue                              # a row of numbers (a large table's): nothing in it to find
            path = found[id(obj)]
            for step, child in _children(obj, path, memos):
                if child.__class__ not in _ATOMS and id(child) not in found:
                    found[id(child)] = path + (step,)
                    kept.append(child)
        entered = [(path, key, child) for path, key, child in memos
                   if key in found and child.__class__ not in _ATOMS and id(child) not in found]
        if not entered:
            return found, kept
        for path, key, child in entered:
            if id(child) not in found:
                found[id(child)] = path + (("id", found[key]),)
                kept.append(child)


def _children(obj, path: tuple, memos: list):
    cls = obj.__class__
    if cls is list or cls is tuple:
        return enumerate(obj)
    if cls is dict:
        memos += [(path, k, v) for k, v in obj.items() if k.__class__ is int]
        return [(("key", k), v) for k, v in obj.items() if k.__class__ is str]
    if isinstance(obj, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                        types.MethodType, property)):
        return ()
    out = []
    own = getattr(obj, "__dict__", None)
    if type(own) is dict:
        out += [(name, value) for name, value in own.items() if name.__class__ is str and not name.startswith("__")]
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if not name.startswith("__"):
                with contextlib.suppress(AttributeError):          # a slot not set
                    out.append((name, getattr(obj, name)))
    return out


def recipes(bound: dict, found: dict, makings=()) -> tuple | None:
    """(name, recipe) for each bound object, or None when one has no recipe; `makings` are
    the generator's (`made`): what they made is found by a path from its making."""
    out, homes = [], {}
    for maker, args, obj in makings:
        home = _home(maker, homes) if getattr(maker, "rebuilds", False) is True else None
        inputs = [_recipe(arg, found, homes, 0) for arg in args]
        if home is not None and None not in inputs:
            places(obj, (("made", *home, tuple(inputs)),), found)
    for name, obj in bound.items():
        recipe = _recipe(obj, found, homes, 0)
        if recipe is None:
            return None
        out.append((name, recipe))
    return tuple(out)


def _recipe(obj, found: dict, homes: dict, depth: int):
    if _plain(obj):
        return ("value", obj)
    path = found.get(id(obj))
    if path is not None:
        return ("at", path, _type_name(obj))
    home = _home(obj, homes)
    if home is not None:
        return ("global", *home, _type_name(obj))
    if depth > 8:
        return None
    owner, name = getattr(obj, "__self__", None), getattr(obj, "__name__", None)
    if (isinstance(obj, (types.MethodType, types.BuiltinMethodType)) and owner is not None
            and not isinstance(owner, types.ModuleType) and type(name) is str and getattr(owner, name, None) == obj):
        inner = _recipe(owner, found, homes, depth + 1)
        return None if inner is None else ("method", inner, name)
    if obj.__class__ in (tuple, list):
        items = [_recipe(item, found, homes, depth + 1) for item in obj]
        return None if None in items else (obj.__class__.__name__, tuple(items))
    return None


def _plain(value) -> bool:
    """An int, str, bool, float or None, or a tuple of them (nested): kept as it is. A tuple
    met again is looked at once (a large table shares its rows: millions of entries in all)."""
    if value.__class__ is not tuple:
        return value.__class__ in _ATOMS
    seen, stack = {id(value)}, [value]
    while stack:
        for item in stack.pop():
            if item.__class__ is tuple:
                if id(item) not in seen:
                    seen.add(id(item))
                    stack.append(item)
            elif item.__class__ not in _ATOMS:
                return False
    return True


def _home(obj, homes: dict) -> tuple[str, str] | None:
    """(module, name) of a module-level object of rulekit or of `STANDARD`, if it is one."""
    module, name = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if type(module) is str and type(name) is str and _allowed(module) and getattr(sys.modules.get(module), name, None) is obj:
        return module, name
    if not homes:                   # every module-level object, made once per recording
        for module in sorted((m for m in sys.modules if _allowed(m)), reverse=True):
            for name, value in vars(sys.modules[module]).items():
                if not name.startswith("__"):
                    homes[id(value)] = (module, name)
    return homes.get(id(obj))


def _allowed(module: str) -> bool:
    return module in STANDARD or module == "rulekit" or module.startswith("rulekit.")


def _type_name(obj) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def resolve(recipes: tuple, root: tuple) -> dict | None:
    """The bound objects the recipes find from `root` (the root, their sections), or None if one is not found (or is
    not of the type it was)."""
    out, makings = {}, {}
    try:
        for name, recipe in recipes:
            out[name] = _resolve(recipe, root, makings)
    except (LookupError, AttributeError, TypeError, ValueError, ImportError):
        return None
    return out


def _resolve(recipe, root, makings: dict):
    kind = recipe[0]
    if kind == "value":
        if not _plain(recipe[1]):
            raise TypeError("not a value")
        return recipe[1]
    if kind == "at":
        return _checked(_follow(root, recipe[1], makings), recipe[2])
    if kind == "global":
        if not _allowed(recipe[1]) or recipe[2].startswith("__"):
            raise ImportError(recipe[1])
        module = sys.modules.get(recipe[1]) or importlib.import_module(recipe[1])
        return _checked(getattr(module, recipe[2]), recipe[3])
    if kind == "method":
        if recipe[2].startswith("__"):
            raise AttributeError(recipe[2])
        return getattr(_resolve(recipe[1], root, makings), recipe[2])
    if kind in ("tuple", "list"):
        items = [_resolve(item, root, makings) for item in recipe[1]]
        return tuple(items) if kind == "tuple" else items
    raise ValueError(f"no recipe kind {kind!r}")


def _checked(obj, type_name: str):
    if _type_name(obj) != type_name:
        raise TypeError(f"{_type_name(obj)}, not {type_name}")
    return obj


def _follow(root, path: tuple, makings: dict):
    obj = root
    for place, step in enumerate(path):
        if place == 0 and step.__class__ is tuple and len(step) == 4 and step[0] == "made":
            obj = _remade(step, root, makings)
        else:
            obj = _step(obj, step, root, makings)
    return obj


def _remade(step: tuple, root, makings: dict):
    """What a making (`made`) made, made again once per load from what its arguments' recipes find."""
    obj = makings.get(step)
    if obj is None:
        _, module, name, inputs = step
        if not _allowed(module) or name.startswith("__") or inputs.__class__ is not tuple:
            raise ImportError(module)
        maker = getattr(sys.modules.get(module) or importlib.import_module(module), name)
        if getattr(maker, "rebuilds", False) is not True:
            raise TypeError(f"{module}.{name} does not rebuild")
        obj = makings[step] = maker(*[_resolve(item, root, makings) for item in inputs])
    return obj


def _step(obj, step, root, makings: dict):
    if step.__class__ is str:
        if step.startswith("__"):
            raise AttributeError(step)
        return getattr(obj, step)
    if step.__class__ is int and obj.__class__ in (list, tuple):
        return obj[step]
    if step.__class__ is tuple and len(step) == 2 and obj.__class__ is dict:
        if step[0] == "key" and step[1].__class__ is str:
            return obj[step[1]]
        if step[0] == "id" and step[1].__class__ is tuple:          # a memo by the id of an object
            return obj[id(_follow(root, step[1], makings))]
    raise TypeError(f"no step {step!r} from {type(obj).__name__}")
