"""A rulebook (``rulebook.build``) written as Markdown, as an HTML page or as a PDF.

Markdown is made to be included in a page of a documentation site: headings start at
``##``, no HTML; text from the ruleset is escaped so it reads as written. HTML is one
well-formed, self-contained page made from Jinja2 templates (templates/: the page and
its stylesheet, for screen and print; autoescaped), with a table of contents and an
inline SVG drawing of each board. The PDF is that page laid out by WeasyPrint (the
``pdf`` extra).
"""
from __future__ import annotations

import functools
import html as _html
import math
import re
from pathlib import Path

from .rulebook import Code, Diagram, Items, Para, Rulebook, Section, Step, Steps, Table, Term, plain

# ---------------------------------------------------------------- Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|!])")


def _md_plain(s: str) -> str:
    s = _MD_SPECIAL.sub(r"\\\1", s.replace("&", "&amp;"))
    return s.replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ")


def _md_code(s: str, in_table: bool) -> str:
    s = s.replace("\n", " ")
    if in_table:
        s = s.replace("|", "\\|")
    ticks = max((len(m) for m in re.findall(r"`+", s)), default=0) + 1
    fence = "`" * ticks
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _md_part(p, in_table: bool) -> str:
    if isinstance(p, Code):
        return _md_code(p.text, in_table)
    if isinstance(p, Term):
        return f"*{_md_plain(p.text)}*"
    return _md_plain(p)


def _md_text(text, in_table: bool = False) -> str:
    return "".join(_md_part(p, in_table) for p in text)


def markdown(book: Rulebook, level: int = 2) -> str:
    """The rulebook in Markdown: the title in bold, then the sections from ``level``
    (``##``) down."""
    out = [f"**{_md_plain(book.title)}**", ""]
    for s in book.sections:
        _md_section(s, level, out)
    return "\n".join(out).rstrip("\n") + "\n"


def _md_section(s: Section, level: int, out: list) -> None:
    out += ["#" * min(level, 6) + " " + _md_text(s.title), ""]
    for b in s.blocks:
        _md_block(b, out)
    for sub in s.sections:
        _md_section(sub, level + 1, out)


def _md_block(b, out: list) -> None:
    if isinstance(b, Para):
        out += [_md_text(b.text), ""]
    elif isinstance(b, Items):
        out += [f"- {_md_text(t)}" for t in b.items] + [""]
    elif isinstance(b, Table):
        out.append("| " + " | ".join(_md_text(h, True) or " " for h in b.header) + " |")
        out.append("|" + "---|" * len(b.header))
        for row in b.rows:
            out.append("| " + " | ".join(_md_text(c, True) or " " for c in row) + " |")
        out.append("")
    elif isinstance(b, Steps):
        _md_steps(b.steps, 0, out)
        out.append("")
    elif isinstance(b, Diagram):
        pass  # drawn in HTML only; the cells are listed in the text


def _md_steps(steps: list[Step], depth: int, out: list) -> None:
    for i, st in enumerate(steps, 1):
        out.append("    " * depth + f"{i}. {_md_text(st.text)}")
        _md_steps(st.children, depth + 1, out)


# ---------------------------------------------------------------- HTML

_TEMPLATES = Path(__file__).with_name("templates")
# the title of the table of contents, by the language of the book's sentences (the
# page's own chrome, not a sentence of the rules; English for any other language)
_CONTENTS = {"en": "Contents", "de": "Inhalt", "fr": "Sommaire", "nl": "Inhoud",
             "ru": "Содержание"}


def _h(s: str) -> str:
    return _html.escape(s, quote=True)


