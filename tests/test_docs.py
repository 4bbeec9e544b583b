"""The docs run: every Python block in docs/*.md runs, every complete rule file in them loads.

House style: "Docs run: code in docs and in `examples/` is executed by the tests."

How a page is read, in order, in a fresh folder that is also the working directory:

- a ```rules block with a file-name title (```rules title="whist.rules"```) is a complete
  rule file: it is written to that name and must load with `rulekit.load`. A later block
  with the same title replaces the file, the way a reader edits it following the page.
  A ```rules block without a title is an excerpt and is not loaded.
- a ```python block runs; the blocks of one page share one namespace, like a session.
  A block whose first line is `# excerpt: not run` is skipped (keep those few).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rulekit
from rulekit.compile.deck import ATTRIBUTES
from rulekit.compile.exprs import BASE_NAMES
from rulekit.dsl import checker

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
SKIP_MARK = "# excerpt: not run"
_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)(?P<info>[^\n`]*)$")
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')


class Block:
    def __init__(self, lang: str, info: str, code: str, line: int):
        self.lang, self.info, self.code, self.line = lang, info, code, line
        found = _TITLE.search(info)
        self.title = found.group("title") if found else None

    @property
    def complete_rules(self) -> bool:
        return self.lang == "rules" and bool(self.title) and self.title.endswith(".rules")

    @property
    def runnable_python(self) -> bool:
        return self.lang == "python" and not self.code.lstrip().startswith(SKIP_MARK)


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown page, dedented (blocks may sit in admonitions)."""
    found, lines, index = [], text.splitlines(), 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        start, indent = index + 1, opening.group("indent")
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in lines[start:end])
        found.append(Block(opening.group("lang"), opening.group("info"), textwrap.dedent(body) + "\n", start))
        index = end + 1
    return found


def page_blocks(page: Path) -> list[Block]:
    return blocks(page.read_text(encoding="utf-8"))


def test_the_docs_have_the_pages_of_the_site():
    names = {p.name for p in PAGES}
    assert {"index.md", "tutorial.md", "language.md", "api.md", "pipeline.md", "interpretations.md"} <= names


def test_the_block_reader_finds_titles_skips_and_indented_blocks():
    text = ('```rules title="a.rules"\nplayers 2\n```\n\n!!! note\n    ```python\n    x = 1\n    ```\n'
            f'```python\n{SKIP_MARK}\nundefined_name\n```\n')
    found = blocks(text)
    assert [(b.lang, b.title) for b in found] == [("rules", "a.rules"), ("python", None), ("python", None)]
    assert found[0].complete_rules and found[1].code == "x = 1\n"
    assert found[1].runnable_python and not found[2].runnable_python


#: `<!-- needs: numpy, pettingzoo -->` on a page's first line: the modules its code imports
#: from an optional extra (.ci/run installs them all, so CI never skips such a page).
_NEEDS = re.compile(r"^<!--\s*needs:\s*(?P<modules>[\w, ]+?)\s*-->")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_code_runs_and_its_rule_files_load(page, tmp_path, monkeypatch):
    needs = _NEEDS.match(page.read_text(encoding="utf-8"))
    for module in (needs.group("modules").split(",") if needs else []):
        pytest.importorskip(module.strip())
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for block in page_blocks(page):
        where = f"docs/{page.name}:{block.line}"
        if block.complete_rules:
            path = tmp_path / block.title
            path.write_text(block.code, encoding="utf-8")
            try:
                game = rulekit.load(str(path))
            except rulekit.RuleError as error:
                pytest.fail(f"{where}: the rule file {block.title} does not load:\n{error}")
            assert game.players, where
        elif block.runnable_python:
            exec(compile(block.code, where, "exec"), namespace)  # noqa: S102 - our own docs


def _code_words(text: str) -> set[str]:
    spans = re.findall(r"```.*?```|`[^`\n]+`", text, flags=re.S)
    return {word for span in spans for word in re.findall(r"[A-Za-z_]+", span)}


#: The trick-game language: every keyword of its grammar, documented in docs/language.md.
TRICK_KEYWORDS = set("""
    a able after always and any as aside bid bidder bidding by card cards colors colours deal
    dealer deck each else end extend first follow followed from game highest if in is last lead
    led left lowest made missed not numbers of or order otherwise pass played players ranks
    repeat required round rounds same score scores set simultaneous suits table that then trick
    tricks trump turn value variant when while winner with
""".split())


def _documented_words() -> set[str]:
    words = set()
    for page in PAGES:
        words |= _code_words(page.read_text(encoding="utf-8"))
    return words


def test_every_word_of_the_trick_language_is_documented():
    """Each keyword, option word, card attribute, name and function appears in code in the docs."""
    options = set(checker.DEALER_FIRST + checker.DEALER_THEN + checker.DIRECTIONS + checker.LEADERS)
    functions = {"abs", "max", "min", "sum", "any", "all", "count"}
    wanted = TRICK_KEYWORDS | options | set(ATTRIBUTES) | set(BASE_NAMES) | functions
    assert sorted(wanted - _code_words((DOCS / "language.md").read_text(encoding="utf-8"))) == []


def test_every_keyword_of_the_grammar_is_documented():
    """The whole grammar, grid games included, once their page (docs/language-grid.md) exists."""
    if not (DOCS / "language-grid.md").exists():
        pytest.skip("docs/language-grid.md (the grid-game language) is not written yet")
    grammar = (ROOT / "rulekit" / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z]+)"', grammar))
    assert sorted(keywords - _documented_words()) == []


def test_every_rule_file_snippet_in_the_language_reference_is_checked():
    complete = [b for b in page_blocks(DOCS / "language.md") if b.complete_rules]
    assert len(complete) >= 5


#: Pages other engineers write; the nav lists them before they exist (mkdocs.yml: not_found: info).
PAGES_WRITTEN_ELSEWHERE = {"language-grid.md", "performance.md"}


def test_the_nav_names_every_page_and_no_missing_one():
    nav = re.findall(r":\s*\"?([\w./-]+\.md)\"?\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), flags=re.M)
    assert {p.name for p in PAGES} <= set(nav)
    missing = {name for name in nav if not (DOCS / name).exists()}
    assert missing <= PAGES_WRITTEN_ELSEWHERE


def test_the_site_builds_strictly(tmp_path):
    """`mkdocs build --strict`: every nav entry exists and every internal link resolves."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
