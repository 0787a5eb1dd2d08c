"""How values are written: move notation (stable, locale-free, typeable) and the
localised text players read (names, labels and messages from the ruleset's locale)."""
from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from ...dsl.types import tuple_parts

if TYPE_CHECKING:  # only named in annotations: compile starts games, which display values
    from ..compiler.compile import Program

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_IF_PART = re.compile(r"\{if\s+(not\s+)?([A-Za-z_]\w*)\s*:\s?([^{}]*)\}")


# ---------------------------------------------------------------- notation

def value_notation(prog: Program, v, type_code: str, hidden_at=None) -> str:
    """How a value is written in a move. ``hidden_at(item)`` gives the place of an item
    the deciding player may not know (``"table:p1a2"``, ``"deck#3"``), so a move never
    names it; it returns None for the items they know."""
    if type_code.startswith("list:"):
        inner = type_code[5:]
        return "+".join(value_notation(prog, x, inner, hidden_at) for x in v)
    if v is None:
        return "none"
    if type_code.startswith("tuple("):   # the parts but none, each as written alone
        return " ".join(value_notation(prog, x, t) for x, t in zip(v, tuple_parts(type_code)) if x is not None)
    if type_code == "item":
        place = hidden_at(v) if hidden_at is not None else None
        return place or prog.items[v].notation
    if type_code == "cell":
        return cell_notation(prog, v)
    if type_code == "player":
        return f"p{v + 1}"
    if type_code == "bool":
        return "true" if v else "false"
    return str(v)


def zone_notation(prog: Program, z: int) -> str:
    """How people read and type a zone: its name, with the seat counted from 1 for a
    per-player zone (``hand:p2``, like the player ``p2``); a cell by its notation. (The
    keys of views and states, ``hand:1``, count the seats from 0.)"""
    zone = prog.zones[z]
    if zone.cell is not None:
        return cell_notation(prog, z)
    if zone.owner is not None:
        return f"{zone.name}:p{zone.owner + 1}"
    return zone.key


_OLD_PLACE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*):([0-9]+)#")


def old_places(prog: Program, text: str) -> str:
    """A move written the older way, with a per-player zone's seat counted
    from 0 (``hand:1#3``), in today's notation (``hand:p2#3``)."""
    per_player = {z.name.casefold(): z.name for z in prog.zones if z.owner is not None}

    def new(m: re.Match) -> str:
        name = per_player.get(m.group(1).casefold())
        if name is None:
            return m.group(0)
        return f"{name}:p{int(m.group(2)) + 1}#"
    return _OLD_PLACE.sub(new, text)


def cell_notation(prog: Program, z: int) -> str:
    """A cell's name; with several boards ``board.name``, unless its board is named the
    way people name it (``named "..."``) with names no other board's cell has."""
    return (prog.__dict__.get("_cell_names") or _cell_names(prog)).written[z]


class _CellNames:
    """How a program's cells are written and may be typed: ``written``, each cell's
    notation (by zone; "" for a zone off the boards); ``exact`` and ``folded``, each
    way a cell may be typed (its notation, ``board.name``, and its name alone when no
    other board has a cell of that name), as written and ignoring case, to the cell's
    zone (None where two cells share the text)."""

    def __init__(self, prog: Program):
        cells = {b: [(z, prog.zones[z].cell.name) for z in ids] for b, ids in prog.boards.items()}
        boards = {b: {name for _, name in named} for b, named in cells.items()}
        elsewhere = {b: set().union(*(n for o, n in boards.items() if o != b)) for b in boards}
        decls = prog.checked.boards
        bare = {b for b, names in boards.items()
                if len(boards) == 1 or (decls[b].decl.named is not None and not names & elsewhere[b])}
        self.written: list[str] = [""] * len(prog.zones)
        self.exact: dict[str, int | None] = {}
        self.folded: dict[str, int | None] = {}
        for b, named in cells.items():
            for z, name in named:
                self.written[z] = name if b in bare else f"{b}.{name}"
                forms = {f"{b}.{name}"} | ({name} if name not in elsewhere[b] else set())
                for form in forms:
                    for table, key in ((self.exact, form), (self.folded, form.casefold())):
                        table[key] = z if table.get(key, z) == z else None


