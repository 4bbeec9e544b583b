"""The generated references: every public name in the API reference, every command in the CLI one.

Issue 14: "The API reference generated from docstrings (mkdocstrings), with every public name;
the CLI reference generated from the click commands (mkdocs-click)". The site is built once
(`mkdocs build --strict`, when mkdocs and its plugins are installed: `.ci/run` installs the
`docs` extra) and the built pages are searched for each name's anchor.
"""
from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit
import rulekit.testing

ROOT = Path(__file__).resolve().parent.parent
#: Modules whose public names (`__all__`, or what they define without a leading `_`) the
#: reference must show, beside the package's own `__all__`.
MODULES = ["rulekit.engine.actions", "rulekit.engine.observe", "rulekit.replay", "rulekit.envs.pettingzoo",
           "rulekit.envs.openspiel", "rulekit.cluster"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    for plugin in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_click"):
        pytest.importorskip(plugin)
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _anchors(site: Path, page: str) -> set[str]:
    return set(re.findall(r'id="([\w.]+)"', (site / page / "index.html").read_text(encoding="utf-8")))


def _public(module_name: str) -> list[str]:
    module = __import__(module_name, fromlist=["_"])
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_") and
                 (inspect.isclass(v) or inspect.isfunction(v)) and v.__module__ == module_name]
    return sorted(names)


def test_every_public_name_of_the_package_is_in_the_api_reference(site):
    anchors = _anchors(site, "reference")
    missing = [n for n in rulekit.__all__ if f"rulekit.{n}" not in anchors]
    assert missing == []
    for cls in (rulekit.Game, rulekit.State):
        methods = [n for n, v in vars(cls).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))]
        assert [m for m in methods if f"rulekit.{cls.__name__}.{m}" not in anchors] == []


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_of_a_module_is_in_the_api_reference(site, module):
    pytest.importorskip({"rulekit.envs.pettingzoo": "pettingzoo", "rulekit.envs.openspiel": "pyspiel"}.get(module, "rulekit"))
    anchors = _anchors(site, "reference")
    assert [n for n in _public(module) if f"{module}.{n}" not in anchors] == []


def test_every_name_of_the_testing_tools_is_in_the_api_reference(site):
    anchors = _anchors(site, "reference")
    homes = ("rulekit.testing", "rulekit.testing.strategies", "rulekit.testing.machine")
    missing = [n for n in rulekit.testing.__all__ if not any(f"{home}.{n}" in anchors for home in homes)]
    assert missing == []


def test_every_command_and_option_is_in_the_cli_reference(site):
    from rulekit.cli import main

    text = (site / "cli" / "index.html").read_text(encoding="utf-8")
    for name, command in main.commands.items():
        assert f"rulekit {name}" in text, name
        for param in command.params:
            for option in getattr(param, "opts", []):
                if option.startswith("--"):
                    assert option in text, f"rulekit {name} {option}"
