"""A PettingZoo AEC environment for every Trigon variant (needs the ``rl`` extra).

One agent per colour in play, named ``blue_0``, ``yellow_1``, ``red_2``, ``green_3`` (the number is
the colour index). Turns follow the rules: a colour that cannot move is skipped and the game ends
when no colour can move; every agent is then terminated together and gets its player's reward
(colours of one player or team share it).

Observation of an agent (all ``int8`` 0/1), cells indexed as ``trigon_fast.board(side)``:

- ``observation``: planes ``(6, cells)``: occupancy by colour relative to the agent (its own
  colour first, then the next colours in turn order), where it may place next (attach points, or
  free start cells before its first piece), cells forbidden to it;
- ``pieces_left``: ``(4, 22)``: pieces left of each colour, same relative order, Pentobi's piece
  order (``trigon_fast.PIECE_NAMES``);
- ``action_mask``: ``(num_placements,)``: its legal placements.

Actions are placement ids, ``Discrete(num_placements)``; ``trigon_fast.Move(id, side)`` names one.

>>> from trigon_fast.env import TrigonEnv
>>> env = TrigonEnv()
>>> env.reset(seed=0)
>>> env.agent_selection
'blue_0'
>>> int(env.observe("blue_0")["action_mask"].sum())
2478
"""

from __future__ import annotations

import copy
import operator
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("trigon_fast.env needs the rl extra: pip install '.[rl]' in the trigon_fast checkout "
                      f"(pettingzoo and gymnasium): {e}") from None

from . import _args, _core
from ._args import IntLike
from .errors import ColourError, GameOverError, IllegalMoveError, TrigonError
from .game import Game
from .move import PIECE_NAMES, Move, board
from .variants import Variant, VariantLike, as_variant

__all__ = ["TrigonEnv", "env", "raw_env", "REWARDS", "agent_name"]

_COLOUR_NAMES = ("blue", "yellow", "red", "green")
REWARDS = ("score", "win", "rank")
RewardFn = Callable[[Sequence[int], int], float]


def agent_name(colour: int) -> str:
    """Agent name of a colour index 0..3: ``blue_0`` .. ``green_3``."""
    c = _args.integer("a colour index", colour, 0, 3, ColourError)
    return f"{_COLOUR_NAMES[c]}_{c}"


def _rank_reward(scores: Sequence[int], player: int) -> float:
    # Fraction of the other players beaten minus the fraction ahead: zero-sum, in [-1, 1].
    n = len(scores)
    if n == 1:
        return 0.0
    mine = scores[player]
    below = sum(1 for s in scores if s < mine)
    above = sum(1 for s in scores if s > mine)
    return (below - above) / (n - 1)


def _win_reward(scores: Sequence[int], player: int) -> float:
    # +1 sole best, 0 shared best, -1 otherwise.
    best = max(scores)
    if scores[player] < best:
        return -1.0
    return 1.0 if sum(1 for s in scores if s == best) == 1 else 0.0


