"""Overrides: a part of a section changed by an `extend`ing file or a variant.

Pipeline place: nodes → **merge** (overrides) → checker. `change table bonus { 5: 20 }`
gives some keys of a table new values and keeps the rest; `change follow { ... }` and
`change trick winner { ... }` add a case (before the last, catch-all one) or remove the
case with a given condition. The result is an ordinary section, checked like any other;
what cannot be changed (a key the table does not have, a case that is not there) is
reported here, at the change.
"""
from __future__ import annotations

from .._records import evolve

from . import nodes as n


def change(merged: dict, target: str, item, report) -> None:
    """Apply the change `item` to the section `target` of `merged`, in place."""
    base = merged.get(target)
    if base is None:
        from ..compile.exprs import suggest
        report(item, f"there is no `{target}` to change",
               suggest(target, [k for k in merged if not k.startswith("variant ")])
               or "change a section the game defines, or write the whole section")
        return
    if isinstance(item, n.ChangeTable):
        merged[target] = change_table(base, item, report)
    else:
        merged[target] = change_cases(base, item, report)


def change_table(table: n.Table, item: n.ChangeTable, report) -> n.Table:
    """The table with the keys of `item` given their new values (ranges split as needed)."""
    entries = list(table.entries)
    for new in item.entries:
        if new.low is None:
            if not any(e.low is None for e in entries):
                report(new, f"table `{table.name.text}` has no `else` entry to change",
                       "restate the whole table to give it one")
                continue
            entries = [new if e.low is None else e for e in entries]
            continue
        missing = [k for k in range(new.low, new.high + 1)
                   if not any(e.low is not None and e.low <= k <= e.high for e in entries)]
        if missing:
            report(new, f"table `{table.name.text}` has no entry for {_keys(missing)} to change",
                   "`change table` gives existing keys new values; to add keys, restate the whole table")
            continue
        entries = _without(entries, new.low, new.high) + [new]
    entries.sort(key=lambda e: (e.low is None, e.low or 0))
    return evolve(table, entries=tuple(entries))


def _keys(keys: list[int]) -> str:
    return ", ".join(map(str, keys[:6])) + (" ..." if len(keys) > 6 else "")


def _without(entries: list, low: int, high: int) -> list:
    """The entries with the keys low..high taken out (a range around them split in two)."""
    out = []
    for e in entries:
        if e.low is None or e.high < low or e.low > high:
            out.append(e)
            continue
        if e.low < low:
            out.append(evolve(e, high=low - 1))
        if e.high > high:
            out.append(evolve(e, low=high + 1))
    return out


def change_cases(section, item: n.ChangeCases, report):
    """`follow` or `trick winner` with cases added (before a last catch-all) or removed."""
    cases = list(section.cases)
    for step in item.changes:
        if isinstance(step, n.AddCase):
            last = cases[-1] if cases else None
            at = len(cases) - 1 if last is not None and isinstance(last.condition, (n.Otherwise, n.Always)) \
                else len(cases)
            cases.insert(at, step.case)
            continue
        wanted = n.shape(step.condition)
        found = [c for c in cases if n.shape(c.condition) == wanted]
        if not found:
            report(step.condition, f"`{item.section}` has no case with this condition to remove",
                   "remove a case as the game writes it, like `remove lead is trump`")
        elif isinstance(step.condition, (n.Otherwise, n.Always)):
            report(step, f"the last case of `{item.section}` cannot be removed: every trick needs it",
                   "add cases before it instead, or restate the whole section")
        else:
            cases.remove(found[0])
    return evolve(section, cases=tuple(cases))


def table_is_read(merged: dict, table: n.Table, report, who: str) -> None:
    """A table a variant adds must be read somewhere (else its name is probably misspelt)."""
    name = table.name.text
    for key, section in merged.items():
        if not key.startswith("table ") and _reads(section, name):
            return
    others = [k[6:] for k in merged if k.startswith("table ") and k[6:] != name]
    from ..compile.exprs import suggest
    report(table.name, f"{who} adds `table {name}`, which no rule reads",
           suggest(name, others) or "read it in an expression, like `" + name + "[bid]`")


def _reads(node, name: str) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, n.Index) and item.table == name:
            return True
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif hasattr(item, "__attrs_attrs__"):
            stack.extend(getattr(item, a.name) for a in item.__attrs_attrs__ if a.name != "span")
    return False
