"""Makes the parser's tables shipped beside the grammar (dsl/grammar.tables) again: run
it after changing dsl/grammar.lark (tests/test_grammar_tables.py fails until then; the
parser meanwhile ignores the stale tables and makes its own, which costs about 0.17 s
of every cold load).

    python3 tools/grammar_tables.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meeple.dsl import parse

if __name__ == "__main__":
    print(f"wrote {parse.write_tables()}")
