"""What a rulebook says, from a checked ruleset: its sections, paragraphs, tables and the
steps of every rule, in the language of the ruleset's locale.

    from meeple import interpreter
    from meeple.interpreter import rulebook, rulebook_view
    book = rulebook.build(interpreter.load("path/to/my-game", locale="de"))
    print(rulebook_view.markdown(book))

Sentences come from the rulebook catalogs (``rulebook_messages/<lang>.json``: one
template per key, ``{field}`` placeholders; the phrases of the built-in functions are
declared with each in dsl/builtins.py, ``said``) filled with the ruleset's own names and
texts; the rules' expressions and messages are said in words too (``rulebook_words``),
and the turn's chapter ends with a turn of a real game (``rulebook_example``). What is
typed (a move, a verb) or declared is Meeple code (``Code``). A language without a
catalog gets English sentences and a note saying so. The model is plain data;
``rulebook_view`` writes it as Markdown or HTML.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources

from ...dsl import ast as ir, load as dsl_load
from ...dsl.builtins import BUILTINS
from ...dsl.check_decls import prose_keys
from ..play import display
from . import meeple_code as mc, rulebook_example
from .rulebook_words import Name, Said, Term, Words, builtin_key, join, words_of

# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class Code:
    """Meeple code inside a sentence (a name or an expression)."""
    text: str


Text = tuple  # of str (plain words), Term and Code parts


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
    """A board drawn as a graph: cells at their (x, y), edges between related cells;
    with ``labels``, what lies on each cell (an empty one shows its name, dimmed), the
    ``marked`` cells highlighted; ``tag`` tells apart two drawings of one board. Drawn
    in HTML only, caption included (the Markdown lists what it must say otherwise)."""
    board: str
    cells: list  # of (name, x, y)
    edges: list  # of (i, j): indexes into cells
    labels: list | None = None   # of str, one per cell
    marked: list = field(default_factory=list)   # indexes into cells
    tag: str = ""
    caption: tuple = ()   # a Text under the drawing (else the board's name)


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
    """The rulebook sentence catalogs by language code, read once; with the phrases of
    the built-in functions, which dsl/builtins.py declares with each (``said``)."""
    folder = resources.files(__package__) / "rulebook_messages"
    cats = {f.name[:-5]: json.loads(f.read_text(encoding="utf-8"))
            for f in sorted(folder.iterdir(), key=lambda f: f.name) if f.name.endswith(".json")}
    for lang, cat in cats.items():
        cat["messages"].update({builtin_key(b.name, n): said[lang] for b in BUILTINS.values()
                                for n, said in zip(b.arities, b.said) if lang in said})
    return cats


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


# a placeholder: ``{field}``, or ``{field:case}`` for the form of a phrase that case needs
_FIELD = re.compile(r"\{([a-z_]+)(?::([a-z]+))?\}")
# the forms a catalog's entry may have: grammatical cases (the first one listed in the
# entry is the one a placeholder without a case takes), or plural categories chosen by
# its ``n``; a placeholder ``{field:bare}`` takes a name without its article (a label,
# a name in quotes, a noun after an adjective)
CASES = ir.CASES
BARE = "bare"
PLURALS = ("one", "few", "many", "other")


def plural_category(rule: str, n: int) -> str:
    """The plural category of a number under a catalog's ``plural`` rule (those of the
    CLI's catalogs): ``one-other`` (English, German, Dutch), ``one-other-french`` (0 and
    1 are singular), ``one-few-many`` (Russian: 1, 21 one; 2-4, 22 few; else many)."""
    n = abs(n)
    if rule == "one-few-many":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"
    if rule == "one-other-french":
        return "one" if n < 2 else "other"
    return "one" if n == 1 else "other"


class _Say:
    def __init__(self, lang: str):
        self.lang = lang
        cat = catalogs()[lang]
        self.messages = cat["messages"]
        self.english = catalogs()["en"]["messages"]
        # the language's contractions where a phrase meets the words put in it (French
        # "de le joueur" is "du joueur"): [before, after] pairs of the catalog
        self.contractions = cat.get("contractions", [])
        self.plural = cat.get("plural", "one-other")
        # how a name (a plain word, with no forms) stands where a case is needed: a
        # pattern with {x} by case (Russian: the name in quotes, as a title)
        self.uninflected = cat.get("uninflected", {})
        # the article before a name by its gender, by case (a pattern with {x}: German
        # "den {x}"), and where the name has no form of its own for that case; the case
        # of a placeholder that names none (the nominative); French "le", "la" before a
        # vowel (the letters listed) as "l'"
        self.articles = cat.get("articles", {})
        self.articles_unformed = cat.get("articles_unformed", {})
        self.elision = cat.get("elision", {})
        # the words for the board generators, their arguments and the coordinates of
        # their cells (identifier: [word, gender, forms by case]; else the identifier)
        self.board_words = cat.get("board_words", {})
        self.missing: set[str] = set()

    def __call__(self, msgid: str, /, **fields) -> Text:
        """The catalog's phrase ``msgid`` with its fields filled in: with plural forms,
        the one for the number ``n``; with forms by case, each of them (a ``Said``)."""
        template = self.messages.get(msgid)
        if template is None:
            self.missing.add(msgid)
            template = self.english[msgid]
        if isinstance(template, dict) and any(k in PLURALS for k in template):
            n = str(fields.get("n", ""))
            cat = plural_category(self.plural, int(n)) if n.lstrip("-").isdigit() else "other"
            template = template.get(cat, template.get("other") or template.get("many") or next(iter(template.values())))
        if isinstance(template, dict):
            forms = {case: self.fill(t, fields) for case, t in template.items()}
            return Said(next(iter(forms.values())), forms)
        return self.fill(template, fields)

    def fill(self, template: str, fields: dict) -> Text:
        out: list = []
        pos = 0
        for m in _FIELD.finditer(template):
            out.append(template[pos:m.start()])
            out.extend(self.form(fields[m.group(1)], m.group(2)))
            pos = m.end()
        out.append(template[pos:])
        return self.contract(out)

    def form(self, value, case: str | None) -> Text:
        """A field's value in the form a placeholder asks for: a phrase in that case, a
        name alone (or a term, a word longer than a letter) in the catalog's pattern for
        that case, the rest as it is."""
        if not isinstance(value, tuple):
            value = (value,)
        alone = value[0] if len(value) == 1 else None
        if isinstance(alone, (Name, Term)) and (alone.gender or alone.forms) and case != BARE:
            declined = self.declined(alone, case or "nom")
            if declined is not None:
                return declined
        if case is None:
            return value
        if isinstance(value, Said):
            return value.forms.get(case, value)
        pattern = self.uninflected.get(case)
        if pattern and (isinstance(alone, Name) or (isinstance(alone, Term) and len(alone.text) > 1)):
            before, _, after = pattern.partition("{x}")
            return (before, alone, after)
        return value

    def declined(self, name: Name | Term, case: str) -> Text | None:
        """A name (or a term) with a gender or forms by case, in a case: its own form
        for that case (else the name), after the language's article for its gender in
        that case; None when the language has neither for it (the name then stands as
        a name)."""
        form = name.forms.get(case)
        by_gender = self.articles.get(name.gender or "", {})
        pattern = (self.articles_unformed.get(name.gender or "", {}).get(case) if form is None else None) \
            or by_gender.get(case, by_gender.get("nom"))
        if pattern is None and form is None:
            return None
        word = form or (name.text if isinstance(name, Term) else str(name))
        said = Term(word) if isinstance(name, Term) else Name(word)
        if pattern is None:
            return (said,)
        before, _, after = pattern.partition("{x}")
        vowels = self.elision.get("vowels", "")
        if vowels and word[:1].casefold() in vowels:
            before = self.elision.get("articles", {}).get(before, before)
        return (before, said, after)

    def contract(self, parts: list) -> Text:
        """The parts with adjacent words joined into one string and the language's
        contractions made."""
        out: list = []
        for p in parts:
            if isinstance(p, str) and out and isinstance(out[-1], str):
                out[-1] += p
            elif p != "":
                out.append(p)
        for i, p in enumerate(out):
            if isinstance(p, str):
                for before, after in self.contractions:
                    if before in p:
                        p = p.replace(before, after)
                out[i] = p
        return tuple(p for p in out if p != "")

    def word(self, key: str, **fields) -> str:
        return "".join(str(p) for p in self(key, **fields))


def capitalised(text: Text) -> Text:
    """The text with its first letter in upper case (when it starts with words)."""
    if text and isinstance(text[0], str) and text[0]:
        return (text[0][0].upper() + text[0][1:],) + tuple(text[1:])
    return text


def plain(text: Text) -> str:
    """A text without its code and term marks."""
    return "".join(p.text if isinstance(p, (Code, Term)) else p for p in text)


# ---------------------------------------------------------------- building

# a deck's pieces of one kind are listed in a sentence up to this many different ones,
# else set in a table; a table has a column per value of an attribute with at most
# this many values
_SENTENCE_AT_MOST = 12
_COLUMNS_AT_MOST = 4


def _capital(s: str) -> str:
    """A table heading from a ruleset's name: its first letter a capital."""
    return s[:1].upper() + s[1:]


