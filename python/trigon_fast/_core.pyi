"""
trigon_fast C++ core (private: use the trigon_fast package)
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
class Board:
    """
    Geometry and placement table of one board (immutable, shared).
    """
    def cell_at(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def cell_name(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> str:
        ...
    def cell_vertices(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> typing.Annotated[list[int], "FixedSize(3)"]:
        ...
    def cell_xy(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        ...
    def edge_neighbours(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        ...
    def find_placement(self, arg0: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> int:
        ...
    def is_up(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def lattice(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, int]:
        ...
    def parse_cell(self, arg0: str) -> int:
        ...
    def piece_placements(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def placement_cells(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        ...
    def placement_cells_array(self) -> numpy.typing.NDArray[numpy.int16]:
        ...
    def placement_orientation(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def placement_piece(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def placement_piece_array(self) -> numpy.typing.NDArray[numpy.int8]:
        ...
    def symmetric_cell(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def symmetric_placement(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def cell_symmetry_array(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.int16]:
        """Image of every cell under symmetry k."""
        ...
    def placement_symmetry_array(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.int32]:
        """Image of every placement under symmetry k."""
        ...
    def vertex_fan(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        ...
    def vertex_neighbours(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        ...
    @property
    def height(self) -> int:
        ...
    @property
    def memory_bytes(self) -> int:
        ...
    @property
    def num_cells(self) -> int:
        ...
    @property
    def num_placements(self) -> int:
        ...
    @property
    def num_vertices(self) -> int:
        ...
    @property
    def side(self) -> int:
        ...
    @property
    def start_cells(self) -> list[int]:
        ...
    @property
    def width(self) -> int:
        ...
class Position:
    """
    Mutable game state (copy-make: copy() is cheap).
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]  # unhashable: == compares positions
    def __copy__(self) -> Position:
        ...
    def __deepcopy__(self, arg0: dict) -> Position:
        ...
    def __eq__(self, arg0: object) -> bool:
        ...
    def __init__(self, side: typing.SupportsInt | typing.SupportsIndex = 9, colours: typing.SupportsInt | typing.SupportsIndex = 15, alternate: bool = False, start_rule: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def attach_mask(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.bool]:
        ...
    def check(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        0 when legal, else an Illegal code (see illegal_reason).
        """
    def copy(self) -> Position:
        ...
    def forbidden_mask(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.bool]:
        ...
    def generate(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint16]:
        ...
    def has_move(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def in_play(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def is_out(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def last_piece(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def legal_mask(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.bool]:
        ...
    def occupancy(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        Colour index per cell, -1 where empty.
        """
    def pieces_left(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def place(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Places without the contact rules (setups); overlap and reused pieces are refused.
        """
    def placed_triangles(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def play(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def play_sequence(self, moves: collections.abc.Sequence[tuple[typing.SupportsInt | typing.SupportsIndex, typing.SupportsInt | typing.SupportsIndex]]) -> tuple[int, int]:
        """
        Plays (colour, placement id) pairs in order while each is the colour to move's legal move: (moves played, 0), or (moves played, why) at the first that is not: -1 when it is not that colour's turn (or the game is over), else its Illegal code (see illegal_reason).
        """
    def score(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def set_to_move(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def start_cells(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        ...
    def started(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    @property
    def alternate(self) -> bool:
        ...
    @property
    def board(self) -> Board:
        ...
    @property
    def colours(self) -> int:
        ...
    @property
    def is_over(self) -> bool:
        ...
    @property
    def num_moves(self) -> int:
        ...
    @property
    def side(self) -> int:
        ...
    @property
    def start_rule(self) -> int:
        ...
    @property
    def to_move(self) -> int:
        ...
class GameOverError(ValueError):
    pass
class PatternPuzzle:
    """A region and pieces prepared once (placements inside, search tables)."""
    def __init__(self, side: typing.SupportsInt | typing.SupportsIndex, cells: object, counts: object) -> None:
        ...
    def solve(self, all_solutions: bool = False, unique: bool = False, max_stored: typing.SupportsInt | typing.SupportsIndex = 1000, time_limit: typing.SupportsFloat | typing.SupportsIndex = 60.0, method: str = 'auto', threads: typing.SupportsInt | typing.SupportsIndex = 1, first: typing.SupportsInt | typing.SupportsIndex = 1, callback: typing.Any = None, callback_interval: typing.SupportsFloat | typing.SupportsIndex = 0.25) -> tuple:
        """Exact cover of the prepared region (GIL released; Ctrl-C stops it). callback({'nodes', 'solutions', 'seconds'}) every callback_interval seconds; a falsy reply stops it (interrupted)."""
    @property
    def cells(self) -> list[int]:
        ...
    @property
    def impossible(self) -> str:
        ...
    @property
    def num_placements(self) -> int:
        ...
    @property
    def prepare_seconds(self) -> float:
        ...
    @property
    def side(self) -> int:
        ...
class PlayoutKind:
    """
    Members:
    
      UNIFORM
    
      SAMPLED
    """
    SAMPLED: typing.ClassVar[PlayoutKind]
    UNIFORM: typing.ClassVar[PlayoutKind]
    __members__: typing.ClassVar[dict[str, PlayoutKind]]
    @typing.overload
    def __eq__(self, other: PlayoutKind) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: PlayoutKind) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class SearchParams:
    """
    Limits and knobs of one search.
    """
    playout: PlayoutKind
    reuse_tree: bool
    use_priors: bool
    def __init__(self) -> None:
        ...
    @property
    def attach_prior(self) -> float:
        ...
    @attach_prior.setter
    def attach_prior(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def block_prior(self) -> float:
        ...
    @block_prior.setter
    def block_prior(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def expand_threshold(self) -> int:
        ...
    @expand_threshold.setter
    def expand_threshold(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def exploration(self) -> float:
        ...
    @exploration.setter
    def exploration(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def max_nodes(self) -> int:
        ...
    @max_nodes.setter
    def max_nodes(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def max_seconds(self) -> float:
        ...
    @max_seconds.setter
    def max_seconds(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def max_simulations(self) -> int:
        ...
    @max_simulations.setter
    def max_simulations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def playout_give_up(self) -> int:
        ...
    @playout_give_up.setter
    def playout_give_up(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def playout_large_bias(self) -> float:
        ...
    @playout_large_bias.setter
    def playout_large_bias(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def prior_weight(self) -> float:
        ...
    @prior_weight.setter
    def prior_weight(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def progress_every_seconds(self) -> float:
        ...
    @progress_every_seconds.setter
    def progress_every_seconds(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def progress_every_simulations(self) -> int:
        ...
    @progress_every_simulations.setter
    def progress_every_simulations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def score_weight(self) -> float:
        ...
    @score_weight.setter
    def score_weight(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def seed(self) -> int:
        ...
    @seed.setter
    def seed(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def side_of_colour(self) -> list[int]:
        ...
    @side_of_colour.setter
    def side_of_colour(self, arg1: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    @property
    def threads(self) -> int:
        ...
    @threads.setter
    def threads(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class MoveInfo:
    @property
    def move(self) -> int:
        ...
    @property
    def prior(self) -> float:
        ...
    @property
    def score_per_colour(self) -> typing.Annotated[list[float], "FixedSize(4)"]:
        ...
    @property
    def value(self) -> float:
        ...
    @property
    def value_per_colour(self) -> typing.Annotated[list[float], "FixedSize(4)"]:
        ...
    @property
    def visits(self) -> int:
        ...
class Analysis:
    @property
    def best_move(self) -> int:
        ...
    @property
    def expected_score(self) -> typing.Annotated[list[float], "FixedSize(4)"]:
        ...
    @property
    def forced(self) -> bool:
        ...
    @property
    def moves(self) -> list[MoveInfo]:
        ...
    @property
    def nodes(self) -> int:
        ...
    @property
    def pv(self) -> list[int]:
        ...
    @property
    def pv_colours(self) -> list[int]:
        ...
    @property
    def reused_visits(self) -> int:
        ...
    @property
    def seconds(self) -> float:
        ...
    @property
    def simulations(self) -> int:
        ...
    @property
    def stopped(self) -> bool:
        ...
    @property
    def to_move(self) -> int:
        ...
    @property
    def value(self) -> typing.Annotated[list[float], "FixedSize(4)"]:
        ...
class Searcher:
    """
    MCTS over a shared tree; keeps the tree between searches for reuse.
    """
    def __init__(self) -> None:
        ...
    def clear(self) -> None:
        """
        Forgets the tree.
        """
    def run(self, position: Position, params: SearchParams, progress: typing.Any = None,
            stops_seen: typing.SupportsInt | typing.SupportsIndex | None = None) -> tuple[Analysis, bool]:
        """
        Searches a position: (Analysis, interrupted). Raises GameOverError for a finished game. stops_seen: stop_count when the caller's call began; a stop asked since ends this search too.
        """
    def stop(self) -> None:
        """
        Ends a running search soon (from another thread).
        """
    @property
    def memory_bytes(self) -> int:
        ...
    @property
    def nodes(self) -> int:
        ...
    @property
    def stop_count(self) -> int:
        """
        Stops asked so far.
        """
class EnvState:
    """
    Incremental game state for the learning environment.
    """
    def __init__(self, start: Position) -> None:
        ...
    def legal_ids(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint16]:
        ...
    def observe(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.int8], numpy.typing.NDArray[numpy.int8], numpy.typing.NDArray[numpy.int8], numpy.typing.NDArray[numpy.uint16]]:
        """
        (planes, pieces, action mask, legal ids) of a colour, fresh arrays.
        """
    def play(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Plays a legal move of the colour to move; returns the next colour, or -1 at the end.
        """
    def reset(self) -> None:
        ...
    def reset_to(self, arg0: Position) -> None:
        ...
    def scores(self) -> list[int]:
        ...
    @property
    def is_over(self) -> bool:
        ...
    @property
    def position(self) -> Position:
        ...
    @property
    def to_move(self) -> int:
        ...
def _end_long_calls(seconds: typing.SupportsFloat | typing.SupportsIndex) -> None:
    """
    At the interpreter's exit (the package registers it with atexit): ends the long calls under way in other threads, as Ctrl-C does, and waits for them (at most `seconds`); none starts after.
    """
def board(side: typing.SupportsInt | typing.SupportsIndex) -> Board:
    """
    The shared board table for side 9 (486 cells) or 8 (384 cells).
    """
def build_table_seconds(arg0: typing.SupportsInt | typing.SupportsIndex) -> float:
    """
    Builds a fresh table (not the shared one) and returns the seconds it took.
    """
def can_place_all(start: Position, colours: typing.SupportsInt | typing.SupportsIndex, time_limit: typing.SupportsFloat | typing.SupportsIndex = 10.0, node_limit: typing.SupportsInt | typing.SupportsIndex = 0, heuristic: bool = True, threads: typing.SupportsInt | typing.SupportsIndex = 1, least_slack: bool = False, both_orders: bool = True, transpositions: bool = True, callback: typing.Any = None, callback_interval: typing.SupportsFloat | typing.SupportsIndex = 0.25) -> dict:
    """
    Exhaustive search: can the colours place all their remaining pieces if the others stop? callback({'nodes', 'seconds'}) every callback_interval seconds; a falsy reply stops it (interrupted).
    """
def canonical_key(arg0: collections.abc.Sequence[tuple[typing.SupportsInt | typing.SupportsIndex, typing.SupportsInt | typing.SupportsIndex, typing.SupportsInt | typing.SupportsIndex]]) -> str:
    ...
def illegal_reason(arg0: typing.SupportsInt | typing.SupportsIndex) -> str:
    ...
def layout_key(position: Position) -> bytes:
    """Canonical key of the layout on the board, equal for layouts alike up to the 12 symmetries and a renaming of colours."""
    ...
def level_simulations(level: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    Simulations of strength level 1..9.
    """
def max_placeable(start: Position, colour: typing.SupportsInt | typing.SupportsIndex, time_limit: typing.SupportsFloat | typing.SupportsIndex = 10.0, node_limit: typing.SupportsInt | typing.SupportsIndex = 0, heuristic: bool = True, callback: typing.Any = None, callback_interval: typing.SupportsFloat | typing.SupportsIndex = 0.25) -> dict:
    """
    Branch and bound (after guided dives when heuristic): most triangles the colour can still place alone (exact when proven).
    """
def movegen_seconds(arg0: collections.abc.Sequence[Position], arg1: typing.SupportsInt | typing.SupportsIndex) -> tuple[list[float], int]:
    """
    Time of full legal-move generation for the colour to move, seconds per position.
    """
def observation_planes(position: Position, colour: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.int8], numpy.typing.NDArray[numpy.int8]]:
    """
    Observation planes (6, cells) and pieces left (4, 22) of a colour.
    """
def piece_names() -> list[str]:
    ...
def piece_orientations(arg0: typing.SupportsInt | typing.SupportsIndex) -> list[list[tuple[int, int, int]]]:
    ...
def piece_sizes() -> list[int]:
    ...
def play_games(start: Position, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, policy: str = 'random', threads: typing.SupportsInt | typing.SupportsIndex = 0, observations: bool = False, level: typing.SupportsInt | typing.SupportsIndex = 1, sides: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex] = [0, 1, 2, 3]) -> dict:
    """
    Plays `games` games from `start` on `threads` threads (game i uses seed + i), GIL released, Ctrl-C stops. Returns a dict of numpy arrays: moves, colours, lengths, scores[, planes, pieces]; after Ctrl-C also played (the games finished before the first unfinished one) and interrupted.
    """
def random_game(start: Position, seed: typing.SupportsInt | typing.SupportsIndex) -> tuple[list[tuple[int, int]], Position]:
    """
    A uniformly random game from a position: ([(colour, id)...], final).
    """
def random_games_stats(start: Position, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> dict:
    """
    Plays uniformly random games from a position in C++ (GIL released; Ctrl-C stops it and the totals are of the games played, `interrupted` set).
    """
def repair_layout(start: Position, colours: typing.SupportsInt | typing.SupportsIndex, layout: collections.abc.Sequence[tuple[typing.SupportsInt | typing.SupportsIndex, typing.SupportsInt | typing.SupportsIndex]], seconds: typing.SupportsFloat | typing.SupportsIndex = 0.0, nodes: typing.SupportsInt | typing.SupportsIndex = 0, step_nodes: typing.SupportsInt | typing.SupportsIndex = 5000, seed: typing.SupportsInt | typing.SupportsIndex = 0, accept: bool = False, accept_nodes: typing.SupportsInt | typing.SupportsIndex = 3000) -> dict:
    """
    Repairs of a layout ((colour, id) pairs, legal colour by colour): its moves around an empty cell taken out, every piece left placed by a short exhaustive search; found, witness (legal in order), nodes, steps; with accept, going on from layouts that place no fewer triangles: improved (legal in order, when it places more than the layout given, else empty) and improved_area.
    """
def solve_pattern(side: typing.SupportsInt | typing.SupportsIndex, cells: object, counts: object, all_solutions: bool = False, unique: bool = False, max_stored: typing.SupportsInt | typing.SupportsIndex = 1000, time_limit: typing.SupportsFloat | typing.SupportsIndex = 60.0, method: str = 'auto', threads: typing.SupportsInt | typing.SupportsIndex = 1, first: typing.SupportsInt | typing.SupportsIndex = 1, callback: typing.Any = None, callback_interval: typing.SupportsFloat | typing.SupportsIndex = 0.25) -> tuple:
    """
    Exact cover of board cells by a multiset of pieces (counts per piece index); callback as PatternPuzzle.solve's.
    """
def solve_solo(start: Position, start_cells: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], seed: typing.SupportsInt | typing.SupportsIndex = 0, time_limit: typing.SupportsFloat | typing.SupportsIndex = 60.0, threads: typing.SupportsInt | typing.SupportsIndex = 1, count: typing.SupportsInt | typing.SupportsIndex = 1, triangle_last: bool = True, restart_nodes: typing.SupportsInt | typing.SupportsIndex = 0, callback: typing.Any = None, callback_interval: typing.SupportsFloat | typing.SupportsIndex = 0.25, on_solution: typing.Any = None) -> dict:
    """
    Solo puzzle search from a position: {'solutions': [...], 'delivered': int, 'best': {...}, 'stats': {...}, 'interrupted': bool}. on_solution(solution) gets each solution as it is found, with the search's 'stats' so far (those are not in 'solutions'; 'delivered' counts them); a falsy reply stops the search as the callback's does. A time_limit <= 0: none.
    """
NUM_COLOURS: int = 4
NUM_PIECES: int = 22
PASS: int = 65535
PLANE_CHANNELS: int = 6
SEARCH_NODE_BYTES: int = 20