def _cell_names(prog: Program) -> _CellNames:
    """The program's ``_CellNames``, made once (a program is immutable; as the runtime's
    tables of zones, kept in the program's ``__dict__``)."""
    got = prog.__dict__.get("_cell_names")
    if got is None:
        got = prog.__dict__["_cell_names"] = _CellNames(prog)
    return got


def typed_cell(prog: Program, text: str) -> int | None:
    """The cell (its zone) a person means by ``text``: its notation, ``board.name``, or
    its name alone when no other board has a cell of that name; in any letter case when
    that names one cell. None when it names no cell, or several."""
    names = _cell_names(prog)
    if text in names.exact:
        return names.exact[text]
    return names.folded.get(text.casefold())


_TYPED_WORD = re.compile(r"(?:^|(?<=[\s+]))[^\s+#]+")   # (not a position: deck#2)


def typed_cells(prog: Program, text: str, verb: str | None = None) -> str:
    """A typed move with each word that names a cell (see ``typed_cell``) written as the
    cell's notation: ``p2a1`` or ``P2A1`` for ``table.p2a1``, ``grid.c3`` for ``c3``. The
    decision's verb, when the text begins with it, stays as it is."""
    if not prog.boards:
        return text
    start = 0
    if verb and text.lstrip().casefold().startswith(verb.casefold() + " "):
        start = len(text) - len(text.lstrip()) + len(verb)

    def spelled(m: re.Match) -> str:
        z = typed_cell(prog, m.group(0))
        return m.group(0) if z is None else cell_notation(prog, z)
    return text[:start] + _TYPED_WORD.sub(spelled, text[start:])


def picked_values(prog: Program, view: dict, type_code: str) -> list:
    """The values of the picks so far of the seat whose ``view`` this is, in a decision
    of several picks (``choose 3 ...``): its pending ``picked``, written as moves are
    (``pass two-clubs``), read back: an item as the item of that notation the view
    shows, a cell by its name, a number, a player (``p2``), a truth value. None for a
    pick the view does not tell (one written by its verb alone: an item the seat does
    not see now) or of another type: a front end writes it as it is written."""
    pending = view.get("pending") or {}
    verb = pending.get("verb")
    shown: dict[str, int] = {}
    if type_code == "item":
        for content in view.get("zones", {}).values():
            for i in content if isinstance(content, list) else ():
                if isinstance(i, int):
                    shown.setdefault(prog.items[i].notation, i)
    values = []
    for written in pending.get("picked") or []:
        head, _, rest = written.partition(" ")
        values.append(_read_value(prog, rest if verb and head == verb else written, type_code, shown))
    return values


def _read_value(prog: Program, text: str, type_code: str, shown: dict[str, int]):
    """``text``, a value written as ``value_notation`` writes it, read back (see
    ``picked_values``); None when it is not read."""
    if not text or text == "none":
        return None
    if type_code == "item":
        return shown.get(text)
    if type_code == "cell":
        return typed_cell(prog, text)
    if type_code == "player" and re.fullmatch(r"p[1-9]\d*", text):
        return int(text[1:]) - 1
    if type_code == "bool" and text in ("true", "false"):
        return text == "true"
    if type_code == "int" and re.fullmatch(r"-?\d+", text):
        return int(text)
    return None


# ---------------------------------------------------------------- names

def name(prog: Program, path: str) -> str:
    got = prog.checked.names.get(path)
    if got:
        return got[0]
    return path.rsplit(".", 1)[-1].replace("_", " ")


def short(prog: Program, path: str) -> str:
    got = prog.checked.names.get(path)
    if got and got[1]:
        return got[1]
    return name(prog, path)


def text(prog: Program, key: str, default: str) -> str:
    return prog.checked.texts.get(key, default)


def verb_word(prog: Program, verb: str) -> str:
    """A decision's verb as people read it: its name (``name action.VERB "..."``, the
    locale's word), else the verb itself."""
    got = prog.checked.names.get(f"action.{verb}")
    return got[0] if got else verb


