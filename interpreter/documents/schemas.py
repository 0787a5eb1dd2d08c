"""The JSON Schemas of the language's data, all generated, never written by hand: the IR
of a parsed file (``dsl.schema``), the game record (``record.RECORD_SCHEMA``) and the
game state (``state.STATE_SCHEMA``). The committed copies in ``docs/schema/`` are
refreshed with::

    python -m meeple.interpreter.documents.schemas

and a test fails when they are stale.
"""
from __future__ import annotations

import sys

from ...dsl import schema as dsl_schema
from ..play.record import RECORD_SCHEMA
from ..play.state import STATE_SCHEMA

RECORD_SCHEMA_FILE = "record.schema.json"
STATE_SCHEMA_FILE = "state.schema.json"


def record_schema() -> dict:
    return RECORD_SCHEMA


def state_schema() -> dict:
    return STATE_SCHEMA


def generated() -> dict[str, str]:
    """File name -> the text it should have in docs/schema/."""
    return {**dsl_schema.generated(), RECORD_SCHEMA_FILE: dsl_schema.dumps(record_schema()),
            STATE_SCHEMA_FILE: dsl_schema.dumps(state_schema())}


def main(argv: list[str] | None = None) -> int:
    return dsl_schema.write(generated(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
