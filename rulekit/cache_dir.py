"""A folder for rulekit's caches that only this user can write (or None).

Pipeline place: beside the loader (`dsl/grammar.py` keeps Lark's parse tables there,
`dsl/parse_cache.py` the parses of rule texts, `compile/codegen_cache.py` generated modules).
A cache read back with `pickle` runs whatever the file says, so it must never come from a folder
another user can write: not the shared temp folder, where anyone can plant a file under a
predictable name before we do. The folder is `$RULEKIT_CACHE_DIR`, else
`$XDG_CACHE_HOME/rulekit` or `~/.cache/rulekit`, else `<temp>/rulekit-<uid>`; it is made
with mode 0700 and used only if it is a real folder (no symlink) owned by this user and
writable by nobody else. Otherwise there is no cache: slower, never unsafe.
`RULEKIT_CACHE_DIR=""` (empty) turns caching off.
"""
from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import tempfile
from pathlib import Path

_SOURCES: list[str] = []


def cache_dir() -> Path | None:
    """The private cache folder, made if need be; None when none is safe to use."""
    given = os.environ.get("RULEKIT_CACHE_DIR")
    if given is not None:
        return _private(Path(given)) if given else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    candidates = [Path(xdg) / "rulekit"] if xdg else []
    try:
        candidates.append(Path.home() / ".cache" / "rulekit")
    except (RuntimeError, KeyError):     # no home folder known
        pass
    uid = os.getuid() if hasattr(os, "getuid") else None
    if uid is not None:
        candidates.append(Path(tempfile.gettempdir()) / f"rulekit-{uid}")
    for folder in candidates:
        found = _private(folder)
        if found is not None:
            return found
    return None


def _private(folder: Path) -> Path | None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except (OSError, ValueError):
        return None
    return folder if is_private(info) else None


def is_private(info: os.stat_result) -> bool:
    """A real folder or file of this user's that no one else may write."""
    if stat.S_ISLNK(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def private_file(folder: Path, name: str) -> Path | None:
    """`folder / name` if it does not exist yet or is this user's own regular file (no
    symlink); else None (do not use it)."""
    path = folder / name
    try:
        info = path.lstat()
    except FileNotFoundError:
        return path
    except OSError:
        return None
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return path if stat.S_ISREG(info.st_mode) and mine else None


def sources_digest() -> str:
    """rulekit's own files as a digest of their names, sizes and modification times (once a
    process), as Python's bytecode cache checks a module's source: part of the key of every
    cache that holds what rulekit's code made."""
    if not _SOURCES:
        root = str(Path(__file__).resolve().parent)
        seen, folders = hashlib.sha256(), [root]
        for folder in folders:
            with os.scandir(folder) as found:
                for entry in sorted(found, key=lambda e: e.name):
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            folders.append(entry.path)
                    elif entry.name.endswith((".py", ".lark")):
                        info = entry.stat(follow_symlinks=False)
                        seen.update(f"{entry.path[len(root):]}:{info.st_size}:{info.st_mtime_ns};"
                                    .encode("utf-8", "surrogatepass"))
        _SOURCES.append(seen.hexdigest())
    return _SOURCES[0]


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Keep the `keep` newest files of `folder` named like `pattern`: every edit of a rule
    file (or of rulekit) makes a new entry, so a cache would otherwise grow without end. A
    file that vanishes meanwhile (another process pruning) is no matter."""
    entries = []
    for path in folder.glob(pattern):
        with contextlib.suppress(OSError):
            entries.append((path.stat().st_mtime_ns, path))
    entries.sort(reverse=True)
    for _, path in entries[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()


def entry_path(name: str) -> Path | None:
    """Where the cache file `name` lives: in the private cache folder, if there is one and
    the file is not someone else's or a symlink (`private_file`); else None."""
    folder = cache_dir()
    return private_file(folder, name) if folder else None


def read_entry(name: str):
    """What the private cache file `name` holds, read with `marshal` (data and code only,
    nothing run on reading); None when there is no cache folder, no such file, or it does not
    read back. The caller checks the shape of what it gets."""
    path = entry_path(name)
    if path is None:
        return None
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError, RecursionError):
        return marshal.loads(path.read_bytes())
    return None


def write_entry(name: str, data, keep: int) -> None:
    """Keep `data` in the private cache file `name` (written to a temporary file and renamed,
    so a reader never sees half an entry), then only the `keep` newest files of its kind (the
    same name up to the first `-`). Nothing is kept when there is no cache folder or the
    write fails: the next process makes the entry again."""
    path = entry_path(name)
    if path is None:
        return
    with contextlib.suppress(OSError, ValueError):
        temporary = path.with_name(f"{name}.{os.getpid()}.tmp")
        temporary.write_bytes(marshal.dumps(data))
        os.replace(temporary, path)
        prune(path.parent, name.partition("-")[0] + "-*" + Path(name).suffix, keep)