def worded(prog: Program, notation: str, verb: str | None = None) -> str:
    """A move's notation with its verb in the locale's word (``chase r2c1`` →
    ``verjagen r2c1``): the decision's ``verb`` where the notation begins with it, or
    a move that is a verb alone (``pass``). Only for reading: the notation stays what
    records store and what is typed (``typed_verb`` reads the word back)."""
    head, sep, rest = notation.partition(" ")
    if head == verb or (not sep and f"action.{head}" in prog.checked.names):
        return verb_word(prog, head) + sep + rest
    return notation


def typed_verb(prog: Program, text: str, verbs) -> str:
    """``text`` with the word of one of ``verbs`` it begins with (``worded``), in any
    letter case, written as that verb (``Verjagen r2c1`` → ``chase r2c1``); else
    ``text`` unchanged."""
    typed = text.split()
    folded = [w.casefold() for w in typed]
    for verb in verbs:
        said = [w.casefold() for w in verb_word(prog, verb).split()]
        if said and said != [verb.casefold()] and folded[:len(said)] == said:
            return " ".join([verb, *typed[len(said):]])
    return text


# The words for true and false in the languages the bundled locales are written in, for
# a locale that does not give its own (``text yes "..."``, ``text no "..."``), by
# language code and by the name a locale declares (``language "Deutsch"``).
_YES_NO = {"de": ("ja", "nein"), "fr": ("oui", "non"), "nl": ("ja", "nee"), "ru": ("да", "нет"),
           "en": ("yes", "no")}
_LANGUAGE_CODES = {"deutsch": "de", "german": "de", "français": "fr", "francais": "fr",
                   "french": "fr", "nederlands": "nl", "dutch": "nl", "русский": "ru",
                   "russian": "ru", "english": "en"}


def _yes_no_words(prog: Program) -> tuple[str, str]:
    locale = (getattr(prog, "locale", None) or "").replace("_", "-").casefold()
    code = locale.split("-")[0] if locale else ""
    if code not in _YES_NO:
        declared = (getattr(prog.checked, "language", None) or "").casefold()
        code = _LANGUAGE_CODES.get(declared, "en")
    return _YES_NO.get(code, _YES_NO["en"])


def yes_no(prog: Program, value) -> str:
    """A yes/no value as players read it: the locale's ``yes``/``no`` texts, else the
    words of the locale's language (English without a locale)."""
    yes, no = _yes_no_words(prog)
    return text(prog, "yes", yes) if value else text(prog, "no", no)


def player_name(prog: Program, p: int) -> str:
    return text(prog, "player", "Player {n}").replace("{n}", str(p + 1))


def color_of_item(prog: Program, item: int) -> str | None:
    info = prog.items[item]
    attr = prog.checked.kind_colors.get(info.kind)
    if attr is None:
        return None
    t = prog.checked.kinds[info.kind][attr]
    return prog.checked.colors.get(f"{t.arg}.{info.attrs[attr]}")


def attr_text(prog: Program, kind: str, attr: str, value, use_short: bool = False) -> str:
    """An attribute's value as players read it: an enum value's name (or short name),
    yes/no, else the value as written."""
    t = prog.checked.kinds[kind].get(attr)
    if t is not None and t.tag == "enum":
        path = f"{t.arg}.{value}"
        return short(prog, path) if use_short else name(prog, path)
    if isinstance(value, bool):
        return yes_no(prog, value)
    return str(value)


def item_label(prog: Program, item: int, use_short: bool = False, ivars=None) -> str:
    """An item's label from its kind's template. Item variables in the template (e.g.
    ``{wounds}``) take their values from ``ivars``: a view's ``"ivars"`` or the state's
    (name -> values); without them they read '?'."""
    info = prog.items[item]
    tmpl = prog.checked.labels.get(info.kind)
    template = None
    if tmpl:
        template = tmpl[1] if use_short and tmpl[1] else tmpl[0]
    if template is None:
        parts = [attr_text(prog, info.kind, a, v, use_short) for a, v in info.attrs.items()]
        return " ".join([name(prog, info.kind)] + parts) if not use_short else "".join(parts)
    short_fields = use_short and bool(tmpl[1])

    def field(m):
        attr = m.group(1)
        if attr in info.attrs:
            return attr_text(prog, info.kind, attr, info.attrs[attr], short_fields)
        return attr_text(prog, info.kind, attr, _item_var(ivars, attr, item), short_fields)

    def part(m):  # {if NAME: TEXT}: TEXT when the bool NAME is true (an unknown value: neither)
        value = info.attrs[m.group(2)] if m.group(2) in info.attrs else _item_var(ivars, m.group(2), item)
        if value not in (True, False):
            return ""
        return m.group(3) if value != bool(m.group(1)) else ""
    return _FIELD.sub(field, _IF_PART.sub(part, template))