def _decisions(block: ir.Block, when: tuple):
    """Every decision in a block, with what must hold for it to be reached: the
    conditions of the ``if`` branches around it (expressions) and the loops it is in
    (their ``For`` or ``While`` statements)."""
    for st in block.stmts:
        match st.node:
            case "Choose" | "ChooseSubset" | "ChooseEach":
                yield st, when
            case "Best" if st.tie == "choose":
                yield st, when
            case "If":
                before: list = []
                for cond, body in st.branches:
                    test = ir.BinOp(op="and", left=_none_of(before), right=cond) if before else cond
                    yield from _decisions(body, when + (test,))
                    before.append(cond)
                if st.other is not None:
                    yield from _decisions(st.other, when + (_none_of(before),))
            case "For" | "While":
                yield from _decisions(st.body, when + (st,))


def _none_of(conds: list):
    """``not (a or b ...)``: none of the conditions holds."""
    either = conds[0]
    for c in conds[1:]:
        either = ir.BinOp(op="or", left=either, right=c)
    return ir.UnOp(op="not", operand=either)


def build(ruleset) -> Rulebook:
    """The rulebook of a loaded ruleset (``interpreter.load(...)``), in its locale's
    language, with its chosen variants applied."""
    return _Builder(ruleset).book()


def expression_words(ruleset, e) -> Text:
    """An expression of a loaded ruleset in words, in its locale's language (as the
    rulebook says it)."""
    return _Builder(ruleset).w(e)


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


