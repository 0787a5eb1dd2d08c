"""The command line's own words in the language of the game being played.

Every sentence the CLI prints during a game goes through ``tr(lang, msgid, **fields)``:
``msgid`` is the English sentence with ``{field}`` placeholders (as in gettext, the
English text is the key), ``lang`` the language of the ruleset's locale (``None`` or
``"en"`` for English). A language without a translation of a sentence falls back to the
English one.
"""
from __future__ import annotations


def tr(lang: str | None, msgid: str, **fields) -> str:
    """``msgid`` in ``lang``, with ``fields`` filled in."""
    return msgid.format(**fields) if fields else msgid
