"""Type hints of the Rust extension (python/src/); the docs are its docstrings."""

from os import PathLike
from pathlib import Path
from typing import List, Literal, Optional, Sequence, Tuple, Union

__version__: str

Outcome = Union[Literal[1, 2, "D"], None]
"""The winner: 1, 2, "D" (a draw), or None where the work did not decide."""

Size = Union[int, str]
"""A memory size: bytes, or text such as "512M" or "4G"."""

Moves = Union[str, Sequence[str]]
"""Moves in the project's notation: "1. c2 c4 2. b2h c3", or ["c2", "c4", "b2h", "c3"]."""

Coords = Tuple[int, int]

class QuoridorError(ValueError):
    """Bad input or a refused request, with the command line's one-line message."""

class State:
    """A position as numbers: cells and wall anchors as (col, row), 0-based, (0, 0) = a1."""

    p1: Coords
    p2: Coords
    walls_left: Tuple[int, int]
    to_move: int
    horizontal: List[Coords]
    vertical: List[Coords]
    def __init__(
        self,
        p1: Coords,
        p2: Coords,
        walls_left: Tuple[int, int],
        to_move: int = 1,
        horizontal: Sequence[Coords] = (),
        vertical: Sequence[Coords] = (),
    ) -> None: ...
    @staticmethod
    def from_record(board: str, record: str) -> "State": ...
    @staticmethod
    def start(board: str, walls: int) -> "State": ...
    def play(self, board: str, moves: Moves) -> "State": ...
    def record(self, board: str) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

Position = Union[str, State]
"""A position: a record ("b2 / a1c3 / c2 c4 / 2 3 / 1") or a State."""

class Value:
    """A position's value under best play."""

    @property
    def outcome(self) -> Outcome: ...
    @property
    def plies(self) -> Optional[int]: ...
    @property
    def kind(self) -> Literal["win", "loss", "draw", "unknown"]: ...
    @property
    def depth(self) -> Optional[int]: ...
    @property
    def text(self) -> str: ...

class Move:
    """A legal move and its value for the player who makes it (plies count the move)."""

    @property
    def move(self) -> str: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def plies(self) -> Optional[int]: ...
    @property
    def kind(self) -> Literal["win", "loss", "draw", "unknown"]: ...
    @property
    def depth(self) -> Optional[int]: ...
    @property
    def text(self) -> str: ...

class Solution:
    """The answer of solve()."""

    @property
    def board(self) -> str: ...
    @property
    def walls(self) -> int: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def plies(self) -> Optional[int]: ...
    @property
    def line(self) -> List[str]: ...
    @property
    def line_text(self) -> str: ...
    @property
    def cycle_start(self) -> Optional[int]: ...
    @property
    def method(self) -> Literal["proof-search", "retrograde", "retrograde+search"]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def depth_reached(self) -> int: ...
    @property
    def peak_bytes(self) -> int: ...
    @property
    def text(self) -> str: ...

class Analysis:
    """The answer of analyze(): the position's value and every legal move's, best first."""

    @property
    def board(self) -> str: ...
    @property
    def walls(self) -> int: ...
    @property
    def position(self) -> str: ...
    @property
    def to_move(self) -> int: ...
    @property
    def value(self) -> Value: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def plies(self) -> Optional[int]: ...
    @property
    def text(self) -> str: ...
    @property
    def moves(self) -> List[Move]: ...
    @property
    def method(self) -> Literal["retrograde", "proof-search"]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    def to_json(self) -> str: ...

class Table:
    """A saved table opened once, then looked up in microseconds."""

    @staticmethod
    def open(
        dir: Union[str, "PathLike[str]"],
        memory: Optional[Size] = None,
        threads: Optional[int] = None,
    ) -> "Table": ...
    def value(self, position: Position) -> Value: ...
    def moves(self, position: Position) -> List[Move]: ...
    def start(self) -> State: ...
    @property
    def board(self) -> str: ...
    @property
    def walls(self) -> int: ...
    @property
    def dir(self) -> Path: ...
    @property
    def bytes(self) -> int: ...

def solve(
    board: str,
    walls: int,
    method: Literal["auto", "search", "retro"] = "auto",
    precision: Optional[Literal["exact", "compact"]] = None,
    memory: Optional[Size] = None,
    threads: Optional[int] = None,
    max_seconds: Optional[float] = None,
    max_depth: Optional[int] = None,
) -> Solution: ...
def analyze(
    board: str,
    walls: int,
    moves: Optional[Moves] = None,
    position: Optional[Position] = None,
    table: Optional[Union[str, "PathLike[str]"]] = None,
    method: Optional[Literal["auto", "search", "retro"]] = None,
    memory: Optional[Size] = None,
    threads: Optional[int] = None,
) -> Analysis: ...
