"""The command line's own words in the language of the game being played.

Every sentence the CLI prints during a game goes through ``tr(lang, msgid, **fields)``:
``msgid`` is the English sentence with ``{field}`` placeholders (as in gettext, the
English text is the key), ``lang`` the language of the ruleset's locale (``None`` or
``"en"`` for English; see ``language``). A language without a catalog, or a catalog
without a sentence, falls back to the English one.

Catalogs are data files inside the package, ``cli/messages/<lang>.json``, read once::

    {"language": "Deutsch", "plural": "one-other",
     "messages": {"Your move": "Dein Zug",
                  "{n} moves": {"one": "{n} Zug", "other": "{n} Züge"}}}

Plural forms: a msgid with an ``{n}`` field is a plural sentence. Its entry in a catalog
is an object with one form per category of the catalog's ``plural`` rule (``PLURAL_RULES``:
``one-other`` for English, German, Dutch; ``one-other-french`` where 0 is singular too;
``one-few-many`` for Russian), chosen by ``n``. English plural forms live in ``en.json``,
which holds only plural sentences (every other English sentence is its msgid).
"""
from __future__ import annotations

from functools import cache


def _one_other(n: int) -> str:
    return "one" if n == 1 else "other"


def _one_other_french(n: int) -> str:
    return "one" if n in (0, 1) else "other"


def _one_few_many(n: int) -> str:
    # Russian (and other East Slavic languages): 1, 21, 31...; 2-4, 22-24...; the rest
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


PLURAL_RULES = {
    "one-other": (_one_other, ("one", "other")),
    "one-other-french": (_one_other_french, ("one", "other")),
    "one-few-many": (_one_few_many, ("one", "few", "many")),
}


@cache
def catalogs() -> dict[str, dict]:
    """Every catalog of the package, by language code, read once (json and
    importlib.resources imported then: ``meeple list`` and the helps need none)."""
    import json
    from importlib import resources
    folder = resources.files(__package__) / "messages"
    out = {}
    for f in sorted(folder.iterdir(), key=lambda f: f.name):
        if f.name.endswith(".json"):
            out[f.name[:-5]] = json.loads(f.read_text(encoding="utf-8"))
    return out


def languages() -> list[str]:
    """The languages the CLI speaks (English included)."""
    return sorted(catalogs())


def language(prog) -> str | None:
    """The CLI's language for a compiled ruleset: its locale's name when a catalog has
    that name (``de``, or ``de`` for a locale ``de-CH``), else the catalog whose
    ``language`` is the one the locale declares (``language "Deutsch"``); None (English)
    without a locale or without a catalog for it."""
    locale = getattr(prog, "locale", None)
    if not locale:
        return None
    cats = catalogs()
    for code in (locale, locale.replace("_", "-").split("-")[0]):
        if code in cats:
            return code
    declared = (getattr(prog.checked, "language", None) or "").casefold()
    for code, cat in cats.items():
        if declared and cat.get("language", "").casefold() == declared:
            return code
    return None


def plural_category(lang: str | None, n: int) -> str:
    rule = catalogs().get(lang or "en", {}).get("plural", "one-other")
    return PLURAL_RULES[rule][0](abs(int(n)))


def _pick(lang: str | None, msgid: str, n) -> str | None:
    entry = catalogs().get(lang or "en", {}).get("messages", {}).get(msgid)
    if isinstance(entry, dict):
        return entry.get(plural_category(lang, n if n is not None else 0))
    return entry


def tr(lang: str | None, msgid: str, **fields) -> str:
    """``msgid`` in ``lang``, with ``fields`` filled in (a plural form chosen by ``n``)."""
    n = fields.get("n")
    text = _pick(lang, msgid, n) if lang not in (None, "en") else None
    if text is None:
        text = _pick("en", msgid, n) or msgid
    return text.format(**fields) if fields else text
