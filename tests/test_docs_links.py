"""The docs stand alone (issue 10, part 5).

1. Everything README.md, CHANGELOG.md and docs/**/*.md refer to is in the repository: every relative
   Markdown link and image exists (and so does its #anchor), every repository path
   written in backticks exists, and nothing points outside the repository (`shared/`,
   `../`, a path of the machine the docs were written on).
2. Each bundled game's page in docs/rulesets/ summarises the rules in fixed sections,
   cites the printed rulebook (with its year), and names every variant and locale of the
   ruleset folder; README.md's "Bundled games" table lists them too. The variants,
   locales, titles and player counts are read from the ruleset files, never written here.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
RULESETS = sorted(p for p in (ROOT / "rulesets").iterdir() if p.is_dir() and any(p.glob("*.meeple")))

FENCE = re.compile(r"^(```+|~~~+).*?^\1[ \t]*$", re.M | re.S)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.I)
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
# What points outside the repository: the shared folder the rulebooks live in, a parent
# folder, or an absolute path of the checkout the docs were written in.
OUTSIDE = re.compile(r"(?<![\w/.-])shared/|\.\./|(?<![\w.])/work/")
# File kinds a bare file name in backticks refers to in the repository (JSON names are
# files the CLI writes, not repository files).
REPO_SUFFIXES = {".md", ".py", ".meeple", ".lark", ".toml", ".txt"}
TOP_FOLDERS = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith((".git", ".pytest", "__"))}


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def prose(text: str) -> str:
    """The text without its fenced code blocks."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as '-'."""
    text = re.sub(r"`|\*\*|__|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for m in HEADING.finditer(prose(path.read_text(encoding="utf-8"))):
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


# Words the docs write for "any name here" (`variants/NAME.meeple`, `--record FILE`).
PLACEHOLDERS = {"NAME", "FILE", "FOLDER", "PATH", "DIR", "CODE", "SEED", "N"}


def is_placeholder(token: str) -> bool:
    """`variants/NAME.meeple`, `meeple-<ruleset>-<seed>.json`, `tests/*.py`: no one file."""
    if re.search(r"[<>*?…]|\.\.\.", token):
        return True
    return any(part.split(".")[0] in PLACEHOLDERS for part in token.split("/"))


def expand(token: str) -> list[str]:
    """`locales/{en,de}.meeple` -> both files."""
    m = re.search(r"\{([^{}]*)\}", token)
    if not m:
        return [token]
    return list(itertools.chain.from_iterable(
        expand(token[:m.start()] + choice + token[m.end():]) for choice in m.group(1).split(",")))


def written_rulesets(text: str) -> set[str]:
    """Rulesets a document writes out in full (a tutorial's `rulesets/NAME/`)."""
    return set(re.findall(r"^ruleset[ \t]+(\w+)", text, re.M))


def path_problems(doc: Path, token: str, tutorial: set[str]) -> list[str]:
    """Why `token`, a word in backticks, is a path that does not exist ([] if fine)."""
    token = token.strip().rstrip(".,:;)").split("#")[0]
    if not token or token.startswith(("-", "http:", "https:")) or is_placeholder(token):
        return []
    first = token.split("/")[0]
    has_suffix = Path(token.rstrip("/")).suffix in REPO_SUFFIXES
    if "/" not in token:
        if not has_suffix or any(ROOT.rglob(token)):
            return []
        return [f"`{token}` names no file of the repository"]
    if token.startswith("/"):
        return []   # `/` (an operator), `/proc`: an outside path is OUTSIDE's business
    if first in TOP_FOLDERS:
        bases = [ROOT]
    elif has_suffix:
        # relative to the document (`schema/ir.schema.json` in docs/api.md) or, on a game
        # page, to its ruleset folder (`variants/open_clans.meeple`)
        bases = [doc.parent, *(ROOT / "rulesets" / doc.stem,)]
    else:
        return []   # codes such as `check/unused-text`, `meeple-record/1`
    parts = token.rstrip("/").split("/")
    if parts[0] == "rulesets" and len(parts) > 1 and parts[1] in tutorial:
        return []
    if any((base / token).exists() for base in bases):
        return []
    return [f"`{token}` does not exist in the repository"]


def doc_problems(doc: Path, root: Path = ROOT) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    problems = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if OUTSIDE.search(line):
            problems.append(f"line {lineno} points outside the repository: {line.strip()}")
    body = prose(text)
    targets = LINK.findall(body) + REF_LINK.findall(body) + HTML_LINK.findall(body)
    for target in targets:
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue    # https:, mailto:
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            problems.append(f"link ({target}): no such file")
        elif not path.is_relative_to(root):
            problems.append(f"link ({target}) leaves the repository")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            problems.append(f"link ({target}): no heading #{anchor} in {path.relative_to(root)}")
    tutorial = written_rulesets(text)
    for m in CODE_SPAN.finditer(body):
        for word in re.split(r"\s+", m.group(2)):
            for token in expand(word):
                problems += path_problems(doc, token, tutorial)
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=rel)
def test_everything_a_doc_refers_to_is_in_the_repository(doc):
    assert doc_problems(doc) == []


