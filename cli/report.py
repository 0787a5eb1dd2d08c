"""``meeple simulate --report FILE.html``: the balance figures of a simulation
(``interpreter.stats``) as one self-contained HTML page: tables, and charts drawn with
matplotlib (the optional extra ``meeple[report]``) embedded as SVG images. Without
matplotlib the page has the tables and says how to get the charts.

Every text that comes from a ruleset or the command line (names, verbs, the command) is
escaped; the charts are images (``<img>`` of an SVG data URI: a browser runs no script
in them) with their figures as alternative text and in a table next to them. matplotlib
is imported only here, only when a report is written, with the non-interactive Agg
backend: it never opens a window.
"""
from __future__ import annotations

import base64
import html
import io
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

INSTALL = "pip install 'meeple[report]'"
PALETTE = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2",
           "#97bbf5", "#9c6b4e", "#9498a0"]
ACCENT = "#1f2a44"
MAX_KINDS_CHARTED = 15


class ReportError(Exception):
    """The report cannot be written there: the message says why."""


# ---------------------------------------------------------------- the path

def check_path(path: Path) -> Path:
    """Refuses, before any game is played, a path the report cannot be written to (as
    ``meeple play --record`` does): its folder missing or not writable, a folder, or
    something else that is not a regular file (a fifo, a device). An existing file is
    replaced. Returns the path."""
    from ..interpreter import record as records
    problem = records.check_target(path, overwrite=True)
    if problem:
        raise ReportError(f"--report: {problem}")
    return path


def write(path: Path, text: str) -> None:
    """Writes the report atomically (``record.write_atomic``: a temporary file in the
    same folder, then renamed over ``path``; a reader never sees half a report, and a
    failure leaves the old one). Raises OSError."""
    from ..interpreter import record as records
    try:
        records.write_atomic(path, text.encode("utf-8"), private=False)
    except records.SaveError as e:
        raise OSError(str(e)) from None


# ---------------------------------------------------------------- the page

def command_line(stats: dict, report: Path | str) -> str:
    """The command that makes this report again (the same games, the same figures)."""
    args = ["meeple", "simulate", stats["ruleset"], "--games", str(stats["games"]),
            "--players", str(stats["players"]), "--seed", str(stats["seeds"]["first"]),
            "--bot", stats["bot"]]
    for v in stats["variants"]:
        args += ["--variant", v]
    if stats.get("locale"):
        args += ["--locale", stats["locale"]]
    return shlex.join(args + ["--report", str(report)])


def render(stats: dict, figures: dict, report: Path | str, plots: bool = True,
           now: datetime | None = None) -> tuple[str, bool]:
    """The report's HTML, and whether it has charts (False when matplotlib is missing
    or ``plots`` is False). ``stats`` is simulate's JSON document, ``figures`` the
    ``stats.Balance`` figures."""
    charts = _charts(stats, figures) if plots else None
    now = now or datetime.now(UTC)
    page = Page(stats, figures, charts)
    body = "\n".join([
        page.header(), page.highlights(), page.seats(), page.first_player(), page.lengths(),
        page.scores(), page.kinds(), page.footer(command_line(stats, report), now)])
    title = f"Balance report: {_title(stats)}"
    return (_TEMPLATE.replace("{title}", _e(title)).replace("{style}", _STYLE)
            .replace("{body}", body), charts is not None)


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _title(stats: dict) -> str:
    return " + ".join([stats["title"]] + list(stats.get("variant_titles") or stats["variants"]))


def pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def num(x, digits: int = 1) -> str:
    if x is None:
        return "–"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def span(lo, hi) -> str:
    return num(lo) if lo == hi else f"{num(lo)}–{num(hi)}"


def ci(pair) -> str:
    return f"{100 * pair[0]:.1f}–{100 * pair[1]:.1f}%"


