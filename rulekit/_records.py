"""Record classes, made cheaply: the syntax tree's nodes, diagnostics, compiled parts.

Pipeline place: under every layer (`dsl/nodes.py`, `errors.py`, `compile/`). About 150 node classes
are made at every `import rulekit`. `attrs.frozen` generated and compiled five methods for
each and then built the class a second time with slots: over a third of the import. Here
each class is built once with `__slots__`; equality, hash, repr and pickling are shared
functions over an `operator.attrgetter` of the fields, and `__init__` (the one method that
must be written out for speed) is compiled the first time the class is instantiated, so a
rule file pays only for the constructs it uses.

The classes behave as `attrs.frozen` ones did: positional or keyword construction with
defaults, assignment raising `FrozenInstanceError` (an `AttributeError`), equality and hash
by class and fields, `Name(text='x', span=None)` reprs, `__match_args__`, and an
`__attrs_attrs__` tuple of fields (`name`, `alias`, `default`, `init`) that `attrs.fields`
and `attrs.evolve` accept; `evolve` here does the same without importing attrs. `define`
makes the mutable kind (`attrs.define`: no assignment check, unhashable), with `Factory`
defaults.
"""
from __future__ import annotations

from operator import attrgetter

_setattr = object.__setattr__


class FrozenInstanceError(AttributeError):
    """A field of a frozen record was assigned to (or deleted)."""

    msg = "can't set attribute"

    def __init__(self) -> None:
        super().__init__(self.msg)


class _Nothing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOTHING"

    def __bool__(self) -> bool:
        return False


#: The default of a field that has none.
NOTHING = _Nothing()


class Field:
    """One field of a frozen class, as `attrs.Attribute` describes it (the parts in use)."""

    __slots__ = ("name", "default", "type")
    init = True
    kw_only = False
    eq = True
    hash = None
    repr = True

    def __init__(self, name: str, default, type_) -> None:
        _setattr(self, "name", name)
        _setattr(self, "default", default)
        _setattr(self, "type", type_)

    @property
    def alias(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r})"


class Factory:
    """A default made afresh for each instance: `cards: dict = Factory(dict)`."""

    __slots__ = ("factory",)

    def __init__(self, factory) -> None:
        self.factory = factory

    def __repr__(self) -> str:
        return f"Factory({self.factory!r})"


def frozen(cls: type) -> type:
    """Make `cls` (annotated fields, class-level defaults, methods) a frozen slots class."""
    return _build(cls, frozen=True)


def define(cls: type) -> type:
    """Make `cls` a mutable slots class (equal by fields, so not hashable)."""
    return _build(cls, frozen=False)


def _build(cls: type, frozen: bool) -> type:
    if cls.__bases__ != (object,):
        raise TypeError(f"{cls.__name__}: frozen records do not inherit")
    annotations = cls.__dict__.get("__annotations__", {})
    names = tuple(annotations)
    namespace, defaults = {}, {}
    for key, value in cls.__dict__.items():
        if key in annotations:
            defaults[key] = value
        elif key not in ("__dict__", "__weakref__"):
            namespace[key] = value
    seen_default = False
    for name in names:
        if name in defaults:
            seen_default = True
        elif seen_default:
            raise ValueError(f"{cls.__name__}: no mandatory field ({name}) after one with a default")
    get = attrgetter(*names) if names else _no_fields
    namespace.update(
        __slots__=names + ("__weakref__",),
        __attrs_attrs__=tuple(Field(name, defaults.get(name, NOTHING), annotations[name]) for name in names),
        __match_args__=names,
        _frozen_get=staticmethod(get if len(names) != 1 else _one(get)),
        __init__=_first_init,
        __eq__=_eq, __ne__=_ne, __repr__=_repr, __reduce__=_reduce, __setstate__=_setstate,
    )
    if frozen:
        namespace.update(__hash__=_hash, __setattr__=_refuse, __delattr__=_refuse)
    else:
        namespace.update(__hash__=None)
    new = type(cls.__name__, (object,), namespace)
    new.__qualname__ = cls.__qualname__
    return new


def evolve(inst, **changes):
    """A copy of `inst` with `changes` (like `attrs.evolve`)."""
    cls = inst.__class__
    for field in cls.__attrs_attrs__:
        if field.name not in changes:
            changes[field.name] = getattr(inst, field.name)
    return cls(**changes)


def fields(cls) -> tuple:
    return cls.__attrs_attrs__


# ---- the shared methods ----------------------------------------------------------------

def _no_fields(_inst) -> tuple:
    return ()


def _one(get):
    """An attrgetter of one name gives the value itself: make it a 1-tuple like the others."""
    def values(inst):
        return (get(inst),)
    return values


def _eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    get = self._frozen_get
    return get(self) == get(other)


def _ne(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    get = self._frozen_get
    return get(self) != get(other)


def _hash(self) -> int:
    return hash((self.__class__.__qualname__, self._frozen_get(self)))


def _repr(self) -> str:
    cls = self.__class__
    inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in cls.__attrs_attrs__)
    return f"{cls.__qualname__}({inner})"


def _reduce(self):
    return self.__class__, self._frozen_get(self)


def _setstate(self, state) -> None:
    """What unpickling an attrs-made instance calls (state: {field: value}, or the values)."""
    if isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], dict):
        state = state[1]                 # (dict, slots) as object.__reduce_ex__ gives it
    names = [f.name for f in self.__attrs_attrs__]
    items = state.items() if isinstance(state, dict) else zip(names, state)
    for name, value in items:
        if name in names:
            _setattr(self, name, value)


def _refuse(self, *_args):
    raise FrozenInstanceError()


def _first_init(self, *args, **kwargs):
    """Compile the class's own `__init__`, put it in place and run it (first use only)."""
    cls = self.__class__
    init = _make_init(cls)
    type.__setattr__(cls, "__init__", init)
    init(self, *args, **kwargs)


def _make_init(cls):
    fields_ = cls.__attrs_attrs__
    params, body, scope = ["self"], [], {"_setattr": _setattr}
    scope["NOTHING"] = NOTHING
    for index, field in enumerate(fields_):
        name = field.name
        if field.default is NOTHING:
            params.append(name)
        elif isinstance(field.default, Factory):
            scope[f"_f{index}"] = field.default.factory
            params.append(f"{name}=NOTHING")
            body.append(f"    if {name} is NOTHING:\n        {name} = _f{index}()")
        else:
            scope[f"_d{index}"] = field.default
            params.append(f"{name}=_d{index}")
        body.append(f"    _setattr(self, {name!r}, {name})")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(compile(source, f"<frozen {cls.__qualname__}.__init__>", "exec"), scope)   # noqa: S102 - our own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