def missing_prose(rulesets: list, variants: list[str] | None = None) -> list[str]:
    """The rules that lack prose in one language: ``rulesets`` are one folder loaded in
    one locale (or none) with different variants chosen; what counts is the prose of
    that locale's own file (with no locale: of the base and variant files), not prose
    it would inherit from the base in another language. ``variants``: the variants
    whose own prose is wanted (default: every variant of the folder)."""
    src, locale = sources_of(rulesets[0]), rulesets[0].checked.locale   # (parsed once)
    variants = list(src.variants) if variants is None else variants
    wanted = list(dict.fromkeys(k for r in rulesets for k in _prose_wanted(r, variants)))
    files = [src.locales[locale]] if locale else [src.base, *src.variants.values()]
    have = {d.key for f in files for d in f.decls if d.node == "ProseDecl"}
    return [k for k in wanted if k not in have]


def named_paths(checked) -> list[str]:
    """The declared things players see called by a name, as ``name`` paths: enums and
    their values, kinds and their attributes, boards, zones, variables, tiebreaks and
    participants (the book's vocabulary)."""
    c = checked
    paths = []
    for e, values in c.enums.items():
        paths += [e] + [f"{e}.{v}" for v in values]
    for k, attrs in c.kinds.items():
        paths += [k] + [f"{k}.{a}" for a in attrs]
    paths += list(c.boards) + list(c.zones) + list(c.vars) + [t.name for t in c.tiebreaks]
    return list(dict.fromkeys(paths + list(c.participants)))


def missing_genders(rulesets: list) -> list[str]:
    """The names one locale gives without the gender its language needs for the
    articles of its sentences (a catalog with ``articles``: German, French, Dutch):
    kinds, attributes, enums, boards, zones and variables its own file names with no
    gender (``name draw "Nachziehstapel" m``). Without one the book says the name
    alone, without an article; none for a language without articles."""
    c, src = rulesets[0].checked, sources_of(rulesets[0])
    lang = language_of(c)
    if not c.locale or lang is None or not catalogs()[lang].get("articles"):
        return []
    named = {d.path: d.gender for d in src.locales[c.locale].decls if d.node == "NameDecl"}
    values = {f"{e}.{v}" for e, vs in c.enums.items() for v in vs}
    skip = values | {t.name for t in c.tiebreaks} | set(c.participants)
    return [p for p in named_paths(c) if p in named and named[p] is None and p not in skip]


def missing_names(rulesets: list) -> list[str]:
    """The names one locale lacks, as a translation tool lists missing strings:
    ``rulesets`` are one folder loaded in one locale (or none) with different variants
    chosen; a thing players see (``named_paths``) in each of them (a locale can name
    only those), or ``score``, that another file of the folder names, and that the
    locale's own file does not name (with no locale: the base and variant files). The
    book says such a thing by its name in the rules, else by its identifier as words."""
    src, locale = sources_of(rulesets[0]), rulesets[0].checked.locale
    files = [src.locales[locale]] if locale else [src.base, *src.variants.values()]
    have = {d.path for f in files for d in f.decls if d.node == "NameDecl"}
    others = [src.base, *src.variants.values(), *src.locales.values()]
    named = {d.path for f in others for d in f.decls if d.node == "NameDecl"}
    each = [set(named_paths(r.checked)) for r in rulesets[1:]]
    wanted = [p for p in named_paths(rulesets[0].checked) if all(p in paths for paths in each)]
    wanted += [p for p in ("score", "player", "game") if p in named]
    return [p for p in wanted if p not in have]


