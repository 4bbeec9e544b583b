"""The distribution: its name on the package index and the install commands the docs give.

Issue 14: "the name `rulekit` on the Python package index belongs to an unrelated rule-learning
library: anyone who follows the docs outside a checkout gets the wrong package." The distribution
is `rulekit-cards`; the import package and the command stay `rulekit`.
"""
from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

import rulekit

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: Every page a user reads install commands from.
TEXTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: `pip install X` where X is a requirement (not a flag, not a path of a checkout).
_INSTALL = re.compile(r"pip install\s+(?:-[-\w]+\s+)*(?P<what>[^\s`#]+)")


def test_the_distribution_is_named_rulekit_cards():
    assert PYPROJECT["project"]["name"] == "rulekit-cards"
    assert PYPROJECT["project"]["scripts"] == {"rulekit": "rulekit.cli:main"}
    assert PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["rulekit"]


def test_the_installed_distribution_is_the_one_of_this_checkout():
    try:
        dist = importlib.metadata.distribution("rulekit-cards")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("rulekit is imported from the source tree, not installed")
    assert dist.version == PYPROJECT["project"]["version"]
    assert any(ep.name == "rulekit" for ep in dist.entry_points if ep.group == "console_scripts")
    assert rulekit.__name__ == "rulekit"


def _installs(text: str) -> list[str]:
    return [m.group("what").strip("'\"") for m in _INSTALL.finditer(text)]


def test_the_install_reader_finds_requirements():
    text = 'pip install rulekit-cards\npip install -q -e ".[test]"\n`pip install .`\npip install open_spiel'
    assert _installs(text) == ["rulekit-cards", ".[test]", ".", "open_spiel"]


@pytest.mark.parametrize("page", TEXTS, ids=lambda p: p.name)
def test_every_install_command_names_the_checkout_or_the_distribution(page):
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    for what in _installs(page.read_text(encoding="utf-8")):
        if what.startswith("."):                           # a checkout: ".", ".[test]", ".[a,b]"
            found = re.fullmatch(r"\.(?:\[(?P<extras>[\w,-]+)\])?", what)
            assert found, f"{page.name}: {what!r}"
            named = set(filter(None, (found.group("extras") or "").split(",")))
            assert named <= extras, f"{page.name}: unknown extras {sorted(named - extras)}"
        elif what.startswith("rulekit"):
            assert re.fullmatch(r"rulekit-cards(?:\[[\w,-]+\])?", what), f"{page.name}: {what!r}"


def test_the_readme_test_command_installs_what_ci_installs():
    """CI runs `.ci/run`; the README's test command must be the same install and the same run."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci_install = re.search(r'pip install --quiet "(\.\[[^\]]*\])"', ci).group(1)
    assert f'pip install "{ci_install}" && python -m pytest -q' in readme
    assert "\npython -m pytest -q\n" in ci


def test_ci_installs_every_extra_the_tests_use():
    """Tests skip what is not installed; CI installs every extra so that none is skipped
    (`bench` is OpenSpiel, which `openspiel` installs; `arrays` is numpy, in `test`)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = set(re.search(r'pip install --quiet "\.\[([^\]]*)\]"', ci).group(1).split(","))
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    assert extras - {"bench", "arrays"} <= installed