@functools.cache
def _environment():
    """The Jinja2 environment of the rulebook's templates (templates/, package data):
    autoescaped, with a test for each kind of block and ``svg`` to draw a board."""
    import jinja2
    import markupsafe
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(_TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    kinds = {"code": Code, "term": Term, "para": Para, "items": Items, "table": Table, "steps": Steps,
             "diagram": Diagram}
    for name, cls in kinds.items():
        env.tests[name] = lambda value, cls=cls: isinstance(value, cls)
    env.filters["plain"] = plain
    env.globals["svg"] = lambda d: markupsafe.Markup(svg(d))   # (its texts escaped there)
    return env


def stylesheet() -> str:
    """The rulebook's stylesheet (templates/rulebook.css), for screen and print."""
    return (_TEMPLATES / "rulebook.css").read_text(encoding="utf-8")


def html(book: Rulebook) -> str:
    """The rulebook as one self-contained HTML page (templates/rulebook.html): the
    stylesheet inline, a table of contents linking every chapter and its sections,
    each board an inline SVG; every text escaped."""
    import markupsafe
    page = _environment().get_template("rulebook.html").render(
        book=book, stylesheet=markupsafe.Markup(stylesheet()),   # (Meeple's own, not escaped)
        contents=_CONTENTS.get(book.lang, _CONTENTS["en"]))
    return page.rstrip("\n") + "\n"


class PdfUnavailable(Exception):
    """The PDF cannot be made here: WeasyPrint (the ``pdf`` extra) is not installed or
    cannot load its system libraries (Pango); the message says which and how to mend it."""


INSTALL_PDF = "pip install 'meeple[pdf]'"


def pdf_problem() -> str | None:
    """Why no PDF can be made here (a sentence), or None when WeasyPrint is ready."""
    try:
        import weasyprint  # noqa: F401 - (imported to see that it loads)
    except ImportError as e:
        return f"a PDF needs WeasyPrint, which is not installed ({e})"
    except OSError as e:   # installed, but Pango or its fonts cannot be loaded
        return f"WeasyPrint cannot load its system libraries (Pango, HarfBuzz, fontconfig): {e}"
    return None


def pdf(book: Rulebook) -> bytes:
    """The rulebook as a PDF: the HTML page (``html``) laid out on A4 pages by
    WeasyPrint with the stylesheet's print rules (margins, page numbers, the contents
    with page numbers, rows and boards never cut), with a bookmark per heading.
    Raises PdfUnavailable when WeasyPrint is missing."""
    problem = pdf_problem()
    if problem:
        raise PdfUnavailable(problem)
    import logging

    import weasyprint
    # WeasyPrint logs what CSS it ignores (screen-only properties) as warnings: not news
    # for a reader of the book
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    return weasyprint.HTML(string=html(book), base_url=str(_TEMPLATES)).write_pdf()


def svg(d: Diagram, unit: int = 28) -> str:
    """A board as an SVG graph: each cell a rounded box at its (x, y) with its name in
    it, each edge a line; the boxes are as wide as the longest name, and the grid is
    spread out until boxes on a row do not touch."""
    if not d.cells:
        return ""
    xs = [x for _, x, _ in d.cells]
    ys = [y for _, _, y in d.cells]
    x0, y0 = min(xs), min(ys)
    # the layout's steps (a terminal grid may space cells two columns apart) are one unit
    gx = math.gcd(*(x - x0 for x in xs)) or 1
    gy = math.gcd(*(y - y0 for y in ys)) or 1
    texts = d.labels if d.labels is not None else [name for name, _, _ in d.cells]
    box_w = round(6.4 * max(len(x) or len(name) for x, (name, _, _) in zip(texts, d.cells))) + 10
    box_h = 16
    rows: dict[int, list[int]] = {}
    for _, x, y in d.cells:
        rows.setdefault(y, []).append(x)
    steps = [(b - a) // gx for r in rows.values() for a, b in zip(sorted(r), sorted(r)[1:]) if b > a]
    ux = max(unit, -(-(box_w + 6) // min(steps, default=1)))
    uy = max(unit, box_h + 8)

    def pos(i):
        _, x, y = d.cells[i]
        return ux * (x - x0) // gx + box_w // 2 + 4, uy * (y - y0) // gy + box_h // 2 + 4
    width = ux * (max(xs) - x0) // gx + box_w + 8
    height = uy * (max(ys) - y0) // gy + box_h + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">'
             f'<title>{_h(d.board)}</title>']
    for a, b in d.edges:
        (x1, y1), (x2, y2) = pos(a), pos(b)
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#999"/>')
    marked = set(d.marked)
    for i, (name, _, _) in enumerate(d.cells):
        x, y = pos(i)
        fill = "#ffd966" if i in marked else "#fff"
        shown, ink = (texts[i], "#000") if texts[i] or d.labels is None else (name, "#aaa")
        parts.append(f'<rect x="{x - box_w // 2}" y="{y - box_h // 2}" width="{box_w}" '
                     f'height="{box_h}" rx="7" fill="{fill}" stroke="#333"><title>{_h(name)}</title></rect>'
                     f'<text x="{x}" y="{y + 3.5}" text-anchor="middle" fill="{ink}">{_h(shown)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def text_of(book: Rulebook) -> list[str]:
    """Every text of the rulebook, in order (headings, paragraphs, cells, steps): what
    both renderings must say."""
    out = [book.title]

    def section(s):
        out.append(plain(s.title))
        for b in s.blocks:
            if isinstance(b, Para):
                out.append(plain(b.text))
            elif isinstance(b, Items):
                out.extend(plain(t) for t in b.items)
            elif isinstance(b, Table):
                out.extend(plain(t) for t in b.header)
                out.extend(plain(c) for row in b.rows for c in row)
            elif isinstance(b, Steps):
                stack = list(b.steps)
                while stack:
                    st = stack.pop(0)
                    out.append(plain(st.text))
                    stack[:0] = st.children
        for sub in s.sections:
            section(sub)
    for s in book.sections:
        section(s)
    return out
