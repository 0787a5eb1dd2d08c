"""``python -m meeple``: the same as the ``meeple`` command."""
from meeple.cli.entry import main

main()