def test_the_checks_catch_what_they_are_for(tmp_path):
    """The checks above would fail on the mistakes they exist to catch."""
    doc = ROOT / "docs" / "rulesets" / "cherokee.md"
    assert OUTSIDE.search("read `shared/rulebooks/NOTES.md`")
    assert OUTSIDE.search("see [the notes](../NOTES.md)")
    assert OUTSIDE.search("ok /work/main/rulesets/cherokee")
    assert not OUTSIDE.search("players share the win; ./x is a path; docs/rulesets/")
    assert path_problems(doc, "rulesets/cherokee/variants/closed_clans.meeple", set())
    assert path_problems(doc, "variants/closed_clans.meeple", set())
    assert path_problems(doc, "cherokee.en.txt", set())
    assert path_problems(doc, "NOTES.md", set())
    assert not path_problems(doc, "README.md", set())
    assert path_problems(doc, "tests/test_nothing.py", set())
    assert path_problems(doc, "rulesets/frog_race/", set())
    assert not path_problems(doc, "rulesets/frog_race/", {"frog_race"})
    assert not path_problems(doc, "variants/open_clans.meeple", set())
    assert not path_problems(doc, "rulesets/cherokee/locales/nl.meeple", set())
    assert not path_problems(doc, "variants/NAME.meeple", set())
    assert [t for w in ["locales/{en,xx}.meeple"] for t in expand(w)] == ["locales/en.meeple", "locales/xx.meeple"]
    assert slug("`allies` — «стенка на стенку»") == "allies--стенка-на-стенку"
    page = tmp_path / "page.md"
    page.write_text("# Top\n\n[ok](#top) [bad](#nowhere) [gone](missing.md) ![img](pic.png)\n",
                    encoding="utf-8")
    assert len(doc_problems(page, root=tmp_path)) == 3


# ---------------------------------------------------------------- the game pages

SUMMARY = "Rules summary"
SUMMARY_PARTS = ["Overview and goal", "Components", "Setup", "A turn", "Special rules",
                 "End and scoring", "Variants"]
CITATION = "The rulebook"
CITATION_FIELDS = ["Title", "Publisher", "Designer", "Year", "Edition"]


def section(text: str, title: str, level: int = 2) -> str:
    """The body of the heading `title` at `level`, up to the next heading of that level or above."""
    body = prose(text)
    m = re.search(rf"^{'#' * level}[ \t]+{re.escape(title)}[ \t]*$", body, re.M)
    assert m, f"no heading {'#' * level} {title}"
    end = re.compile(rf"^#{{1,{level}}}[ \t]", re.M).search(body, m.end())
    return body[m.end():end.start() if end else len(body)]


def header(path: Path, word: str) -> list[str]:
    return re.findall(rf"^{word}[ \t]+(?:\"([^\"]*)\"|(\S+))", path.read_text(encoding="utf-8"), re.M)


def first(path: Path, word: str) -> str:
    quoted, bare = header(path, word)[0]
    return quoted or bare