class Page:
    """The sections of the page, each a piece of escaped HTML."""

    def __init__(self, stats: dict, figures: dict, charts: dict | None):
        self.stats, self.f, self.charts = stats, figures, charts
        self.names = [s["player"] for s in stats["seats"]]

    # a table: header cells and rows of cells (already text); numeric columns right
    def table(self, caption: str, head: list[str], rows: list[list[str]],
              cls: str = "") -> str:
        out = [f'<table class="{_e(cls)}"><caption>{_e(caption)}</caption><thead><tr>']
        out += [f'<th scope="col">{_e(h)}</th>' for h in head]
        out.append("</tr></thead><tbody>")
        for r in rows:
            out.append("<tr>" + f'<th scope="row">{_e(r[0])}</th>'
                       + "".join(f"<td>{_e(c)}</td>" for c in r[1:]) + "</tr>")
        out.append("</tbody></table>")
        return "".join(out)

    def chart(self, key: str, alt: str) -> str:
        if self.charts is None:
            return ""
        return (f'<figure><img src="data:image/svg+xml;base64,{self.charts[key]}" '
                f'alt="{_e(alt)}"></figure>')

    def section(self, ident: str, title: str, intro: str, chart: str, table: str,
                wide: bool = False) -> str:
        """A titled section: its chart beside its tables (``wide``: the chart above, the
        tables side by side below it)."""
        layout = "pair stack" if wide else "pair"
        return (f'<section id="{ident}"><h2>{_e(title)}</h2><p>{intro}</p>'
                f'<div class="{layout}">{chart}<div class="tables">{table}</div></div></section>')

    def header(self) -> str:
        s = self.stats
        sub = (f"{s['games']:,} games · {s['players']} players · bot {s['bot']} in every seat"
               f" · seeds {s['seeds']['first']}–{s['seeds']['last']}")
        if not self.charts:
            note = ('<p class="note">The charts are missing: matplotlib is not installed. '
                    f'Install it with <code>{_e(INSTALL)}</code> and run the command again.</p>')
        else:
            note = ""
        return (f'<header><p class="kicker">Meeple balance report</p><h1>{_e(_title(s))}</h1>'
                f'<p class="sub">{_e(sub)}</p>{note}</header>')

    def highlights(self) -> str:
        f = self.f
        fp = f["first_player"]
        seats = f["seats"]
        best = max(seats, key=lambda x: x["win_rate"])
        worst = min(seats, key=lambda x: x["win_rate"])
        cards = [("Fair share", pct(f["fair_share"]), "the win rate of each seat if no seat had an edge")]
        if fp["games"]:
            verdict = ("significant" if fp["significant"] else "not significant")
            cards.append(("Starting seat wins", pct(fp["win_rate"]),
                          f"95% CI {ci(fp['ci95'])}: {verdict}"))
        cards.append(("Seat spread", f"{pct(worst['win_rate'])} – {pct(best['win_rate'])}",
                      f"{self.names[worst['seat']]} to {self.names[best['seat']]}"))
        t = f["turns"]
        cards.append(("Game length", f"{num(t['mean'])} turns",
                      f"median {num(t['median'])}, {span(t['min'], t['max'])}; "
                      f"{num(f['moves']['mean'])} moves"))
        cards.append(("Draws and shared wins", f"{f['drawn_games']:,} · {f['shared_wins']:,}",
                      f"drawn games · games with several winners, of {f['games']:,}"))
        return ('<section class="cards">' + "".join(
            f'<div class="card"><p class="label">{_e(a)}</p><p class="value">{_e(b)}</p>'
            f'<p class="hint">{_e(c)}</p></div>' for a, b, c in cards) + "</section>")

    def seats(self) -> str:
        f = self.f
        rows = [[self.names[s["seat"]], num(s["wins"]), num(s["draws"]), num(s["losses"]),
                 pct(s["win_rate"]), ci(s["ci95"]), "yes" if s["significant"] else "no"]
                for s in f["seats"]]
        table = self.table("Wins per seat", ["Seat", "Wins", "Draws", "Losses", "Win rate",
                                             "95% CI", "Off fair?"], rows, "num")
        alt = "Bar chart of the win rate of each seat with its 95% confidence interval: " + "; ".join(
            f"{self.names[s['seat']]} {pct(s['win_rate'])} ({ci(s['ci95'])})" for s in f["seats"]
        ) + f"; fair share {pct(f['fair_share'])}."
        intro = (f"Each seat's share of the {f['games']:,} games it won (a shared win counts for each "
                 "winner), with its 95% confidence interval (Wilson). A seat is <em>off fair</em> "
                 f"when the fair share ({_e(pct(f['fair_share']))}, all wins / "
                 "(games × seats)) lies outside its interval.")
        return self.section("seats", "Win rate by seat", intro, self.chart("seats", alt), table)

    def first_player(self) -> str:
        fp, f = self.f["first_player"], self.f
        if not fp["games"]:
            return ('<section id="first"><h2>First-player advantage</h2><p>No game began with '
                    'a decision of one seat (every first decision was simultaneous), so no seat '
                    'started.</p></section>')
        rows = [["Starting seat", num(fp["games"]), num(fp["wins"]), num(fp["draws"]),
                 num(fp["losses"]), pct(fp["win_rate"]), ci(fp["ci95"])]]
        table = self.table("The seat that made the first move", ["", "Games", "Wins", "Draws", "Losses",
                                                                 "Win rate", "95% CI"], rows, "num")
        started = self.table("Which seat started", ["Seat", "Games started", "Share"],
                             [[self.names[s], num(c), pct(c / fp["games"])]
                              for s, c in enumerate(fp["started"])], "num")
        adv = fp["advantage"]
        verdict = ("<strong>significant</strong>: the fair share lies outside the interval"
                   if fp["significant"] else "not significant: the fair share lies inside the interval")
        intro = (f"The seat that made the first decision of a game won {_e(pct(fp['win_rate']))} "
                 f"of those games (95% CI {_e(ci(fp['ci95']))}), "
                 f"{_e(f'{100 * adv:+.1f}')} points from the fair share of {_e(pct(f['fair_share']))}: "
                 f"{verdict}.")
        return (f'<section id="first"><h2>First-player advantage</h2><p>{intro}</p>'
                f'<div class="tables">{table}{started}</div></section>')

    def lengths(self) -> str:
        f = self.f
        summary = self.table("Game length", ["", "Mean", "SD", "Min", "Median", "Max"],
                             [[label, num(d["mean"]), num(d["sd"]), num(d["min"]),
                               num(d["median"]), num(d["max"])]
                              for label, d in (("Turns", f["turns"]), ("Moves", f["moves"]))], "num")
        bins = self.table("Games by length in turns", ["Turns", "Games", "Share"],
                          [[span(b["low"], b["high"]), num(b["count"]), pct(b["count"] / f["games"])]
                           for b in f["turns"]["histogram"]], "num")
        mbins = self.table("Games by length in moves", ["Moves", "Games", "Share"],
                           [[span(b["low"], b["high"]), num(b["count"]), pct(b["count"] / f["games"])]
                            for b in f["moves"]["histogram"]], "num")
        alt = ("Histograms of game length, in completed turns and in moves: " + "; ".join(
            f"{span(b['low'], b['high'])} turns: {b['count']} games" for b in f["turns"]["histogram"]) + ".")
        intro = ("How long games last: in completed turns, and in moves (every decision of a "
                 "seat is one move).")
        return self.section("length", "Game length", intro, self.chart("lengths", alt),
                            summary + bins + mbins, wide=True)

    def scores(self) -> str:
        f = self.f
        summary = self.table("Scores per seat", ["Seat", "Mean", "SD", "Min", "Median", "Max"],
                             [[self.names[s["seat"]], num(s["score"]["mean"]), num(s["score"]["sd"]),
                               num(s["score"]["min"]), num(s["score"]["median"]), num(s["score"]["max"])]
                              for s in f["seats"]], "num")
        hist = f["score_histogram"]
        bins = self.table("Games by final score", ["Score"] + self.names,
                          [[span(b["low"], b["high"])] + [num(c) for c in b["counts"]] for b in hist],
                          "num")
        alt = "Histogram of the final scores of each seat: " + "; ".join(
            f"{self.names[s['seat']]} mean {num(s['score']['mean'])}" for s in f["seats"]) + "."
        intro = "The final scores, as the rules count them, of each seat."
        payoffs = ""
        if "payoff" in f["seats"][0]:   # only when the ruleset declares a payoff
            payoffs = self.table("Payoffs per seat", ["Seat", "Mean", "SD", "Min", "Median", "Max"],
                                 [[self.names[s["seat"]]] + [num(s["payoff"][k]) for k in
                                                             ("mean", "sd", "min", "median", "max")]
                                  for s in f["seats"]], "num")
            intro += " The payoffs are what each seat gets at the end, as the ruleset declares them."
        return self.section("scores", "Scores", intro, self.chart("scores", alt) if hist else "",
                            summary + payoffs + (bins if hist else ""), wide=True)

    def kinds(self) -> str:
        f = self.f
        rows = [[k["kind"], num(k["count"]), pct(k["share"]), num(k["per_game"])]
                + [num(c) for c in k["seats"]] for k in f["kinds"]]
        table = self.table("Moves by kind", ["Kind", "Moves", "Share", "Per game"] + self.names,
                           rows, "num")
        alt = "Bar chart of how often each kind of move was chosen: " + "; ".join(
            f"{k['kind']} {pct(k['share'])}" for k in f["kinds"][:MAX_KINDS_CHARTED]) + "."
        intro = ("How often each kind of move was chosen, by its verb (the word the move "
                 "begins with), or for a decision without a verb, the type of its options in "
                 "parentheses; per game and per seat.")
        return self.section("kinds", "Moves by kind", intro,
                            self.chart("kinds", alt) if f["kinds"] else "", table)

    def footer(self, command: str, now: datetime) -> str:
        s = self.stats
        return (f'<footer><p>Made by Meeple {_e(__version__)} on '
                f'{_e(now.strftime("%Y-%m-%d %H:%M UTC"))} with</p><pre><code>{_e(command)}</code></pre>'
                f'<p>Seed {_e(s["seeds"]["first"])}: game <em>i</em> used seed '
                f'{_e(s["seeds"]["first"])} + <em>i</em>; the same command gives the same '
                'figures. The bots saw only what their seat may see; this page shows finished '
                'games only.</p></footer>')


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<main>
{body}
</main>
</body>
</html>
"""

_STYLE = """
:root { --ink: #1f2a44; --muted: #5b6478; --line: #e3e6ee; --bg: #f6f7fb; --card: #fff;
        --accent: #4269d0; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 32px 24px 48px; }
header h1 { margin: 0 0 4px; font-size: 30px; }
.kicker { margin: 0; color: var(--accent); font-weight: 600; text-transform: uppercase;
          letter-spacing: .08em; font-size: 12px; }
.sub { margin: 0; color: var(--muted); }
.note { background: #fff5d6; border: 1px solid #efb118; border-radius: 8px; padding: 10px 14px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 24px 0 8px; }
.card { flex: 1 1 180px; background: var(--card); border: 1px solid var(--line); border-radius: 12px;
        padding: 14px 16px; }
.card p { margin: 0; }
.card .label { color: var(--muted); font-size: 13px; }
.card .value { font-size: 24px; font-weight: 650; margin: 2px 0; font-variant-numeric: tabular-nums; }
.card .hint { color: var(--muted); font-size: 12.5px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px;
          padding: 18px 22px; margin: 16px 0; }
section.cards { background: none; border: 0; padding: 0; }
h2 { margin: 0 0 6px; font-size: 20px; }
section > p { color: var(--muted); margin: 0 0 12px; max-width: 75ch; }
.pair { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
.pair > figure { flex: 1 1 480px; min-width: 0; }
.pair > .tables { flex: 1 1 420px; min-width: 0; }
.stack > figure { flex-basis: 100%; }
.stack > .tables { flex-basis: 100%; flex-direction: row; flex-wrap: wrap; align-items: flex-start; }
.stack > .tables > table { flex: 1 1 300px; width: auto; }
figure { margin: 0; }
figure img { max-width: 100%; height: auto; display: block; }
.tables { display: flex; flex-direction: column; gap: 14px; overflow-x: auto; }
table { border-collapse: collapse; font-size: 13.5px; font-variant-numeric: tabular-nums; width: 100%; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
thead th { color: var(--muted); font-weight: 600; border-bottom: 2px solid var(--line); }
table.num td, table.num thead th { text-align: right; }
table.num thead th:first-child, tbody th { text-align: left; font-weight: 500; }
tbody tr:hover { background: #f2f5fc; }
footer { color: var(--muted); font-size: 13px; margin-top: 24px; }
footer pre { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
             padding: 8px 12px; white-space: pre-wrap; word-break: break-all; color: var(--ink); }
"""


# ---------------------------------------------------------------- the charts

def _pyplot():
    """matplotlib's pyplot on the Agg backend (never a window), or None when matplotlib
    is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def _charts(stats: dict, figures: dict) -> dict | None:
    """Chart name -> its SVG, base64; None without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    names = [s["player"] for s in stats["seats"]]
    style = {"text.parse_math": False, "svg.hashsalt": "meeple", "svg.fonttype": "path",
             "font.size": 10, "axes.spines.top": False, "axes.spines.right": False,
             "axes.edgecolor": "#9aa1b1", "axes.labelcolor": ACCENT, "xtick.color": "#5b6478",
             "ytick.color": "#5b6478", "axes.titleweight": "bold", "axes.titlesize": 11,
             "axes.titlelocation": "left", "axes.grid": True, "grid.color": "#e3e6ee",
             "grid.linewidth": 0.8, "axes.axisbelow": True, "figure.dpi": 100}
    out = {}
    with plt.rc_context(style):
        for key, draw in (("seats", _seats_chart), ("lengths", _lengths_chart),
                          ("scores", _scores_chart), ("kinds", _kinds_chart)):
            fig = draw(plt, figures, names)
            if fig is not None:
                out[key] = _svg(plt, fig)
    return out


def _svg(plt, fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _seats_chart(plt, f: dict, names: list[str]):
    seats = f["seats"]
    fp = f["first_player"]
    labels = [names[s["seat"]] for s in seats]
    rates = [s["win_rate"] for s in seats]
    cis = [s["ci95"] for s in seats]
    colours = [PALETTE[i % len(PALETTE)] for i in range(len(seats))]
    if fp["games"]:
        labels.append("Starting seat")
        rates.append(fp["win_rate"])
        cis.append(fp["ci95"])
        colours.append(ACCENT)
    y = list(range(len(labels)))[::-1]
    fig, ax = plt.subplots(figsize=(6.4, 0.55 * len(labels) + 1.1))
    err = [[r - c[0] for r, c in zip(rates, cis)], [c[1] - r for r, c in zip(rates, cis)]]
    ax.barh(y, rates, color=colours, height=0.62, xerr=err,
            error_kw={"ecolor": "#1f2a44", "capsize": 4, "elinewidth": 1.2})
    ax.axvline(f["fair_share"], color="#c0392b", linestyle="--", linewidth=1.2,
               label=f"fair share {pct(f['fair_share'])}")
    for yi, r, c in zip(y, rates, cis):
        ax.text(c[1] + 0.015, yi, pct(r), va="center", fontsize=9, color=ACCENT)
    ax.set_yticks(y, [_short(x) for x in labels])
    hi = max(c[1] for c in cis)
    ax.set_xlim(0, min(1.0, hi + 0.12) if hi < 0.88 else 1.08)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{100 * v:.0f}%"))
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("win rate (bars: 95% confidence interval)")
    ax.set_title("Win rate by seat")
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9)
    return fig


def _short(label: str, width: int = 24) -> str:
    """A label as a chart shows it (the tables have it whole)."""
    return label if len(label) <= width else label[:width - 1] + "…"


def _legend_above(ax, n: int):
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, [_short(x, 18) for x in labels], loc="lower right",
              bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9, ncols=min(n, 4))


def _hist_bars(ax, bins: list[dict], colour: str, label: str | None = None,
               offset: float = 0.0, width: float = 0.85):
    xs = [i + offset for i in range(len(bins))]
    ax.bar(xs, [b.get("count", 0) for b in bins], width=width, color=colour,
           label=label)
    return xs


def _bin_ticks(ax, bins: list[dict]):
    labels = [span(b["low"], b["high"]) for b in bins]
    tilt = sum(len(x) + 2 for x in labels) > 60   # would they run into each other?
    ax.set_xticks(range(len(bins)), labels, rotation=40 if tilt else 0,
                  ha="right" if tilt else "center")
    ax.grid(axis="x", visible=False)
    if len(bins) < 4:   # a few bars stay bars, not walls
        ax.set_xlim(-2, len(bins) + 1)


def _lengths_chart(plt, f: dict, names: list[str]):
    fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.2))
    for ax, key, what, colour in ((axes[0], "turns", "turns", PALETTE[0]),
                                  (axes[1], "moves", "moves", PALETTE[3])):
        d = f[key]
        _hist_bars(ax, d["histogram"], colour)
        _bin_ticks(ax, d["histogram"])
        ax.set_title(f"Game length in {what}")
        ax.set_xlabel(f"{what} (mean {num(d['mean'])}, median {num(d['median'])})")
        ax.set_ylabel("games")
    fig.tight_layout()
    return fig


def _scores_chart(plt, f: dict, names: list[str]):
    hist = f["score_histogram"]
    if not hist:
        return None
    n = len(names)
    fig, ax = plt.subplots(figsize=(7.2, 3.4))
    width = 0.84 / n
    for s in range(n):
        bins = [{"count": b["counts"][s]} for b in hist]
        _hist_bars(ax, bins, PALETTE[s % len(PALETTE)], names[s],
                   offset=(s - (n - 1) / 2) * width, width=width)
    _bin_ticks(ax, hist)
    ax.set_title("Final scores")
    ax.set_xlabel("score")
    ax.set_ylabel("games")
    _legend_above(ax, n)
    fig.tight_layout()
    return fig


def _kinds_chart(plt, f: dict, names: list[str]):
    kinds = f["kinds"][:MAX_KINDS_CHARTED]
    if not kinds:
        return None
    n = len(names)
    fig, ax = plt.subplots(figsize=(6.4, 0.42 * len(kinds) + 1.3))
    y = list(range(len(kinds)))[::-1]
    total = sum(k["count"] for k in f["kinds"])
    left = [0.0] * len(kinds)
    for s in range(n):
        part = [k["seats"][s] / total if total else 0 for k in kinds]
        ax.barh(y, part, left=left, color=PALETTE[s % len(PALETTE)], height=0.62, label=names[s])
        left = [a + b for a, b in zip(left, part)]
    for yi, k in zip(y, kinds):
        ax.text(k["share"] + 0.005, yi, f"{pct(k['share'])} · {num(k['per_game'])}/game",
                va="center", fontsize=8.5, color=ACCENT)
    ax.set_yticks(y, [_short(k["kind"]) for k in kinds])
    ax.set_xlim(0, max(k["share"] for k in kinds) * 1.35)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{100 * v:.0f}%"))
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("share of all moves (coloured by seat)")
    ax.set_title("Moves by kind")
    _legend_above(ax, n)
    return fig