class _Builder:
    def __init__(self, ruleset):
        self.r = ruleset
        self.c = ruleset.checked
        self.lang = language_of(self.c)
        self.say = _Say(self.lang or "en")
        self.words = Words(self.c, self.say, self.name)
        # each message's placeholders as the rules wrote them, with their types
        logs = ruleset.for_players(ruleset.min_players).logs
        self.placeholders = {log.key: [(p[2], p[1]) for p in log.parts if isinstance(p, tuple)] for log in logs}
        self.counts = list(range(ruleset.min_players, ruleset.max_players + 1))
        if len(self.counts) > 8:
            self.counts = [ruleset.min_players, ruleset.max_players]

    # -- prose
    def prose(self, key: str) -> list:
        """The ruleset's own words for players about one rule (``prose KEY``), if any."""
        text = self.c.prose.get(key)
        return [Para((text,))] if text else []

    def w(self, e) -> Text:
        """An expression in words."""
        return self.words.expr(e)

    def shown(self, path: str) -> Text:
        """What players see a declared thing called."""
        return (self.name(path),)

    # -- names
    def name(self, path: str) -> str:
        """What players see a declared thing called (a ``Name``): its ``name`` in the
        locale, else in the rules, else its identifier as words."""
        got = self.c.names.get(path)
        gender, forms = self.c.name_grammar.get(path, (None, None)) if got else (None, None)
        return Name(got[0] if got else words_of(path.rsplit(".", 1)[-1]), gender, forms)

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
        """A verb as typed, with its word (``name action.VERB``) and its prompt."""
        word = (self.c.names.get(f"action.{verb}") or ("",))[0]
        said = [t for t in (word, self.c.texts.get(verb)) if t and t != verb]
        return (Code(verb), f" ({': '.join(said)})") if said else (Code(verb),)

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
            out.append(Para(capitalised(s("goal.score", score=score, expr=self.w(c.score.body)))))
        if c.payoff is not None:   # ``payoff(p) = ...`` / ``payoff = ...`` [per D] [summing to N]
            key = "goal.payoff" if c.payoff.param is not None else "goal.payoff_shared"
            out.append(Para(s(key, expr=self.w(c.payoff.body))))
            if c.payoff.per is not None:   # ``per D``
                out.append(Para(s("goal.payoff_per", d=str(c.payoff.per))))
            if c.payoff.total is not None:
                out.append(Para(s("goal.payoff_total", n=str(c.payoff.total))))
        if c.outcome is not None:
            out.append(Para(s("goal.outcome")))
            out.append(Items([s("goal.outcome_when", outcome=s.word(f"w.{cl.outcome}"), cond=self.w(cl.cond))
                              if cl.cond is not None else s("goal.outcome_otherwise", outcome=s.word(f"w.{cl.outcome}"))
                              for cl in c.outcome.clauses]))
        if c.team is not None:
            out.append(Para(s("goal.team", expr=self.w(c.team.body))))
        return out

    def ending(self) -> list:
        """When the game ends, and the rest of the scoring: tiebreaks, participants."""
        s, c = self.say, self.c
        out = [Para(s("goal.end_when", cond=self.w(c.end.cond)) if c.end is not None
                    else s("goal.end_game"))]
        if c.endless:      # ``bound ... or endless``: the bound is where `meeple test` stops
            out.append(Para(s("goal.endless")))
        elif c.bound is not None:
            out.append(Para(s("goal.bound", n=str(c.bound[0]), unit=s.word(f"w.{c.bound[1]}", n=str(c.bound[0])))))
        for t in c.tiebreaks:
            out.append(Para(s("goal.tiebreak", name=self.shown(t.name), expr=self.w(t.body))))
        for name, p in c.participants.items():
            out.append(Para(s("goal.participant", name=self.shown(name))))
            if p.score is not None:
                out.append(Para(s("goal.participant_score", name=self.shown(name), expr=self.w(p.score))))
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
                     (s.word("w.yes") if v.per_player else s.word("w.no"),), self.w(v.init),
                     (s.word(f"v.{v.visibility or 'public'}"),)] for n, v in c.vars.items()]
            subs.append(Section("variables", s("h.variables"), [Table(
                [s("t.variable"), s("t.shown"), s("t.type"), s("t.per_player"), s("t.initial"), s("t.seen_by")], rows)]))
        if c.functions or c.relations or c.consts:
            items = [self.definition(f) for f in (*c.consts.values(), *c.relations.values(), *c.functions.values())]
            subs.append(Section("functions", s("h.functions"), [Para(s("functions.intro")), Items(items)]))
        return Section("components", s("h.components"), [], subs)

    def decks(self) -> list:
        s, c = self.say, self.c
        out = []
        per_count = {n: self._deck_counts(n) for n in self.counts}
        for i, d in enumerate(c.decks):
            # (a deck has no name for players: its identifier as words would be English)
            out.append(Para(s("deck.intro", deck=Code(d.name), zone=self.named(d.into))))
            out.append(Items([self.deck_entry(e) for e in d.entries]))
            distinct = {}
            for n in self.counts:
                distinct.setdefault(tuple(sorted(per_count[n][i].items())), []).append(n)
            for kinds, ns in distinct.items():
                total = sum(k for _, k in kinds)
                out.append(Para(s("deck.count", n=str(total), players=self.players(ns),
                                  kinds=join([(f"{k} × ", *self.named(kind)) for kind, k in kinds]))))
                out += self.contents(d.name, ns[0])
        return out

    def contents(self, deck: str, n: int) -> list:
        """The items of a deck as players read them: of a kind with many different
        items and two attributes or more that tell them apart, a table (``grouped``);
        the others in a sentence of their labels, each with how many there are (none
        when there are too many different ones to list)."""
        prog = self.r.for_players(n)
        ivars = self._start_ivars(n)
        by_kind: dict[str, dict[str, list]] = {}
        for i in prog.deck_items[deck]:
            labels = by_kind.setdefault(prog.items[i].kind, {})
            labels.setdefault(display.item_label(prog, i, ivars=ivars), []).append(i)
        out, listed = [], {}
        for kind, labels in by_kind.items():
            grouped = self.grouped(prog, kind, [i for items in labels.values() for i in items]) \
                if len(labels) > _SENTENCE_AT_MOST else None
            if grouped:
                by, table = grouped
                out += [Para(self.say("deck.by", kind=self.named(kind), by=by)), table]
            else:
                listed.update(labels)
        if listed and len(listed) <= 80:
            items = "; ".join(label if len(its) == 1 else f"{label} × {len(its)}" for label, its in listed.items())
            out.insert(0, Para(self.say("deck.contents", items=items)))
        return out

    def grouped(self, prog, kind: str, items: list) -> tuple[Text, Table] | None:
        """Items of one kind as a table read at a glance, by the attributes that tell
        them apart (enumerated ones first, then those with the fewest values): a row
        per value of the first, and with three attributes or more, a column per value
        of the second (when there are at most four), each cell the other values of its
        items in order, with how many of each; with the name of the rows' attribute.
        None with fewer than two attributes."""
        decl = self.c.kinds[kind]
        values = {a: list(dict.fromkeys(prog.items[i].attrs[a] for i in items)) for a in decl
                  if a in prog.items[items[0]].attrs   # (a list or a tuple is no value to group by)
                  and all(isinstance(prog.items[i].attrs[a], (str, int)) for i in items)}
        order = sorted((a for a in values if len(values[a]) > 1),
                       key=lambda a: (decl[a].tag != "enum", len(values[a])))
        if len(order) < 2:
            return None
        grid = len(order) > 2 and len(values[order[0]]) <= _COLUMNS_AT_MOST
        cols, rows_by, rest = (order[:1], order[1], order[2:]) if grid else ([], order[0], order[1:])
        text = partial(display.attr_text, prog, kind)
        col_values = values[cols[0]] if cols else [None]
        cells: dict[tuple, dict[str, int]] = {}
        for i in items:
            attrs = prog.items[i].attrs
            cell = cells.setdefault((attrs[rows_by], attrs[cols[0]] if cols else None), {})
            shown = " ".join(text(a, attrs[a]) for a in rest)
            cell[shown] = cell.get(shown, 0) + 1
        rows = [[(text(rows_by, r),)] + [(", ".join(v if k == 1 else f"{v} × {k}"
                                                    for v, k in cells.get((r, c), {}).items()),)
                                         for c in col_values]
                for r in values[rows_by]]
        head = [self.heading(kind, rows_by)]
        if cols:
            head += [(_capital(text(cols[0], c)),) for c in col_values]
        else:
            head.append(join([self.heading(kind, a) for a in rest]))
        return self.heading(kind, rows_by, capital=False), Table(head, rows)

    def heading(self, kind: str, attr: str, capital: bool = True) -> Text:
        """An attribute as a table's heading: what players see it called (else its
        identifier as words)."""
        shown = self.name(f"{kind}.{attr}")
        return (_capital(shown) if capital else shown,)

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

    def shape(self, d: ir.BoardDecl) -> Text:
        """A generated board's shape: its generator with its arguments, in words."""
        s = self.say
        return s("board.shape", shape=s("x.shape", gen=(Term(self.words.board_word(d.generator or "")),),
                                        args=self.words.named_args(d.args)))

    def coord(self, k: str) -> Text:
        """A coordinate of the cells: ``row`` (Reihe), in the catalog's word."""
        shown = self.words.board_word(k)
        return (Code(k),) if shown == k else (Code(k), f" ({shown})")

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
                out.append(Para(self.shape(d)))
            sizes: dict[int, list] = {}
            for n in self.counts:
                sizes.setdefault(len(self.r.for_players(n).boards.get(name, ())), []).append(n)
            for size, ns in sizes.items():
                out.append(Para(s("board.cells", n=str(size), players=self.players(ns))))
            prog = self.r.for_players(self.counts[0])
            cells = [prog.zones[z].cell for z in prog.boards.get(name, ())]
            coords = sorted({k for cell in cells for k in cell.coords})
            if coords:
                out.append(Para(s("board.coords", coords=join([self.coord(k) for k in coords]))))
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
        example = self.example()
        return Section("turn", s("h.turn"), blocks, subs + ([example] if example else []))

    def example(self) -> Section | None:
        """A turn of a real game (seeded, random choices), move by move, with each board
        drawn before and after it."""
        s = self.say
        ex = rulebook_example.example(self.r, self.counts[0])
        if ex is None:
            return None
        blocks: list = [Para(s("example.intro", players=str(ex.players), seed=str(ex.seed), turn=str(ex.turn)))]
        blocks.append(Items([s("example.move", player=p, notation=Code(n), value=v) if v is not None
                             else s("example.move_bare", player=p, notation=Code(n)) for p, n, v in ex.moves]))
        if ex.messages:
            blocks += [Para(s("example.said")), Items([(m,) for m in ex.messages])]
        if ex.ended:
            blocks.append(Para(s("example.ended")))
        prog = self.r.for_players(ex.players)
        for board, before, after in ex.boards:
            base = self.diagram(board, prog)
            zones = list(before)
            marked = [i for i, z in enumerate(zones) if before[z] != after[z]]
            blocks.append(Diagram(board, base.cells, base.edges, [before[z][1] for z in zones], [], "-before",
                                  capitalised(s("example.before", board=self.shown(board)))))
            blocks.append(Diagram(board, base.cells, base.edges, [after[z][1] for z in zones], marked, "-after",
                                  capitalised(s("example.after", board=self.shown(board)))))
            blocks.append(Para(capitalised(s("example.changed", board=self.shown(board)))))
            blocks.append(Table([s("t.cell"), s("t.before"), s("t.after")],
                                [[(base.cells[i][0],), (before[zones[i]][0],), (after[zones[i]][0],)] for i in marked]))
        if ex.places:
            blocks.append(Para(s("example.places")))
            blocks.append(Table([s("t.zone"), s("t.before"), s("t.after")],
                                [[(self.place(k),), (b,), (a,)] for k, b, a in ex.places]))
        return Section("example", s("h.example"), blocks)

    def place(self, key: str) -> str:
        """A zone's or a variable's key as players read it: ``hand:0`` is Player 1's
        hand, ``var:passes`` the variable ``passes``."""
        zone, _, seat = key.removeprefix("var:").partition(":")
        if not seat.isdigit():
            return self.name(zone) if zone in self.c.zones or zone in self.c.vars else key
        player = display.player_name(self.r.for_players(self.counts[0]), int(seat))
        # (a label in a table: the name without its article)
        return "".join(self.say("x.of_player", thing=str(self.name(zone)), player=Name(player)))

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
                    who = self.who(getattr(n, "chooser", None)) if n.node != "ChooseEach" else self.w(n.seats)
                cond = join([self.when(w) for w in when], "; ") if when else s("w.always")
                rows.append([verb, who, self.w(n.options), cond, where])
        return rows

    def when(self, w) -> Text:
        """One thing that must hold for a decision to be asked: a condition, or the loop
        it is in."""
        s = self.say
        if w.node == "For":
            return s("when.for", var=(self.words.term(w.var),), iter=self.w(w.iter))
        if w.node == "While":
            return s("when.while", cond=self.w(w.cond))
        return self.w(w)

    def who(self, chooser) -> Text:
        return self.w(chooser) if chooser is not None else self.say("w.active")

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
                [self.check(i) for i in c.invariants])]))
        return Section("end", s("h.end"), blocks, subs)

    def check(self, d: ir.InvariantDecl) -> Text:
        """An invariant in words: its name, when it is checked, what holds."""
        s = self.say
        return s("check.item", name=(self.words.term(d.name),), moment=s(f"moment.{d.moment.replace(' ', '_')}"),
                 cond=self.w(d.cond))

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
            return [Para((Code(d.key), ": ", *self.message(d.key, self.c.texts.get(d.key, d.text))))]
        if d.node == "NameDecl":
            return [Para((Code(d.path), ": " + self.name(d.path)))]
        if d.node in ("FunctionDecl", "RelationDecl", "ConstDecl"):
            return [Para(self.definition(d))]
        said = self.rule_words(d)
        if said is not None:
            return [Para(capitalised(said))]
        if d.node in ("ProcedureDecl", "SetupDecl", "TurnDecl", "AtEndDecl"):
            params = [Para(self.say("proc.params", params=Code(mc.params(d.params))))] if getattr(d, "params", None) else []
            return params + [Steps(self.steps(d.body))]
        return [Para((Code(mc.decl(d)),))]

    def rule_words(self, d) -> Text | None:
        """A rule of the end or the scoring in words (a variant's), or None."""
        s = self.say
        match d.node:
            case "EndDecl":
                return s("goal.end_when", cond=self.w(d.cond))
            case "InvariantDecl":
                return self.check(d)
            case "ScoreDecl":
                return s("goal.score", score=s.word("w.score"), expr=self.w(d.body))
            case "TiebreakDecl":
                return s("goal.tiebreak", name=self.shown(d.name), expr=self.w(d.body))
            case "TeamDecl":
                return s("goal.team", expr=self.w(d.body))
            case "BoardDecl":
                shape = self.shape(d) if d.generator else s("board.listed", n=str(len(d.cells)))
                return s("board.intro", board=self.shown(d.name), kind=self.shown(d.holds.name),
                         seen=s.word(f"v.{d.visibility}")) + (" ",) + shape
        return None

    # -- vocabulary
    def vocabulary(self) -> Section:
        s, c = self.say, self.c
        paths = named_paths(c) + ["score"]
        paths += [p for p in c.names if p not in paths and not p.startswith("variant.")]
        rows = []
        for p in dict.fromkeys(paths):
            got = c.names.get(p)
            rows.append([(Code(p),), (self.name(p),), ((got[1] or "") if got else "",)])
        subs = []
        if c.texts:
            subs.append(Section("messages", s("h.messages"), [Table(
                [s("t.key"), s("t.text")], [[(Code(k),), self.message(k, v)] for k, v in c.texts.items()])]))
        return Section("vocabulary", s("h.vocabulary"), [Table([s("t.declared"), s("t.shown"), s("t.short")], rows)], subs)

    # -- definitions
    def definition(self, d) -> Text:
        """A constant, relation or rule function in words: what it is, from what."""
        s = self.say
        name, body = (self.words.term(d.name),), self.w(d.value if d.node == "ConstDecl" else d.body)
        if getattr(d, "params", None) and d.node == "FunctionDecl":   # (`clan_of(p)`: "clan of p")
            name = (self.words.term(d.name, strip_of=True),)
        if d.node == "ConstDecl":
            return s("def.const", name=name, body=body)
        params = join([(self.words.term(p.name),) for p in d.params], s("x.and_sep"))
        if d.node == "RelationDecl" and len(d.params) == 2:
            a, b = ((self.words.term(p.name),) for p in d.params)
            return s("def.relation", name=name, a=a, b=b, body=body)
        if not d.params:
            return s("def.value", name=name, body=body)
        bool_result = d.node == "RelationDecl" or (d.result is not None and d.result.name == "bool")
        key = "def.holds" if bool_result else "def.function"
        return s(key, name=name, params=params, body=body)

    def deck_entry(self, e: ir.DeckEntry) -> Text:
        """A line of a deck: how many of which kind, with which attributes, for each
        value of its loops."""
        s = self.say
        args = join([(self.words.attr_name(a.name), " ", *self.w(a.value)) for a in e.args], ", ")
        key = ("deck.entry" if e.count != 1 else "deck.entry_one") + ("" if args else "_bare")
        text = s(key, n=str(e.count), kind=self.shown(e.kind), args=args)
        for cl in e.clauses:
            text += s("deck.entry_for", var=(self.words.term(cl.var),), iter=self.w(cl.iter))
        return text

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

    def target(self, var: str, player) -> Text:
        """What an assignment sets: a value, or a player's own value."""
        if player is not None:
            return self.w(ir.Call(func=var, args=[player]))
        return self.w(ir.Var(name=var))

    def call_words(self, proc: str, args) -> Text:
        if not args:
            return (Code(proc),)
        return self.say("x.with_args", f=(Code(proc),), args=join([self.w(a) for a in args], self.say("x.and_sep")))

    def value_step(self, st) -> Step | None:
        """Setting a value, calling a procedure, returning from one."""
        s = self.say
        match st.node:
            case "Let":
                var = (self.words.term(st.var),)
                if self.words.selection(st.value):     # (a list of those that ...: "are all t of ...")
                    return Step(s("s.let_all", var=var, each=self.words.clauses(st.value, "x.all_of", "x.all_where")))
                return Step(s("s.let", var=var, value=self.w(st.value)))
            case "Assign":
                own = ir.Var(name=st.var) if st.player is None else ir.Call(func=st.var, args=[st.player])
                return self.set_step(own, st.value)
            case "AttrAssign":
                obj = st.obj if st.obj is not None else ir.Var(name=st.var)
                return self.set_step(ir.Attr(obj=obj, name=st.attr), st.value)
            case "IndexAssign":
                target = st.target
                for i in st.indices:
                    target = ir.Index(obj=target, index=i)
                return self.set_step(target, st.value)
            case "CallProc":
                return Step(s("s.call", call=self.call_words(st.proc, st.args)))
            case "CallResult":
                return Step(s("s.call_result", call=self.call_words(st.proc, st.args),
                              var=self.target(st.var, st.player)))
            case "Return":
                return Step(s("s.return", value=self.w(st.value)) if st.value is not None else s("s.return_bare"))
        return None

    def set_step(self, target, value) -> Step:
        """Setting ``target`` to ``value``: a value raised or lowered by an amount
        (``x = x + n``) reads as such ("increase x by n")."""
        s = self.say
        if value.node == "BinOp" and value.op in ("+", "-") and ir.show(value.left) == ir.show(target) \
                and self.words.is_number(value.right):
            key = "s.increase" if value.op == "+" else "s.decrease"
            return Step(s(key, target=self.w(target), n=self.w(value.right)))
        return Step(s("s.set", target=self.w(target), value=self.w(value)))

    def flow_step(self, st) -> Step | None:
        """Conditions, loops, messages and the end of the game."""
        s = self.say
        match st.node:
            case "If":
                return self.if_step(st)
            case "For":
                return Step(s("s.for", var=(self.words.term(st.var),), iter=self.w(st.iter)), self.steps(st.body))
            case "While":
                return Step(s("s.while", cond=self.w(st.cond), n=str(st.limit)), self.steps(st.body))
            case "Log":
                return Step(s("s.log", text=self.message(st.key, self.c.texts.get(st.key, st.template))))
            case "EndGame":
                return Step(s("s.end_game"))
        return None

    def message(self, key: str, text: str) -> Text:
        """A text players read, as a sentence (a message's placeholders by their types)."""
        return self.words.template(text, self.placeholders.get(key))

    def verb_of(self, st) -> Text:
        return self.verb(st.verb) if st.verb else (self.words.term(st.var),)

    def choice_step(self, st) -> Step | None:
        """A choice: a player's, the best of some options, or chance's."""
        s = self.say
        match st.node:
            case "Choose":
                return self.choose_step(st)
            case "ChooseEach":
                several = {} if st.picks is None else {"picks": (str(st.picks),)}
                return Step(s("s.choose_each_picks" if several else "s.choose_each", each=(self.words.term(st.each),),
                              seats=self.w(st.seats), var=(self.words.term(st.var),), options=self.w(st.options),
                              verb=self.verb_of(st), **several))
            case "ChooseSubset":
                kids = [Step(s("s.subset_where", cond=self.w(st.where)))] if st.where is not None else []
                return Step(s("s.choose_subset", who=self.who(st.chooser), var=(self.words.term(st.var),),
                              options=self.w(st.options), verb=self.verb_of(st)), kids)
            case "Best":
                tie = {"choose": s("s.tie_choose", who=self.who(st.chooser), verb=self.verb("tie")),
                       "first": s("s.tie_first"), "random": s("s.tie_random")}[st.tie]
                return Step(s("s.best", var=(self.words.term(st.var),), options=self.w(st.options),
                              keys=join([self.w(k) for k in st.keys], s("x.then_sep"))), [Step(tie)])
            case "PickRandom":
                return Step(s("s.pick", var=(self.words.term(st.var),), options=self.w(st.options)))
            case "Roll":
                return Step(s("s.roll", vars=join([(self.words.term(v),) for v in st.vars]), faces=self.w(st.faces)))
        return None

    def item_step(self, st) -> Step | None:
        """Moving, flipping, shuffling, dealing and revealing items."""
        s = self.say
        match st.node:
            case "Move":
                return self.move_step(st)
            case "Flip":
                key = "s.flip_up" if st.facing == "up" else ("s.flip_down_for" if st.seen_by is not None else "s.flip_down")
                return Step(s(key, what=self.w(st.what), who=self.w(st.seen_by) if st.seen_by is not None else ""))
            case "Shuffle":
                return Step(s("s.shuffle", zone=self.w(st.zone)))
            case "Deal":
                if st.count is None:
                    return Step(s("s.deal_all", source=self.w(st.source), to=self.shown(st.to)))
                return Step(s("s.deal", n=str(st.count), source=self.w(st.source), to=self.shown(st.to)))
            case "Fill":
                return Step(s("s.fill", board=self.shown(st.board), source=self.w(st.source)))
            case "Reveal":
                return Step(s("s.reveal", zone=self.w(st.zone)))
            case "Make":
                values = [(self.words.attr_name(v.var), " ", *self.w(v.value)) for v in st.values]
                if values:
                    return Step(s("s.make_with", kind=self.shown(st.kind), to=self.w(st.to), values=join(values)))
                return Step(s("s.make", kind=self.shown(st.kind), to=self.w(st.to)))
            case "RemoveItem":
                return Step(s("s.remove_item", what=self.w(st.what)))
            case "Permute":
                return Step(s("s.permute", what=self.w(st.what), to=self.w(st.to)))
            case "RevealTo":
                return Step(s("s.reveal_to", what=self.w(st.what), who=self.w(st.to)))
        return None

    def move_step(self, st: ir.Move) -> Step:
        if st.facing == "down":
            key = "s.move_down_for" if st.seen_by is not None else "s.move_down"
        else:
            key = "s.move_up" if st.facing == "up" else "s.move"
        return Step(self.say(key, what=self.w(st.what), to=self.w(st.to),
                             who=self.w(st.seen_by) if st.seen_by is not None else ""))

    def if_step(self, st: ir.If) -> Step:
        s = self.say
        first, *rest = st.branches
        step = Step(s("s.if", cond=self.w(first[0])), self.steps(first[1]))
        out = [step]
        for cond, body in rest:
            out.append(Step(s("s.elif", cond=self.w(cond)), self.steps(body)))
        if st.other is not None:
            out.append(Step(s("s.else"), self.steps(st.other)))
        if len(out) == 1:
            return step
        return Step(s("s.one_of"), out)

    def choose_step(self, st: ir.Choose) -> Step:
        s = self.say
        who, options = self.who(st.chooser), self.w(st.options)
        # (choose (a, _, b): the parts it names; `_` is a part left unnamed)
        var = join([(self.words.term(p),) for p in st.parts if p != "_"], ", ") if st.parts is not None \
            else (self.words.term(st.var),)
        if st.verb:
            step = Step(s("s.choose_verb", who=who, var=var, options=options, verb=self.verb(st.verb)))
        else:
            step = Step(s("s.choose", who=who, var=var, options=options))
        for alone in (st.alone, *st.more) if st.alone else ():
            step.children.append(Step(s("s.choose_alone", who=who, verb=self.verb(alone), var=var)))
        if st.said:
            step.children.append(Step(s("s.choose_said", said=(self.words.term(st.said),))))
        return step
