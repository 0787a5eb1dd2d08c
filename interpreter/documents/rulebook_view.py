"""A rulebook (``rulebook.build``) written as Markdown or as an HTML page.

Markdown is made to be included in a page of a documentation site: headings start at
``##``, no HTML; text from the ruleset is escaped so it reads as written. HTML is one
well-formed, self-contained page (an SVG diagram for each board), every text escaped.
"""
from __future__ import annotations

import html as _html
import math
import re

from .rulebook import Code, Diagram, Items, Para, Rulebook, Section, Step, Steps, Table, plain

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


def _md_text(text, in_table: bool = False) -> str:
    return "".join(_md_code(p.text, in_table) if isinstance(p, Code) else _md_plain(p) for p in text)


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

_STYLE = """body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em;line-height:1.4}
code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
svg text{font-size:8px;font-family:sans-serif}"""


def _h(s: str) -> str:
    return _html.escape(s, quote=True)


def _html_text(text) -> str:
    return "".join(f"<code>{_h(p.text)}</code>" if isinstance(p, Code) else _h(p) for p in text)


def html(book: Rulebook) -> str:
    """The rulebook as one HTML page."""
    out = ["<!DOCTYPE html>", f'<html lang="{_h(book.lang)}">', "<head>", '<meta charset="utf-8">',
           f"<title>{_h(book.title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
           f"<h1>{_h(book.title)}</h1>"]
    for s in book.sections:
        _html_section(s, 2, out)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _html_section(s: Section, level: int, out: list) -> None:
    n = min(level, 6)
    out.append(f'<section id="{_h(s.id)}">')
    out.append(f"<h{n}>{_html_text(s.title)}</h{n}>")
    for b in s.blocks:
        _html_block(b, out)
    for sub in s.sections:
        _html_section(sub, level + 1, out)
    out.append("</section>")


def _html_block(b, out: list) -> None:
    if isinstance(b, Para):
        out.append(f"<p>{_html_text(b.text)}</p>")
    elif isinstance(b, Items):
        out.append("<ul>" + "".join(f"<li>{_html_text(t)}</li>" for t in b.items) + "</ul>")
    elif isinstance(b, Table):
        out.append("<table><thead><tr>" + "".join(f"<th>{_html_text(h)}</th>" for h in b.header)
                   + "</tr></thead><tbody>")
        for row in b.rows:
            out.append("<tr>" + "".join(f"<td>{_html_text(c)}</td>" for c in row) + "</tr>")
        out.append("</tbody></table>")
    elif isinstance(b, Steps):
        out.append(_html_steps(b.steps))
    elif isinstance(b, Diagram):
        out.append(svg(b))


def _html_steps(steps: list[Step]) -> str:
    items = "".join(f"<li>{_html_text(st.text)}{_html_steps(st.children) if st.children else ''}</li>"
                    for st in steps)
    return f"<ol>{items}</ol>"


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
    box_w = round(6.2 * max(len(name) for name, _, _ in d.cells)) + 8
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
    for i, (name, _, _) in enumerate(d.cells):
        x, y = pos(i)
        parts.append(f'<rect x="{x - box_w // 2}" y="{y - box_h // 2}" width="{box_w}" '
                     f'height="{box_h}" rx="7" fill="#fff" stroke="#333"/>'
                     f'<text x="{x}" y="{y + 3.5}" text-anchor="middle">{_h(name)}</text>')
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