def told_apart(prog: Program, item: int) -> bool:
    """Whether no other item of the game has this item's label (read without item
    variables): a card has its own, a stone or a checker shares it with many, so that
    naming it says nothing the board does not (a cell holding it is written by its
    short label, as the board draws it)."""
    alone = prog.__dict__.get("_told_apart")
    if alone is None:
        labels = [item_label(prog, i) for i in range(len(prog.items))]
        count = Counter(labels)
        alone = prog.__dict__["_told_apart"] = frozenset(
            i for i, label in enumerate(labels) if count[label] == 1)
    return item in alone


def _item_var(ivars, name: str, item: int):
    values = (ivars or {}).get(name)
    if isinstance(values, dict):
        value = values.get(str(item))
    elif isinstance(values, list):
        value = values[item]
    else:
        value = None
    return "?" if value is None else value


def hidden_label(prog: Program, kind: str) -> str:
    return text(prog, "hidden", "a {kind}").replace("{kind}", name(prog, kind))


def value_text(prog: Program, v, type_code: str, can_see=None, mask=None) -> str:
    """What a player reads for a value; ``can_see(item)`` hides items they may not see.
    ``mask`` (from a log entry) says instead who could see each item when it was said."""
    if v is None:   # (a move without an object, whatever the options' type)
        return "-"
    if type_code.startswith("list:"):
        masks = mask if isinstance(mask, list) else [None] * len(v)
        return ", ".join(value_text(prog, x, type_code[5:], can_see, m) for x, m in zip(v, masks))
    if type_code.startswith("tuple("):   # (no item among the parts: the checker tells)
        return " ".join(value_text(prog, x, t) for x, t in zip(v, tuple_parts(type_code)) if x is not None)
    if type_code == "item":
        ivars = getattr(can_see, "ivars", None)
        if mask is not None and can_see is not None and can_see.seat != "all":
            seat = can_see.seat
            if mask == -1 or (seat >= 0 and (mask >> seat) & 1):
                return item_label(prog, v, ivars=ivars)
            return hidden_label(prog, prog.items[v].kind)
        if can_see is not None and not can_see(v):
            return hidden_label(prog, prog.items[v].kind)
        return item_label(prog, v, ivars=ivars)
    if type_code == "cell":
        return cell_notation(prog, v)
    if type_code == "player":
        return player_name(prog, v)
    if type_code.startswith("enum:"):
        return name(prog, f"{type_code[5:]}.{v}")
    if type_code == "bool":
        return yes_no(prog, v)
    return str(v)


def render_log(prog: Program, entry: list, can_see=None) -> str:
    log_id, values = entry[0], entry[1]
    masks = entry[2] if len(entry) > 2 else [None] * len(values)
    if len(entry) > 3:
        # labels show item variables as they were when the message was said
        can_see = _with_ivars(can_see, entry[3])
    tmpl = prog.logs[log_id]
    localized = prog.checked.texts.get(tmpl.key)
    rendered = [value_text(prog, v, t, can_see, m) for v, t, m in zip(values, tmpl.types, masks)]
    if localized is None:
        out, it = [], iter(rendered)
        for part in tmpl.parts:
            out.append(next(it) if isinstance(part, tuple) else part)
        return "".join(out)
    # a localised text names each placeholder by the expression the ruleset wrote
    # ({active}) or by its position ({1}, {2}, ...)
    out = localized
    raws = [p[2] for p in tmpl.parts if isinstance(p, tuple)]
    for i, (raw, r) in enumerate(zip(raws, rendered), 1):
        out = out.replace(f"{{{raw}}}", r).replace(f"{{{i}}}", r)
    return out


def _with_ivars(can_see, ivars):
    """``can_see`` (None: everything, as for the "all" view) with other item values."""
    def fn(item):
        return True if can_see is None else can_see(item)
    fn.seat, fn.ivars = ("all" if can_see is None else can_see.seat), ivars
    return fn
