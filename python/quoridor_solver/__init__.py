"""Exact values of small-board Quoridor, in-process (docs/PYTHON.md).

    >>> import quoridor_solver as qs
    >>> qs.solve("4x4", walls=2).text
    '4x4 with 2 walls per player: Player 1 wins in 11 plies'

- ``solve(board, walls, ...)``: a cell's outcome, the length of the win and a line.
- ``analyze(board, walls, moves=None, position=None, table=None, ...)``: a position's value
  and every legal move's, best first (the numbers of ``analyze --json``).
- ``Table.open(dir)``: a saved table read once, then ``value(position)`` and
  ``moves(position)`` in microseconds.
- ``State``: a position as numbers; positions are also accepted as records
  (``"b2 / a1c3 / c2 c4 / 2 3 / 1"``).

Bad input raises ``QuoridorError`` (a ``ValueError``) with the command line's one-line
message. Long calls release the GIL; Ctrl-C stops them with ``KeyboardInterrupt``.
"""

from ._native import (
    Analysis,
    Move,
    QuoridorError,
    Solution,
    State,
    Table,
    Value,
    __version__,
    analyze,
    solve,
)

__all__ = [
    "Analysis",
    "Move",
    "QuoridorError",
    "Solution",
    "State",
    "Table",
    "Value",
    "__version__",
    "analyze",
    "solve",
]