class TrigonEnv(AECEnv):
    """Blokus Trigon as a PettingZoo AEC environment.

    ``variant``: any :class:`trigon_fast.Variant`. ``reward``: ``"score"`` (the player's final
    rulebook score, the sum over its colours), ``"win"`` (+1 sole winner, 0 shared first place,
    -1 otherwise), ``"rank"`` ((players beaten - players ahead) / (players - 1)), or a function
    ``f(player_scores, player) -> float``. In a solo game ``win`` is +1 when every colour placed
    all its pieces, else -1, and ``rank`` is 0. Rewards come only at the end of the game.
    ``render_mode``: ``"ansi"`` (text returned), ``"human"`` (text printed) or ``"rgb_array"``
    (needs CairoSVG and Pillow).
    """

    metadata: Dict[str, Any] = {"name": "trigon_v0", "render_modes": ["ansi", "human", "rgb_array"],
                "is_parallelizable": False}

    def __init__(self, variant: VariantLike = Variant.FOUR_PLAYER, reward: Union[str, RewardFn] = "score",
                 render_mode: Optional[str] = None) -> None:
        super().__init__()
        variant = as_variant(variant, TrigonError)
        if isinstance(reward, str):
            if reward not in REWARDS:
                raise TrigonError(f"reward must be one of {', '.join(REWARDS)} or a function, not {reward!r}")
        elif not callable(reward):
            raise TrigonError("reward must be a name or a function f(player_scores, player)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TrigonError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}")
        self.variant = variant
        self.reward_kind = reward
        self.render_mode = render_mode
        self._board = board(variant.side)
        self._num_placements = self._board.num_placements
        self._start = Game(variant).position
        self._state = _core.EnvState(self._start)
        self._colour_of: Dict[str, int] = {agent_name(c): int(c) for c in variant.colours}
        self._name_of: List[Optional[str]] = [agent_name(c) if c in variant.colours else None for c in range(4)]
        self._player_of: Dict[str, int] = {a: variant.player_of(c) for a, c in self._colour_of.items()}
        self.possible_agents = list(self._colour_of)
        cells = self._board.num_cells
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 1, (_core.PLANE_CHANNELS, cells), np.int8),
            "pieces_left": gymnasium.spaces.Box(0, 1, (4, len(PIECE_NAMES)), np.int8),
            "action_mask": gymnasium.spaces.Box(0, 1, (self._num_placements,), np.int8),
        })
        # One space object per agent (seeding them independently), identical in shape.
        self.observation_spaces = {a: obs_space if i == 0 else _copy_space(obs_space)
                                   for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self._num_placements) for a in self.possible_agents}
        self._moves: List[int] = []
        self._start_game: Optional[Game] = None
        self.reset()

    # -- spaces --------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # -- AEC API -------------------------------------------------------------------------------
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Back to the empty board, or with ``options={"start": game}`` to a :class:`Game`'s
        position (same variant, not over; e.g. openings for training, or analysis). Other keys of
        ``options`` are ignored (PettingZoo's API test passes keys of its own)."""
        # The rules are deterministic: a seed only seeds the action spaces' sampling.
        if seed is not None:
            seed = _args.seed(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        if options is not None and not isinstance(options, dict):
            raise TrigonError(f"options must be a dict, not {type(options).__name__}")
        start = (options or {}).get("start")
        if start is not None:
            if not isinstance(start, Game) or start.variant != self.variant:
                raise TrigonError(f"options['start'] must be a Game of {self.variant!r}")
            if start.is_over:
                raise GameOverError("options['start'] is a finished game")
            self._start_game = start.copy()
            self._state.reset_to(start.position)
        elif self._start_game is not None:
            self._start_game = None
            self._state.reset_to(self._start)
        else:
            self._state.reset()  # cached move sets of the empty board: no rebuild
        self._moves = []
        self._legal_cache: Tuple[int, Optional[str], Optional[np.ndarray]] = (-1, None, None)
        self.agents = list(self.possible_agents)
        self.rewards: Dict[str, float] = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self._name_of[self._state.to_move]

    def _agent_colour(self, agent: Optional[str]) -> int:
        try:
            return self._colour_of[agent]  # type: ignore[index]  # (None, or a list: refused below)
        except (KeyError, TypeError):
            raise TrigonError(f"unknown agent {agent!r}; the agents are {', '.join(self.possible_agents)}") from None

    def observe(self, agent: str) -> dict:
        planes, pieces, mask, ids = self._state.observe(self._agent_colour(agent))
        # The legal ids come with the mask: legal_actions() reuses them until the next move.
        self._legal_cache = (len(self._moves), agent, _args.frozen(ids))  # (handed out as it is)
        return {"observation": planes, "pieces_left": pieces, "action_mask": mask}

    def step(self, action: IntLike) -> None:
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent has taken its last (dead) step
            raise GameOverError("the game is over: reset() to play again")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            pid = operator.index(action)  # an integer (numpy's too): 3.7 and "5" are mistakes, not 3 and 5
        except TypeError:
            pid = None
        if pid is None or isinstance(action, bool):
            raise IllegalMoveError(f"{agent} needs a placement id as action, not {action!r}")
        if not 0 <= pid < 2**31:
            raise IllegalMoveError(f"{agent} cannot play placement {action}: no such placement")
        try:
            nxt = self._state.play(pid)
        except ValueError as e:
            raise IllegalMoveError(f"{agent} cannot play placement {action}: {e}") from None
        self._moves.append(pid)
        self._cumulative_rewards[agent] = 0
        if nxt >= 0:
            self.agent_selection = self._name_of[nxt]
        else:
            self._end_game()

    def last(self, observe: bool = True) -> Tuple[Optional[Dict[str, np.ndarray]], float, bool, bool, Dict[str, Any]]:
        if self.agent_selection not in self._cumulative_rewards:
            raise GameOverError("the game is over and every agent has taken its last step: reset() to play again")
        return super().last(observe)

    def _end_game(self) -> None:
        scores = self._state.scores()
        player_scores = [sum(scores[int(c)] for c in cs) for cs in self.variant.players]
        for a in self.agents:
            self.rewards[a] = float(self._reward(player_scores, self._player_of[a]))
            self.terminations[a] = True
            self.infos[a] = {"scores": tuple(player_scores)}
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def _reward(self, player_scores: Sequence[int], player: int) -> float:
        kind = self.reward_kind
        if callable(kind):
            return kind(player_scores, player)
        if kind == "score":
            return player_scores[player]
        if len(player_scores) == 1:  # solo
            pos = self._state.position
            complete = all(pos.pieces_left(int(c)) == 0 for c in self.variant.colours)
            return 0.0 if kind == "rank" else (1.0 if complete else -1.0)
        return _win_reward(player_scores, player) if kind == "win" else _rank_reward(player_scores, player)

    # -- extras --------------------------------------------------------------------------------
    @property
    def moves(self) -> List[int]:
        """Placement ids played since the reset, in order."""
        return list(self._moves)

    @property
    def position(self) -> "_core.Position":
        """A copy of the current position."""
        return self._state.position

    def legal_actions(self, agent: Optional[str] = None) -> np.ndarray:
        """Legal placement ids of an agent (default: the one to act), ``uint16``, read-only
        (``.copy()`` to change them: ``observe`` and this share them until the next move)."""
        name = agent or self.agent_selection
        cache = self._legal_cache
        if cache[0] == len(self._moves) and cache[1] == name and cache[2] is not None:
            return cache[2]
        return _args.frozen(self._state.legal_ids(self._agent_colour(name)))

    def game(self) -> Game:
        """The game so far as a :class:`trigon_fast.Game` (history, undo, diagrams, records)."""
        g = self._start_game.copy() if self._start_game is not None else Game(self.variant)
        for pid in self._moves:
            g.play(pid)
        return g

    def play_moves(self, moves: Iterable[Union[IntLike, Move]]) -> None:
        """Steps the agents to act through ``moves`` (placement ids as ``step`` takes them, or
        :class:`trigon_fast.Move` objects), e.g. to replay a game. All or nothing: when one of
        them cannot be played, the error says which and the env is as it was."""
        moves = list(moves)
        # Played on a copy first, so that a bad move late in the list leaves this env untouched.
        trial = copy.copy(self)
        for k, move in enumerate(moves):
            # (once every agent has taken its last step, the one selected has no entry left)
            if trial.agent_selection is None or trial.terminations.get(trial.agent_selection, True):
                raise GameOverError(f"the game is over before move {k} of the list")
            if isinstance(move, Move):
                if move.side != self.variant.side:
                    raise IllegalMoveError(f"move {k} of the list ({move}) is for the side-{move.side} board")
                move = move.id
            try:
                trial.step(move)
            except TrigonError as e:
                raise type(e)(f"move {k} of the list: {e}") from None
        self.__dict__.update(trial.__dict__)

    def render(self) -> Union[str, np.ndarray, None]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        g = self.game()
        if self.render_mode == "rgb_array":
            return _svg_rgb(g)
        text = str(g)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def __repr__(self) -> str:
        over = self._state.to_move < 0 or all(self.terminations.get(a, False) for a in self.possible_agents)
        where = "over" if over else f"{self.agent_selection} to act"
        return f"<TrigonEnv {self.variant!r}, {_args.counted(len(self._moves), 'move')}, {where}>"

    def close(self) -> None:
        pass

    # -- copies and pickles --------------------------------------------------------------------
    def __getstate__(self) -> dict:
        # The C++ state is rebuilt from the start and the moves; everything else travels as it is.
        return {k: v for k, v in self.__dict__.items() if k not in ("_board", "_start", "_state", "_legal_cache")}

    def __setstate__(self, state: dict) -> None:
        # Own containers (copy.copy hands over the same ones): a copy steps without touching this one.
        self.__dict__.update({k: copy.copy(v) if isinstance(v, (list, dict)) else v for k, v in state.items()})
        self._board = board(self.variant.side)
        self._start = Game(self.variant).position
        self._state = _core.EnvState(self._start)
        if self._start_game is not None:
            self._state.reset_to(self._start_game.position)
        for pid in self._moves:
            self._state.play(pid)
        self._legal_cache = (-1, None, None)


def _copy_space(space: "gymnasium.spaces.Dict") -> "gymnasium.spaces.Dict":
    boxes: Dict[str, Any] = dict(space.items())  # every entry a Box (the observation space of __init__)
    return gymnasium.spaces.Dict({k: gymnasium.spaces.Box(s.low, s.high, s.shape, s.dtype) for k, s in boxes.items()})


def _svg_rgb(game: Game) -> np.ndarray:
    from . import render

    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(f"render_mode 'rgb_array' needs Pillow to decode the PNG: {e}") from None
    import io

    png = render.svg_to_png(render.game_svg(game))
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"))


def raw_env(variant: VariantLike = Variant.FOUR_PLAYER, **kwargs: Any) -> TrigonEnv:
    """The environment without wrappers (fastest)."""
    return TrigonEnv(variant, **kwargs)


def env(variant: VariantLike = Variant.FOUR_PLAYER, **kwargs: Any) -> "wrappers.OrderEnforcingWrapper":
    """The environment with PettingZoo's usual checks (order enforcing, actions in range)."""
    e = TrigonEnv(variant, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
