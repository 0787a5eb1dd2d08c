"""A Pygments lexer for Meeple rulesets, so that documentation (the mkdocs site),
``pygmentize`` and any tool built on Pygments highlight Meeple code: ``meeple`` is its
alias (registered as an entry point of the ``pygments.lexers`` group, so an installed
Meeple is found by ``pygments.lexers.get_lexer_by_name("meeple")``). Pygments comes with
rich, which Meeple needs anyway. The words come from the grammar itself
(``dsl.parse.keywords``) and the builtins from ``dsl.builtins``."""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from .builtins import BUILTINS, CONSTANTS
from .operators import OPERATORS
from .parse import keywords

__all__ = ["MeepleLexer"]

_DECLARATIONS = ("ruleset", "variant", "locale", "title", "players", "enum", "kind", "board",
                 "zone", "deck", "var", "relation", "function", "procedure", "setup", "turn",
                 "end", "score", "heuristic", "alias", "tiebreak", "outcome", "team", "participant", "invariant",
                 "bound", "secret", "offscreen", "name", "text", "label", "color", "language",
                 "extend", "replace", "remove")
_CONSTANTS = ("true", "false", "none")
# the words of the operators (dsl/operators.py: and, or, not, in)
_LOGIC = tuple(sorted({w for op in OPERATORS.values() for w in op.symbol.split() if w.isalpha()}))


class MeepleLexer(RegexLexer):
    name = "Meeple"
    aliases = ["meeple"]
    filenames = ["*.meeple"]
    mimetypes = ["text/x-meeple"]
    url = "https://github.com/meeple-games/meeple"

    _other = tuple(w for w in keywords() if w not in _DECLARATIONS + _CONSTANTS + _LOGIC)

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"^(\s*)(function|procedure|relation)(\s+)([A-Za-z_]\w*)",
             bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Function)),
            (r"^(\s*)(kind|enum)(\s+)([A-Za-z_]\w*)",
             bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Class)),
            (words(_DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(_CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(_LOGIC, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(_other, prefix=r"\b", suffix=r"\b"), Keyword),
            (r"\b(int|bool|str)\b", Keyword.Type),
            (words(tuple(BUILTINS), prefix=r"\b", suffix=r"(?=\s*\()"), Name.Builtin),
            (words(tuple(CONSTANTS), prefix=r"\b", suffix=r"\b"), Name.Builtin.Pseudo),
            (r"[0-9]+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|[-+*/%<>=]", Operator),
            (r"[()\[\]{},:.]", Punctuation),
            (r"[A-Za-z_]\w*", Name),
            (r".", Text),
        ],
        "string": [
            (r'\\[\\"nt]', String.Escape),
            (r"\{[A-Za-z_][\w.]*\}", String.Interpol),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double, "#pop"),   # an unclosed string ends with its line
            (r'[^"\\{\n]+', String.Double),
            (r".", String.Double),
        ],
    }