def base_file(folder: Path) -> Path:
    (base,) = [p for p in folder.glob("*.meeple") if header(p, "ruleset")]
    return base


def variants(folder: Path) -> dict[str, str]:
    """Each variant's name -> its title, from the files of variants/."""
    return {first(p, "variant"): first(p, "title") for p in sorted(folder.glob("variants/*.meeple"))}


def locales(folder: Path) -> dict[str, str]:
    """Each locale's code -> its language's name, from the files of locales/."""
    return {first(p, "locale"): first(p, "language") for p in sorted(folder.glob("locales/*.meeple"))}


def page_of(folder: Path) -> str:
    return (ROOT / "docs" / "rulesets" / f"{folder.name}.md").read_text(encoding="utf-8")


def test_every_bundled_ruleset_has_a_page():
    assert RULESETS
    pages = {p.stem for p in (ROOT / "docs" / "rulesets").glob("*.md")}
    assert {f.name for f in RULESETS} <= pages


@pytest.mark.parametrize("folder", RULESETS, ids=lambda f: f.name)
def test_each_game_page_summarises_the_rules(folder):
    text = page_of(folder)
    summary = section(text, SUMMARY)
    for part in SUMMARY_PARTS:
        body = section(summary, part, level=3)
        assert len(body.split()) >= 40, f"{folder.name}: '{part}' says too little"
    # the player counts the ruleset declares are the ones the summary gives
    low, high = re.search(r"^players[ \t]+(\d+)\.\.(\d+)", base_file(folder).read_text(encoding="utf-8"),
                          re.M).groups()
    assert re.search(rf"\b{low}[–-]{high} players", section(summary, "Overview and goal", 3))
    for n in range(int(low), int(high) + 1):
        assert re.search(rf"\b{n} players", section(summary, "Setup", 3)), f"setup for {n} players"


@pytest.mark.parametrize("folder", RULESETS, ids=lambda f: f.name)
def test_each_game_page_cites_the_printed_rulebook(folder):
    text = page_of(folder)
    cite = section(text, CITATION)
    for field in CITATION_FIELDS:
        assert re.search(rf"\*\*{field}s?\*\*", cite), f"{folder.name}: the citation has no {field}"
    assert re.search(r"\*\*Years?\*\*[^\n]*\b(19|20)\d\d\b", cite)
    assert first(base_file(folder), "title") in cite
    # which rulebook (or translation) each locale follows
    for code, language in locales(folder).items():
        assert f"`{code}`" in cite and language in cite, f"{folder.name}: locale {code} not in the citation"


@pytest.mark.parametrize("folder", RULESETS, ids=lambda f: f.name)
def test_each_game_page_names_its_variants_and_locales(folder):
    text = page_of(folder)
    summary_variants = section(section(text, SUMMARY), "Variants", level=3)
    for name, title in variants(folder).items():
        assert f"`{name}`" in summary_variants and title in text, f"{folder.name}: variant {name}"
    for code, language in locales(folder).items():
        assert f"--locale {code}" in text or f"`{code}`" in text
        assert language in text


def test_the_readme_table_lists_every_bundled_game():
    table = section((ROOT / "README.md").read_text(encoding="utf-8"), "Bundled games")
    for folder in RULESETS:
        (row,) = [line for line in table.splitlines() if line.startswith(f"| `{folder.name}`")]
        assert f"docs/rulesets/{folder.name}.md" in row
        for name in variants(folder):
            assert f"`{name}`" in row, f"{folder.name}: variant {name} not in the README"
        for code in locales(folder):
            assert re.search(rf"\b{code}\b", row), f"{folder.name}: locale {code} not in the README"


def test_the_bundled_rulesets_point_only_at_the_repository():
    """The rulesets ship inside the package: their comments cite the docs pages, never
    files that exist only beside the repository."""
    for f in sorted((ROOT / "rulesets").rglob("*.meeple")):
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"shared/|NOTES\.md|\.\./|/work/", text), f
        for page in re.findall(r"docs/rulesets/[\w-]+\.md", text):
            assert (ROOT / page).is_file(), (f, page)
