"""Makes tests/compat/ again from the project's history: every ruleset that the
documentation and the tests have shipped, as it was in every commit of the current
branch, once per distinct content (issue 34: a ruleset that loaded yesterday loads today;
tests/test_compat.py loads and plays them all).

    python3 tools/compat_corpus.py

What a ruleset is here:

* a folder of rulesets/ or tests/testdata/ (a base file with its variants/ and locales/),
  or a single .meeple file of tests/testdata/ that is a ruleset (not the golden files of
  errors, which are chunks of broken rules);
* a folder of tests/broken/: rulesets that load but break a promise on purpose (a leak,
  an endless loop): they are loaded, not played;
* a ```meeple block of a Markdown file of docs/ (or the README) that starts with
  `ruleset NAME`: the documentation tests load and play those. A `variant` or `locale`
  block with a `# base: NAME` comment is kept with its base (a block of the same file, or
  a bundled ruleset as it was then), as those tests load it.

Each goes to tests/compat/ENTRY/ (ENTRY names the source and the first commit that had
this content), with MANIFEST.json and README.md saying where each came from.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "compat"
FOLDERS = ("rulesets", "tests/testdata", "tests/broken")
NOT_RULESETS = {"tests/testdata/check_errors.meeple", "tests/testdata/parse_errors.meeple"}
BLOCK = re.compile(r"^```([\w-]+)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
HEADER = re.compile(r"^(?:\s*#[^\n]*\n|\s*\n)*\s*(ruleset|variant|locale)\s+(\w+)")
BASE = re.compile(r"^\s*#\s*base:\s*(\S+)", re.MULTILINE)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True, encoding="utf-8").stdout


def commits_touching(*paths: str) -> list[str]:
    """The commits of the current branch that changed these paths, oldest first."""
    return git("log", "--format=%H", "--reverse", "HEAD", "--", *paths).split()


def files_at(commit: str, prefix: str) -> dict[str, str]:
    """Every .meeple file under ``prefix`` at ``commit``: path -> text."""
    out = {}
    for line in git("ls-tree", "-r", "--name-only", commit, "--", prefix).splitlines():
        if line.endswith(".meeple"):
            out[line] = git("show", f"{commit}:{line}")
    return out


def ruleset_groups(files: dict[str, str]) -> dict[str, dict[str, str]]:
    """The rulesets among some files: a folder (its files, by their path inside it), or
    a single file of tests/testdata/."""
    groups: dict[str, dict[str, str]] = {}
    for path, text in files.items():
        if path in NOT_RULESETS:
            continue
        parts = path.split("/")
        top = 1 if parts[0] == "rulesets" else 2
        if len(parts) == top + 1:          # a single file: tests/testdata/two_dice.meeple
            groups[path] = {parts[-1]: text}
        else:
            folder = "/".join(parts[:top + 1])
            groups.setdefault(folder, {})["/".join(parts[top + 1:])] = text
    for folder in [f for f, g in groups.items() if len(_bases(g)) > 1]:
        # (a folder of several rulesets, each a file of its own, as tests load them:
        # tests/testdata/made_items)
        for rel in _bases(groups.pop(folder)):
            groups[f"{folder}/{rel}"] = {rel: files[f"{folder}/{rel}"]}
    return groups


def _bases(group: dict[str, str]) -> list[str]:
    """The files at the top of a folder that are base rulesets."""
    return [rel for rel, text in group.items() if "/" not in rel
            and (m := HEADER.match(text)) is not None and m.group(1) == "ruleset"]


class Corpus:
    def __init__(self):
        self.entries: dict[str, dict] = {}   # content digest -> entry

    def add(self, source: str, commit: str, files: dict[str, str], play: bool, name: str) -> None:
        """Keeps a ruleset (its files by their path in its folder) unless one with the same
        files is kept already; ``name`` and the commit name its folder."""
        digest = hashlib.sha256(json.dumps(sorted(files.items())).encode()).hexdigest()
        if digest in self.entries:
            return
        entry, taken = f"{name}-{commit[:8]}", {e["entry"] for e in self.entries.values()}
        k = 2
        while entry in taken:   # (two blocks of one name in one commit)
            entry, k = f"{name}-{commit[:8]}-{k}", k + 1
        self.entries[digest] = {"entry": entry, "commit": commit, "source": source, "play": play,
                                "files": files}

    def write(self) -> None:
        if OUT.exists():
            shutil.rmtree(OUT)
        OUT.mkdir(parents=True)
        manifest = {}
        for e in sorted(self.entries.values(), key=lambda e: e["entry"]):
            folder = OUT / e["entry"]
            for rel, text in e["files"].items():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_text(text, encoding="utf-8")
            manifest[e["entry"]] = {"commit": e["commit"], "order": e["order"], "source": e["source"],
                                    "play": e["play"]}
        (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n",
                                           encoding="utf-8")
        lines = ["# The compatibility corpus", "",
                 "Every ruleset that the documentation and the tests have shipped, once per distinct",
                 "content, as `tools/compat_corpus.py` took it from the history (do not edit: run",
                 "the tool again). `tests/test_compat.py` loads each (its variants and locales too)",
                 "and plays a short game of it, but for those of tests/broken/, which it loads only.",
                 "", "| Entry | First commit | Taken from |", "|---|---|---|"]
        for entry, m in manifest.items():
            lines.append(f"| `{entry}` | {m['commit'][:12]} | {m['source']} |")
        (OUT / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def add_folders(corpus: Corpus) -> None:
    for commit in commits_touching(*FOLDERS):
        for prefix in FOLDERS:
            for source, files in ruleset_groups(files_at(commit, prefix)).items():
                name = source.removeprefix("tests/").replace("/", "-").removesuffix(".meeple")
                corpus.add(source, commit, files, not source.startswith("tests/broken"), name)


def doc_blocks(text: str) -> list[tuple[str, str, str, str]]:
    """The ruleset, variant and locale blocks of a Markdown text: (kind, name, base, text)."""
    out = []
    for m in BLOCK.finditer(text):
        if m.group(1) != "meeple":
            continue
        h = HEADER.match(m.group(2))
        if h is None:
            continue
        base = BASE.search(m.group(2))
        out.append((h.group(1), h.group(2), base.group(1) if base else "", m.group(2)))
    return out


def add_docs(corpus: Corpus) -> None:
    docs = [p for p in git("log", "--format=", "--name-only", "HEAD").split()
            if p.endswith(".md") and (p.startswith("docs/") or p == "README.md")]
    for doc in sorted(set(docs)):
        for commit in commits_touching(doc):
            try:
                text = git("show", f"{commit}:{doc}")
            except subprocess.CalledProcessError:
                continue   # (the file was removed in this commit)
            blocks = doc_blocks(text)
            bases = {name: body for kind, name, _, body in blocks if kind == "ruleset"}
            stem = Path(doc).stem
            for kind, name, base, body in blocks:
                source = f"{doc}: {kind} {name}"
                if kind == "ruleset":
                    corpus.add(source, commit, {f"{name}.meeple": body}, True, f"doc-{stem}-{name}")
                    continue
                base_file = _base_file(commit, base, bases)
                if base_file is None:
                    continue
                files = dict([base_file])
                if kind == "locale":   # loaded with the variant blocks of its base beside it
                    files.update({f"variants/{n}.meeple": b for k, n, bb, b in blocks
                                  if k == "variant" and bb == base})
                files[f"{kind}s/{name}.meeple"] = body
                corpus.add(source, commit, files, True, f"doc-{stem}-{base}-{name}")


def _base_file(commit: str, base: str, bases: dict[str, str]) -> tuple[str, str] | None:
    """The base of an overlay block, as the documentation tests take it: a ruleset block of
    the same file, or the base file of the bundled ruleset of that name (then)."""
    if base in bases:
        return f"{base}.meeple", bases[base]
    if not base:
        return None
    for path, text in files_at(commit, f"rulesets/{base}").items():
        if path.count("/") == 2 and HEADER.match(text) and HEADER.match(text).group(1) == "ruleset":
            return path.rsplit("/", 1)[-1], text
    return None


def main() -> int:
    corpus = Corpus()
    order = {c: i for i, c in enumerate(git("rev-list", "--reverse", "HEAD").split())}
    add_folders(corpus)
    add_docs(corpus)
    for e in corpus.entries.values():
        e["order"] = order[e["commit"]]
    corpus.write()
    print(f"wrote {len(corpus.entries)} rulesets to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
