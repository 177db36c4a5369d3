"""The one exception type every error of ours derives from.

A caller (the command line's top level, a supervisor, a test) can tell "a mistake this project
found and explained" from a bug with one ``except FantanError``. Each project error keeps its
older built-in base too (``ValueError``, ``RuntimeError``), so existing ``except`` clauses still
catch it. This module imports nothing of ours, so every layer may import it.
"""


class FantanError(Exception):
    """An error fantan-table found and explained: its message says what happened and what to do."""
