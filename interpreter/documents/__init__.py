"""Documents made from a ruleset or from the language: ``rulebook`` (what a rulebook
says; its sentences in ``rulebook_messages/``) and ``rulebook_view`` (as Markdown or
HTML), ``meeple_code`` (the IR written back as Meeple code) and ``schemas`` (the JSON
Schemas in docs/schema/)."""
