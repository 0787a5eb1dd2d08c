"""The JSON Schema of the language's IR (a parsed file), and how schema files are
written.

It is generated, never written by hand, from the pydantic classes in ``dsl/ast.py``.
The interpreter's schemas (the game record and the game state) are its own
(``interpreter/documents/schemas.py``); all the committed copies in ``docs/schema/`` are
refreshed with::

    python -m meeple.interpreter.documents.schemas

and a test fails when they are stale. (``python -m meeple.dsl.schema`` writes the IR
schema alone: the language never imports the interpreter.)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from . import ast as ir
from .resources import SCHEMA_DIR

IR_SCHEMA_ID = "https://meeple.dev/schema/ir.schema.json"
IR_SCHEMA_FILE = "ir.schema.json"


def ir_schema() -> dict:
    """The JSON Schema (draft 2020-12) of one parsed source file's IR."""
    body = ir.File.model_json_schema()
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": IR_SCHEMA_ID,
        "title": "Meeple IR",
        "description": "The typed intermediate representation of one Meeple source file "
                       "(a ruleset, a variant or a locale), as exported by "
                       "dsl.schema.ir_json. Every node has a 'node' field naming its class "
                       "in dsl/ast.py and a 'span' giving where it starts in the source.",
    }
    body.pop("title", None)
    body.pop("description", None)
    out.update(_by_node(body))
    return out


def _by_node(schema):
    """The schema with each choice between node classes (pydantic writes a ``oneOf`` with
    a ``discriminator`` on ``node``) written as one ``if``/``then`` per class, keyed on
    ``node``: the same documents validate, and a validator checks a node against its own
    class only, not against every class of the choice and their children in turn (which
    took a JSON Schema validator seconds on a ruleset of a few hundred lines)."""
    if isinstance(schema, list):
        return [_by_node(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _by_node(v) for k, v in schema.items()}
    which = out.get("discriminator")
    if which and which.get("propertyName") == "node" and "oneOf" in out:
        mapping = which["mapping"]
        del out["oneOf"]
        out["type"] = "object"
        out["required"] = ["node"]
        out["properties"] = {"node": {"enum": sorted(mapping)}}
        out["allOf"] = [{"if": {"properties": {"node": {"const": name}}},
                         "then": {"$ref": ref}} for name, ref in sorted(mapping.items())]
    return out


def ir_json(file_node: ir.File) -> dict:
    """A parsed file as plain JSON data (validates against ``ir_schema()``)."""
    return file_node.model_dump(mode="json")


def dumps(schema: dict) -> str:
    """How a schema is written to disk: pretty-printed, sorted keys, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def generated() -> dict[str, str]:
    """File name -> the text it should have (the language's own schema: the IR's)."""
    return {IR_SCHEMA_FILE: dumps(ir_schema())}


def write(files: dict[str, str], argv: list[str] | None = None) -> int:
    """Writes generated schema files (name -> text) into the folder ``argv[0]`` (default
    docs/schema), saying which; the ``main`` of every schema generator."""
    out_dir = Path(argv[0]) if argv else SCHEMA_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write(generated(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
