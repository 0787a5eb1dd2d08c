"""What a rulebook says, from a checked ruleset: its sections, paragraphs, tables and the
steps of every rule, in the language of the ruleset's locale.

    from meeple import interpreter
    from meeple.interpreter import rulebook, rulebook_view
    book = rulebook.build(interpreter.load("path/to/my-game", locale="de"))
    print(rulebook_view.markdown(book))

Sentences come from the rulebook catalogs (``rulebook_messages/<lang>.json``: one
template per key, ``{field}`` placeholders) filled with the ruleset's own names and
texts; an expression no sentence fits is given as Meeple code (``Code``). A language
without a catalog gets English sentences and a note saying so. The model is plain data;
``rulebook_view`` writes it as Markdown or HTML.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from ...dsl import ast as ir, load as dsl_load
from ...dsl.check_decls import prose_keys
from ..play import display
from . import meeple_code as mc

# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class Code:
    """Meeple code inside a sentence (a name or an expression)."""
    text: str


Text = tuple  # of str (plain words) and Code parts


@dataclass
class Para:
    text: Text


@dataclass
class Items:
    items: list  # of Text


@dataclass
class Table:
    header: list  # of Text
    rows: list    # of lists of Text


@dataclass
class Step:
    text: Text
    children: list = field(default_factory=list)


@dataclass
class Steps:
    steps: list  # of Step


@dataclass
class Diagram:
    """A board drawn as a graph: cells at their (x, y), edges between related cells."""
    board: str
    cells: list  # of (name, x, y)
    edges: list  # of (i, j): indexes into cells


@dataclass
class Section:
    id: str
    title: Text
    blocks: list = field(default_factory=list)
    sections: list = field(default_factory=list)


@dataclass
class Rulebook:
    title: str
    lang: str            # the language of the sentences (a catalog's code)
    locale: str | None
    variants: list
    sections: list       # of Section
    missing: set = field(default_factory=set)   # template keys the language lacks


# ---------------------------------------------------------------- catalogs

@cache
def catalogs() -> dict[str, dict]:
    """The rulebook sentence catalogs by language code, read once."""
    folder = resources.files(__package__) / "rulebook_messages"
    return {f.name[:-5]: json.loads(f.read_text(encoding="utf-8"))
            for f in sorted(folder.iterdir(), key=lambda f: f.name) if f.name.endswith(".json")}


def language_of(checked) -> str | None:
    """The catalog for a checked ruleset's locale: named like the locale (or its
    language part), or whose ``language`` is the one the locale declares; None when
    there is none (English sentences)."""
    if not checked.locale:
        return "en"
    cats = catalogs()
    for code in (checked.locale, checked.locale.replace("_", "-").split("-")[0]):
        if code in cats:
            return code
    declared = (checked.language or "").casefold()
    return next((c for c, cat in cats.items() if declared and cat["language"].casefold() == declared), None)


_FIELD = re.compile(r"\{([a-z_]+)\}")


class _Say:
    def __init__(self, lang: str):
        self.lang = lang
        self.messages = catalogs()[lang]["messages"]
        self.english = catalogs()["en"]["messages"]
        self.missing: set[str] = set()

    def __call__(self, msgid: str, /, **fields) -> Text:
        template = self.messages.get(msgid)
        if template is None:
            self.missing.add(msgid)
            template = self.english[msgid]
        out: list = []
        pos = 0
        for m in _FIELD.finditer(template):
            out.append(template[pos:m.start()])
            value = fields[m.group(1)]
            out.extend(value if isinstance(value, tuple) else (value,))
            pos = m.end()
        out.append(template[pos:])
        return tuple(p for p in out if p != "")

    def word(self, key: str) -> str:
        return "".join(str(p) for p in self(key))


def join(parts, sep=", ") -> Text:
    out: list = []
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.extend(p if isinstance(p, tuple) else (p,))
    return tuple(out)


def capitalised(text: Text) -> Text:
    """The text with its first letter in upper case (when it starts with words)."""
    if text and isinstance(text[0], str) and text[0]:
        return (text[0][0].upper() + text[0][1:],) + tuple(text[1:])
    return text


def plain(text: Text) -> str:
    """A text without its code marks."""
    return "".join(p.text if isinstance(p, Code) else p for p in text)


# ---------------------------------------------------------------- building

def _decisions(block: ir.Block, when: tuple):
    """Every decision in a block, with the conditions under which it is reached (Meeple
    code: the ``if`` conditions around it, the loops it is in)."""
    for st in block.stmts:
        match st.node:
            case "Choose" | "ChooseSubset" | "ChooseEach":
                yield st, when
            case "Best" if st.tie == "choose":
                yield st, when
            case "If":
                before: list[str] = []
                for cond, body in st.branches:
                    here = mc.expr(cond)
                    test = f"not {_any(before)} and {_paren(here)}" if before else here
                    yield from _decisions(body, when + (test,))
                    before.append(here)
                if st.other is not None:
                    yield from _decisions(st.other, when + (f"not {_any(before)}",))
            case "For":
                yield from _decisions(st.body, when + (f"for {st.var} in {mc.expr(st.iter)}",))
            case "While":
                yield from _decisions(st.body, when + (f"while {mc.expr(st.cond)}",))


def _paren(code: str) -> str:
    return f"({code})" if " or " in code else code


def _any(conds: list[str]) -> str:
    return f"({' or '.join(conds)})" if len(conds) > 1 or " " in conds[0] else conds[0]


def build(ruleset) -> Rulebook:
    """The rulebook of a loaded ruleset (``interpreter.load(...)``), in its locale's
    language, with its chosen variants applied."""
    return _Builder(ruleset).book()


def sources_of(ruleset):
    """The parsed files of a loaded ruleset's folder: a ruleset from the disk cache keeps
    only their texts, parsed again here (the variants not chosen are in the book too)."""
    src = ruleset.sources
    if src is None or src.base is not None or not src.sources:
        return src
    out = dsl_load.SourceSet()
    for name, text in src.sources.items():
        dsl_load.add_text(out, name, text)
    return out


def prose_wanted(ruleset) -> list[str]:
    """The keys of every rule of a loaded ruleset (its chosen variants applied) that
    ``prose KEY "..."`` may describe for players: its phases, procedures, decisions'
    verbs and the variants of its folder."""
    return _prose_wanted(ruleset, list(sources_of(ruleset).variants))


def _prose_wanted(ruleset, variants: list[str]) -> list[str]:
    c = ruleset.checked
    verbs = [n.verb for d in (c.setup, c.turn, c.at_end, *c.procedures.values()) if d is not None
             for n, _ in _decisions(d.body, ()) if getattr(n, "verb", None)]
    return prose_keys(c, verbs, variants)


def missing_prose(rulesets: list) -> list[str]:
    """The rules that lack prose in one language: ``rulesets`` are one folder loaded in
    one locale (or none) with different variants chosen; what counts is the prose of
    that locale's own file (with no locale: of the base and variant files), not prose
    it would inherit from the base in another language."""
    src, locale = sources_of(rulesets[0]), rulesets[0].checked.locale   # (parsed once)
    variants = list(src.variants)
    wanted = list(dict.fromkeys(k for r in rulesets for k in _prose_wanted(r, variants)))
    files = [src.locales[locale]] if locale else [src.base, *src.variants.values()]
    have = {d.key for f in files for d in f.decls if d.node == "ProseDecl"}
    return [k for k in wanted if k not in have]


def _code(e) -> Code:
    """An expression written as Meeple code, for a rulebook step."""
    return Code(mc.expr(e))


class _Builder:
    def __init__(self, ruleset):
        self.r = ruleset
        self.c = ruleset.checked
        self.lang = language_of(self.c)
        self.say = _Say(self.lang or "en")
        self.counts = list(range(ruleset.min_players, ruleset.max_players + 1))
        if len(self.counts) > 8:
            self.counts = [ruleset.min_players, ruleset.max_players]

    # -- prose
    def prose(self, key: str) -> list:
        """The ruleset's own words for players about one rule (``prose KEY``), if any."""
        text = self.c.prose.get(key)
        return [Para((text,))] if text else []

    # -- names
    def name(self, path: str) -> str:
        got = self.c.names.get(path)
        return got[0] if got else path.rsplit(".", 1)[-1].replace("_", " ")

    def named(self, path: str) -> Text:
        """A declared name with what players see it called: ``hand`` (hand cards)."""
        shown = self.name(path)
        return (Code(path),) if shown == path else (Code(path), f" ({shown})")

    def attr(self, kind: str, a: str) -> Text:
        """An attribute with its type and what players see it called: ``value: int``."""
        t = self.c.kinds[kind][a]
        shown = self.name(f"{kind}.{a}")
        return (Code(f"{a}: {t}"),) + ((f" ({shown})",) if shown != a else ())

    def verb(self, verb: str) -> Text:
        text = self.c.texts.get(verb)
        return (Code(verb),) if not text or text == verb else (Code(verb), f" ({text})")

    def book(self) -> Rulebook:
        s = self.say
        sections = [self.overview(), self.components(), self.setup(), self.turn(),
                    self.procedures(), self.end(), self.variants(), self.vocabulary()]
        book = Rulebook(self.c.title, s.lang, self.c.locale, list(self.c.variants),
                        [x for x in sections if x is not None])
        if self.lang is None:
            book.sections[0].blocks.insert(0, Para(s("note.no_templates", language=self.c.language or self.c.locale)))
        book.missing = set(s.missing)
        return book

    # -- overview
    def overview(self) -> Section:
        s, c = self.say, self.c
        lo, hi = c.players
        blocks = [Para(s("overview.players_exact", n=str(lo)) if lo == hi
                       else s("overview.players", min=str(lo), max=str(hi))),
                  Para(s(f"overview.{c.order}"))]
        if c.variants:
            blocks.append(Para(s("overview.with_variants", variants=join(
                [(c.variant_titles.get(v, v),) for v in c.variants]))))
        if self.r.hidden_information:
            blocks.append(Para(s("overview.hidden")))
        goal = Section("goal", s("h.goal"), self.prose("score") + self.goal())
        return Section("overview", s("h.overview"), self.prose("overview") + blocks, [goal])

    def goal(self) -> list:
        """How the game is won: the score, the payoffs, the outcomes, the teams."""
        s, c = self.say, self.c
        out = []
        if c.score is not None:
            score = self.name("score") if "score" in c.names else s.word("w.score")
            out.append(Para(capitalised(s("goal.score", score=score, expr=Code(mc.expr(c.score.body))))))
        if c.payoff is not None:   # ``payoff(p) = ...`` / ``payoff = ...`` [per D] [summing to N]
            key = "goal.payoff" if c.payoff.param is not None else "goal.payoff_shared"
            out.append(Para(s(key, expr=Code(mc.expr(c.payoff.body)))))
            if c.payoff.per is not None:   # ``per D``
                out.append(Para(s("goal.payoff_per", d=str(c.payoff.per))))
            if c.payoff.total is not None:
                out.append(Para(s("goal.payoff_total", n=str(c.payoff.total))))
        if c.outcome is not None:
            out.append(Para(s("goal.outcome")))
            out.append(Items([s("goal.outcome_when", outcome=s.word(f"w.{cl.outcome}"), cond=Code(mc.expr(cl.cond)))
                              if cl.cond is not None else s("goal.outcome_otherwise", outcome=s.word(f"w.{cl.outcome}"))
                              for cl in c.outcome.clauses]))
        if c.team is not None:
            out.append(Para(s("goal.team", expr=Code(mc.expr(c.team.body)))))
        return out

    def ending(self) -> list:
        """When the game ends, and the rest of the scoring: tiebreaks, participants."""
        s, c = self.say, self.c
        out = [Para(s("goal.end_when", cond=Code(mc.expr(c.end.cond))) if c.end is not None
                    else s("goal.end_game"))]
        if c.endless:      # ``bound ... or endless``: the bound is where `meeple test` stops
            out.append(Para(s("goal.endless")))
        elif c.bound is not None:
            out.append(Para(s("goal.bound", n=str(c.bound[0]), unit=s.word(f"w.{c.bound[1]}"))))
        for t in c.tiebreaks:
            out.append(Para(s("goal.tiebreak", name=self.named(t.name), expr=Code(mc.expr(t.body)))))
        for name, p in c.participants.items():
            out.append(Para(s("goal.participant", name=self.named(name))))
            if p.score is not None:
                out.append(Para(s("goal.participant_score", name=self.named(name), expr=Code(mc.expr(p.score)))))
        return out

    # -- components
    def components(self) -> Section:
        s, c = self.say, self.c
        subs = []
        if c.kinds:
            rows = []
            for k, attrs in c.kinds.items():
                fixed = [a for a in attrs if a not in c.item_vars.get(k, {})]
                var = list(c.item_vars.get(k, {}))
                rows.append([(Code(k),), (self.name(k),), join([self.attr(k, a) for a in fixed]),
                             join([self.attr(k, a) for a in var])])
            subs.append(Section("kinds", s("h.kinds"), [Table(
                [s("t.kind"), s("t.shown"), s("t.attributes"), s("t.item_vars")], rows)]))
        if c.decks:
            subs.append(Section("decks", s("h.decks"), self.decks()))
        if c.boards:
            subs.append(Section("boards", s("h.boards"), self.boards()))
        if c.zones:
            subs.append(Section("zones", s("h.zones"), self.zones()))
        if c.vars:
            rows = [[(Code(n),), (self.name(n),), (Code(mc.type_code(v.type)),),
                     (s.word("w.yes") if v.per_player else s.word("w.no"),), (Code(mc.expr(v.init)),),
                     (s.word(f"v.{v.visibility or 'public'}"),)] for n, v in c.vars.items()]
            subs.append(Section("variables", s("h.variables"), [Table(
                [s("t.variable"), s("t.shown"), s("t.type"), s("t.per_player"), s("t.initial"), s("t.seen_by")], rows)]))
        if c.functions or c.relations or c.consts:
            items = [(Code(mc.decl(f)),) for f in c.consts.values()]
            items += [(Code(mc.decl(f)),) for f in c.relations.values()]
            items += [(Code(mc.decl(f)),) for f in c.functions.values()]
            subs.append(Section("functions", s("h.functions"), [Para(s("functions.intro")), Items(items)]))
        return Section("components", s("h.components"), [], subs)

    def decks(self) -> list:
        s, c = self.say, self.c
        out = []
        per_count = {n: self._deck_counts(n) for n in self.counts}
        for i, d in enumerate(c.decks):
            out.append(Para(s("deck.intro", deck=self.named(d.name), zone=self.named(d.into))))
            out.append(Items([(Code(mc.deck_entry(e)),) for e in d.entries]))
            distinct = {}
            for n in self.counts:
                distinct.setdefault(tuple(sorted(per_count[n][i].items())), []).append(n)
            for kinds, ns in distinct.items():
                total = sum(k for _, k in kinds)
                out.append(Para(s("deck.count", n=str(total), players=self.players(ns),
                                  kinds=join([(f"{k} × ", *self.named(kind)) for kind, k in kinds]))))
                contents = self.contents(d.name, ns[0])
                if contents:
                    out.append(Para(s("deck.contents", items=contents)))
        return out

    def contents(self, deck: str, n: int) -> str:
        """The items of a deck as players read them (their labels), each with how many
        there are; empty when there are too many different ones to list."""
        prog = self.r.for_players(n)
        ivars = self._start_ivars(n)
        counts: dict[str, int] = {}
        for i in prog.deck_items[deck]:
            label = display.item_label(prog, i, ivars=ivars)
            counts[label] = counts.get(label, 0) + 1
        if len(counts) > 80:
            return ""
        return "; ".join(label if k == 1 else f"{label} × {k}" for label, k in counts.items())

    def _start_ivars(self, n: int):
        """The items' variables as play begins: after a setup without chance (the same in
        every game), else as declared; None (labels show '?') when neither is known."""
        prog = self.r.for_players(n)
        try:
            game = prog.new_game(n, seed=0, chance="explicit")
            if not game.at_chance:
                return game.state["ivars"]
            return prog.init_item_vars(None)
        except Exception:  # noqa: BLE001 - a best effort: setup may fail, or need a game
            return None

    def players(self, ns: list) -> Text:
        if len(ns) == len(self.counts):
            return self.say("w.any_players")
        return self.say("w.n_players", n=", ".join(str(n) for n in ns))

    def _deck_counts(self, n: int) -> list[dict]:
        prog = self.r.for_players(n)
        out = []
        for d in self.c.decks:
            kinds: dict[str, int] = {}
            for i in prog.deck_items[d.name]:
                kinds[prog.items[i].kind] = kinds.get(prog.items[i].kind, 0) + 1
            out.append(kinds)
        return out

    def boards(self) -> list:
        s = self.say
        out = []
        for name in self.c.boards:
            d = self._board_decl(name)
            out.append(Para(s("board.intro", board=self.named(name), kind=self.named(d.holds.name),
                              seen=s.word(f"v.{d.visibility}"))))
            if d.dark:
                out.append(Para(s("place.dark", place=self.named(name))))
            if d.generator:
                out.append(Para(s("board.shape", shape=Code(f"{d.generator}({mc.named_args(d.args)})"))))
            sizes: dict[int, list] = {}
            for n in self.counts:
                sizes.setdefault(len(self.r.for_players(n).boards.get(name, ())), []).append(n)
            for size, ns in sizes.items():
                out.append(Para(s("board.cells", n=str(size), players=self.players(ns))))
            prog = self.r.for_players(self.counts[0])
            cells = [prog.zones[z].cell for z in prog.boards.get(name, ())]
            coords = sorted({k for cell in cells for k in cell.coords})
            if coords:
                out.append(Para(s("board.coords", coords=join([(Code(k),) for k in coords]))))
            if len(cells) <= 64 and not d.generator:
                out.append(Items([(Code(cell.name), " (" + ", ".join(f"{k}: {v}" for k, v in cell.coords.items()) + ")")
                                  for cell in cells]))
            out.append(self.diagram(name, prog))
        return out

    def _board_decl(self, name: str) -> ir.BoardDecl:
        return self.c.boards[name].decl

    def diagram(self, name: str, prog) -> Diagram:
        zones = prog.boards.get(name, ())
        index = {z: i for i, z in enumerate(zones)}
        cells = [(prog.zones[z].cell.name, prog.zones[z].cell.x, prog.zones[z].cell.y) for z in zones]
        edges = set()
        for rname, r in self.c.relations.items():
            if len(r.params) != 2 or {p.type.name for p in r.params} != {name}:
                continue
            table = prog.ns.get(f"REL_{rname}") or []
            pairs = {(min(index[a], index[b]), max(index[a], index[b]))
                     for a in zones if a < len(table) for b in table[a] if b in index and a != b}
            if len(pairs) <= 4 * len(zones):
                edges |= pairs
        return Diagram(name, cells, sorted(edges))

    def zones(self) -> list:
        s, c = self.say, self.c
        rows = [[(Code(n),), (self.name(n),), self.named(z.holds.name),
                 (s.word("w.yes") if z.per_player else s.word("w.no"),), (s.word(f"v.{z.visibility}"),)]
                for n, z in c.zones.items()]
        out: list = [Table([s("t.zone"), s("t.shown"), s("t.holds"), s("t.per_player"), s("t.seen_by")], rows)]
        for sec in c.secrets:
            out.append(Para(s("zone.secret_end" if sec.until_end else "zone.secret", zone=self.named(sec.zone))))
        for n, z in c.zones.items():
            if z.dark:
                out.append(Para(s("place.dark", place=self.named(n))))
        hidden = list(c.offscreen)
        if hidden:
            out.append(Para(s("zone.offscreen", names=join([(Code(n),) for n in sorted(hidden)]))))
        return out

    # -- phases
    def setup(self) -> Section | None:
        s = self.say
        blocks = self.prose("setup")
        if self.c.setup is not None:
            blocks.append(Steps(self.steps(self.c.setup.body)))
        else:
            blocks.append(Para(s("setup.none")))
        if len(self.counts) > 1:
            boards = list(self.c.boards)
            rows = []
            for n in self.counts:
                prog = self.r.for_players(n)
                rows.append([(str(n),), (str(len(prog.items)),)] + [(str(len(prog.boards.get(b, ()))),) for b in boards])
            blocks.append(Para(s("setup.per_count")))
            blocks.append(Table([s("t.players"), s("t.items")] + [s("t.cells_of", board=self.named(b)) for b in boards], rows))
        return Section("setup", s("h.setup"), blocks)

    def turn(self) -> Section:
        s = self.say
        blocks = self.prose("turn") + [Para(s("turn.intro"))]
        if self.c.turn is not None:
            blocks.append(Steps(self.steps(self.c.turn.body)))
        actions = self.actions()
        told = [(Code(v), f" ({self.c.texts[v]})" if self.c.texts.get(v, v) != v else "", ": " + self.c.prose[k])
                for k in self.c.prose if k.startswith("action.") for v in [k.removeprefix("action.")]]
        subs = [Section("actions", s("h.actions"), [Para(s("actions.intro")), Table(
            [s("t.move"), s("t.who"), s("t.from"), s("t.when"), s("t.where")], actions)]
            + ([Items([tuple(p for p in t if p) for t in told])] if told else []))] if actions else []
        return Section("turn", s("h.turn"), blocks, subs)

    def actions(self) -> list:
        s, c = self.say, self.c
        places = [(s("where.setup"), c.setup), (s("where.turn"), c.turn), (s("where.at_end"), c.at_end)]
        places += [(s("where.procedure", name=Code(n)), p) for n, p in c.procedures.items()]
        rows = []
        for where, d in places:
            if d is None:
                continue
            for n, when in _decisions(d.body, ()):
                if n.node == "Best":
                    verb, who = self.verb("tie"), self.who(n.chooser)
                else:
                    verb = self.verb(n.verb) if n.verb else (Code(n.var),)
                    if getattr(n, "alone", None):
                        verb = join([verb, *(self.verb(v) for v in (n.alone, *n.more))], " / ")
                    who = self.who(getattr(n, "chooser", None)) if n.node != "ChooseEach" else (Code(mc.expr(n.seats)),)
                cond = join([(Code(w),) for w in when], "; ") if when else s("w.always")
                rows.append([verb, who, (Code(mc.expr(n.options)),), cond, where])
        return rows

    def who(self, chooser) -> Text:
        return (Code(mc.expr(chooser)),) if chooser is not None else self.say("w.active")

    def procedures(self) -> Section | None:
        s = self.say
        subs = []
        for name, p in self.c.procedures.items():
            blocks = self.prose(f"procedure.{name}")
            if p.params:
                blocks.append(Para(s("proc.params", params=Code(mc.params(p.params)))))
            if p.result is not None:
                blocks.append(Para(s("proc.result", type=Code(mc.type_code(p.result)))))
            blocks.append(Steps(self.steps(p.body)))
            subs.append(Section(f"procedure-{name}", (Code(name),), blocks))
        if not subs:
            return None
        return Section("procedures", s("h.procedures"), [Para(s("proc.intro"))], subs)

    def end(self) -> Section:
        s, c = self.say, self.c
        blocks = self.prose("end") + self.ending()
        subs = []
        if c.at_end is not None:
            subs.append(Section("at-end", s("h.at_end"), [Para(s("at_end.intro")), Steps(self.steps(c.at_end.body))]))
        if c.invariants:
            subs.append(Section("checks", s("h.checks"), [Para(s("checks.intro")), Items(
                [(Code(mc.decl(i)),) for i in c.invariants])]))
        return Section("end", s("h.end"), blocks, subs)

    # -- variants
    def variants(self) -> Section | None:
        s = self.say
        src = sources_of(self.r)
        if not src.variants:
            return None
        subs = []
        for name, f in src.variants.items():
            title = self.variant_title(name, f)
            blocks = [Para(s("variant.applied" if name in self.c.variants else "variant.option", name=Code(name)))]
            blocks += self.prose(f"variant.{name}")
            for d in f.decls:
                blocks.extend(self.overlay(d))
            subs.append(Section(f"variant-{name}", (title,), blocks))
        return Section("variants", s("h.variants"), [Para(s("variants.intro"))], subs)

    def variant_title(self, name: str, f) -> str:
        """A variant's title in the locale's language (``name variant.NAME``), else its
        file's ``title``, else its name."""
        got = self.c.names.get(f"variant.{name}")
        return got[0] if got else next((d.text for d in f.decls if d.node == "Title"), name)

    def overlay(self, d) -> list:
        s = self.say
        if d.node in ("Title", "ProseDecl"):
            return []
        if d.node == "Replace":
            return [Para(s("variant.replace", key=Code(ir.decl_key(d.decl))))] + self.decl_blocks(d.decl)
        if d.node == "Extend":
            key = f"procedure {d.name}" if d.target == "procedure" else d.target
            return [Para(s("variant.extend", key=Code(key))), Steps(self.steps(d.body))]
        if d.node == "Remove":
            return [Para(s("variant.remove", key=Code(f"{d.what} {d.name}")))]
        return [Para(s("variant.add", key=Code(ir.decl_key(d))))] + self.decl_blocks(d)

    def decl_blocks(self, d) -> list:
        if d.node == "TextDecl":     # what players read in this locale
            return [Para((Code(d.key), ": " + self.c.texts.get(d.key, d.text)))]
        if d.node == "NameDecl":
            return [Para((Code(d.path), ": " + self.name(d.path)))]
        blocks = [Para((Code(mc.decl(d)),))]
        if d.node in ("ProcedureDecl", "SetupDecl", "TurnDecl", "AtEndDecl"):
            blocks.append(Steps(self.steps(d.body)))
        return blocks

    # -- vocabulary
    def vocabulary(self) -> Section:
        s, c = self.say, self.c
        paths = []
        for e, values in c.enums.items():
            paths += [e] + [f"{e}.{v}" for v in values]
        for k, attrs in c.kinds.items():
            paths += [k] + [f"{k}.{a}" for a in attrs]
        paths += list(c.boards) + list(c.zones) + list(c.vars) + [t.name for t in c.tiebreaks]
        paths += list(c.participants) + ["score"]
        paths += [p for p in c.names if p not in paths and not p.startswith("variant.")]
        rows = []
        for p in dict.fromkeys(paths):
            got = c.names.get(p)
            rows.append([(Code(p),), (self.name(p),), ((got[1] or "") if got else "",)])
        subs = []
        if c.texts:
            subs.append(Section("messages", s("h.messages"), [Table(
                [s("t.key"), s("t.text")], [[(Code(k),), (v,)] for k, v in c.texts.items()])]))
        return Section("vocabulary", s("h.vocabulary"), [Table([s("t.declared"), s("t.shown"), s("t.short")], rows)], subs)

    # -- statements
    def steps(self, block: ir.Block) -> list:
        out = []
        for st in block.stmts:
            step = self.step(st)
            step.text = capitalised(step.text)
            out.append(step)
        return out

    def step(self, st) -> Step:
        for group in (self.value_step, self.flow_step, self.choice_step, self.item_step):
            step = group(st)
            if step is not None:
                return step
        return Step((Code(ir.show(st)),))

    def value_step(self, st) -> Step | None:
        """Setting a value, calling a procedure, returning from one."""
        s = self.say
        match st.node:
            case "Let":
                return Step(s("s.let", var=Code(st.var), value=_code(st.value)))
            case "Assign":
                target = f"{st.var}({mc.expr(st.player)})" if st.player is not None else st.var
                return Step(s("s.set", target=Code(target), value=_code(st.value)))
            case "AttrAssign":
                obj = mc.expr(st.obj) if st.obj is not None else st.var
                return Step(s("s.set", target=Code(f"{obj}.{st.attr}"), value=_code(st.value)))
            case "IndexAssign":
                target = mc.expr(st.target) + "".join(f"[{mc.expr(i)}]" for i in st.indices)
                return Step(s("s.set", target=Code(target), value=_code(st.value)))
            case "CallProc":
                return Step(s("s.call", call=Code(f"{st.proc}({', '.join(mc.expr(a) for a in st.args)})")))
            case "CallResult":
                target = f"{st.var}({mc.expr(st.player)})" if st.player is not None else st.var
                return Step(s("s.call_result", call=Code(f"{st.proc}({', '.join(mc.expr(a) for a in st.args)})"),
                              var=Code(target)))
            case "Return":
                return Step(s("s.return", value=_code(st.value)) if st.value is not None else s("s.return_bare"))
        return None

    def flow_step(self, st) -> Step | None:
        """Conditions, loops, messages and the end of the game."""
        s = self.say
        match st.node:
            case "If":
                return self.if_step(st)
            case "For":
                return Step(s("s.for", var=Code(st.var), iter=_code(st.iter)), self.steps(st.body))
            case "While":
                return Step(s("s.while", cond=_code(st.cond), n=str(st.limit)), self.steps(st.body))
            case "Log":
                return Step(s("s.log", text=self.c.texts.get(st.key, st.template), key=Code(st.key)))
            case "EndGame":
                return Step(s("s.end_game"))
        return None

    def choice_step(self, st) -> Step | None:
        """A choice: a player's, the best of some options, or chance's."""
        s = self.say
        match st.node:
            case "Choose":
                return self.choose_step(st)
            case "ChooseEach":
                return Step(s("s.choose_each", each=Code(st.each), seats=_code(st.seats),
                              var=Code(f"{st.var}({st.arg})"), options=_code(st.options),
                              verb=self.verb(st.verb) if st.verb else (Code(st.var),)))
            case "ChooseSubset":
                kids = [Step(s("s.subset_where", cond=_code(st.where)))] if st.where is not None else []
                return Step(s("s.choose_subset", who=self.who(st.chooser), var=Code(st.var),
                              options=_code(st.options),
                              verb=self.verb(st.verb) if st.verb else (Code(st.var),)), kids)
            case "Best":
                tie = {"choose": s("s.tie_choose", who=self.who(st.chooser), verb=self.verb("tie")),
                       "first": s("s.tie_first"), "random": s("s.tie_random")}[st.tie]
                return Step(s("s.best", var=Code(st.var), options=_code(st.options),
                              keys=join([(_code(k),) for k in st.keys])), [Step(tie)])
            case "PickRandom":
                return Step(s("s.pick", var=Code(st.var), options=_code(st.options)))
            case "Roll":
                return Step(s("s.roll", vars=join([(Code(v),) for v in st.vars]), faces=_code(st.faces)))
        return None

    def item_step(self, st) -> Step | None:
        """Moving, flipping, shuffling, dealing and revealing items."""
        s = self.say
        match st.node:
            case "Move":
                return self.move_step(st)
            case "Flip":
                key = "s.flip_up" if st.facing == "up" else ("s.flip_down_for" if st.seen_by is not None else "s.flip_down")
                return Step(s(key, what=_code(st.what), who=_code(st.seen_by) if st.seen_by is not None else ""))
            case "Shuffle":
                return Step(s("s.shuffle", zone=_code(st.zone)))
            case "Deal":
                if st.count is None:
                    return Step(s("s.deal_all", source=_code(st.source), to=self.named(st.to)))
                return Step(s("s.deal", n=str(st.count), source=_code(st.source), to=self.named(st.to)))
            case "Fill":
                return Step(s("s.fill", board=self.named(st.board), source=_code(st.source)))
            case "Reveal":
                return Step(s("s.reveal", zone=_code(st.zone)))
            case "Make":
                values = [Code(f"{v.var} = {mc.expr(v.value)}") for v in st.values]
                if values:
                    return Step(s("s.make_with", kind=self.named(st.kind), to=_code(st.to),
                                  values=join([(v,) for v in values])))
                return Step(s("s.make", kind=self.named(st.kind), to=_code(st.to)))
            case "RemoveItem":
                return Step(s("s.remove_item", what=_code(st.what)))
            case "Permute":
                return Step(s("s.permute", what=_code(st.what), to=_code(st.to)))
            case "RevealTo":
                return Step(s("s.reveal_to", what=_code(st.what), who=_code(st.to)))
        return None

    def move_step(self, st: ir.Move) -> Step:
        if st.facing == "down":
            key = "s.move_down_for" if st.seen_by is not None else "s.move_down"
        else:
            key = "s.move_up" if st.facing == "up" else "s.move"
        return Step(self.say(key, what=_code(st.what), to=_code(st.to),
                             who=_code(st.seen_by) if st.seen_by is not None else ""))

    def if_step(self, st: ir.If) -> Step:
        s = self.say
        first, *rest = st.branches
        step = Step(s("s.if", cond=Code(mc.expr(first[0]))), self.steps(first[1]))
        out = [step]
        for cond, body in rest:
            out.append(Step(s("s.elif", cond=Code(mc.expr(cond))), self.steps(body)))
        if st.other is not None:
            out.append(Step(s("s.else"), self.steps(st.other)))
        if len(out) == 1:
            return step
        return Step(s("s.one_of"), out)

    def choose_step(self, st: ir.Choose) -> Step:
        s = self.say
        who, options = self.who(st.chooser), Code(mc.expr(st.options))
        var = Code(f"({', '.join(st.parts)})" if st.parts is not None else st.var)   # (choose (a, b): the parts)
        if st.verb:
            step = Step(s("s.choose_verb", who=who, var=var, options=options, verb=self.verb(st.verb)))
        else:
            step = Step(s("s.choose", who=who, var=var, options=options))
        for alone in (st.alone, *st.more) if st.alone else ():
            step.children.append(Step(s("s.choose_alone", who=who, verb=self.verb(alone), var=var)))
        if st.said:
            step.children.append(Step(s("s.choose_said", said=Code(st.said))))
        return step
