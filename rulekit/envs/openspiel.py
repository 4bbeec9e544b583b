"""Any rule file as an OpenSpiel game: `load_game(game, players=..., variant=...)`.

Pipeline place: api → **envs**. Needs the extra: `pip install "rulekit-cards[openspiel]"`.

The game is registered with pyspiel as a Python game (`python_rulekit_<name>`, with the
variants in the name) and loaded with the parameters `players` and `deals`:

- Imperfect information, sequential, with an explicit chance node first: the deal. Its
  outcomes are `deals` equally likely seeds (0..deals-1); the seed fixes every shuffle of
  the game, so that one chance node is all the chance there is.
- Actions are the game's fixed action space (`game.actions(players)`); a move that picks
  several cards (a pass) is one action per card, made by the same player in a row.
- Returns at the end: the winners share 1 (ties share the win), the others get 0; a
  constant-sum game.
- Information-state and observation tensors are `state.information_state(seat)` and
  `state.observation(seat)` (layout in `rulekit.engine.observe`), each followed by one
  slot per action for the parts chosen so far of a move made in parts; the strings show the
  seat's view and the round's moves as it saw them.
- `serialize()` writes the deal and the actions; `resample_from_infostate` (used by
  OpenSpiel's ISMCTS bot) draws a full state the player cannot tell apart from this one
  (`state.determinize`).
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel

from ..compile.game import MAX_ROUNDS
from ._table import Table, load, render

#: How many deals the chance node offers by default.
DEALS = 1 << 16
#: short name → the rulekit Game loaded under it (a later load under the same name replaces it).
_GAMES: dict = {}


def load_game(game, players: int | None = None, variant=None, *, deals: int = DEALS):
    """A pyspiel game for a `rulekit.Game`, a bundled name or a rule file's path."""
    loaded = load(game, variant)
    if not (isinstance(deals, int) and deals >= 1):
        raise ValueError(f"deals must be a positive int, not {deals!r}")
    return pyspiel.load_game(register(loaded), {"players": loaded.checked_players(players), "deals": deals})


def register(game) -> str:
    """Register a loaded game with pyspiel (once per name); returns its short name."""
    short_name = "python_rulekit_" + "_".join(_slug(part) for part in (game.name, *game.selected))
    known = short_name in _GAMES
    _GAMES[short_name] = game
    if not known:
        default = game.checked_players()
        game_type = pyspiel.GameType(
            short_name=short_name,
            long_name=f"rulekit: {game.title}" + "".join(f" ({v})" for v in game.selected),
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=game.players[-1],
            min_num_players=game.players[0],
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"players": default, "deals": DEALS},
        )
        cls = type(f"RulekitGame_{_slug(short_name)}", (RulekitGame,), {"short_name": short_name,
                                                                         "game_type": game_type})
        pyspiel.register_game(game_type, cls)
    return short_name


class RulekitGame(pyspiel.Game):
    """The pyspiel game of one rule file; `register` makes a subclass per rule file."""

    short_name = ""
    game_type = None

    def __init__(self, params=None):
        params = dict(params or {})
        self.rulekit_game = _GAMES[self.short_name]
        players = int(params.get("players", self.game_type.parameter_specification["players"]))
        self.deals = int(params.get("deals", DEALS))
        self.table = Table(self.rulekit_game, self.rulekit_game.checked_players(players))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table.space),
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max(1, self.table.encoder.log_length) * MAX_ROUNDS,
        )
        super().__init__(self.game_type, info, {"players": players, "deals": self.deals})

    def new_initial_state(self):
        return RulekitState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return _Observer(self.table, perfect_recall)


class _Play:
    """The Python side of a state: the table, the deal and the actions since. Copied by
    `copy.deepcopy` (cheap: the game is shared) and pickled as the actions to replay."""

    def __init__(self, short_name: str, table: Table):
        self.short_name, self.table, self.deal, self.actions = short_name, table, None, []

    def __deepcopy__(self, memo):
        other = _Play(self.short_name, self.table.copy())
        other.deal, other.actions = self.deal, list(self.actions)
        return other

    def __reduce__(self):
        return _replayed, (self.short_name, self.table.n, self.deal, tuple(self.actions))


def _replayed(short_name: str, players: int, deal, actions) -> _Play:
    play = _Play(short_name, Table(_GAMES[short_name], players))
    if deal is not None:
        play.table.start(deal)
        play.deal = deal
        for action in actions:
            play.table.act(action)
        play.actions = list(actions)
    return play


class RulekitState(pyspiel.State):
    """A game in play: a chance node for the deal, then the seats' actions."""

    def __init__(self, game):
        super().__init__(game)
        self._deals = game.deals
        self._play = _Play(game.short_name, Table(game.rulekit_game, game.table.n))

    def current_player(self):
        state = self._play.table.state
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return state.current_player

    def _legal_actions(self, player):
        table = self._play.table
        if table.state is None or table.state.is_terminal or player != table.state.current_player:
            return []
        return table.legal()

    def chance_outcomes(self):
        chance = 1.0 / self._deals
        return [(deal, chance) for deal in range(self._deals)]

    def _apply_action(self, action):
        play = self._play
        if play.table.state is None:
            play.table.start(int(action))
            play.deal = int(action)
            return
        play.table.act(int(action))
        play.actions.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self._play.table.label(action)

    def is_terminal(self):
        state = self._play.table.state
        return state is not None and state.is_terminal

    def returns(self):
        state = self._play.table.state
        n = self._play.table.n
        if state is None or not state.is_terminal:
            return [0.0] * n
        share = 1.0 / len(state.winners)
        return [share if seat in state.winners else 0.0 for seat in range(n)]

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state `player_id` cannot tell apart from this one, from `state.determinize`."""
        table = self._play.table
        other = self.clone()
        if table.state is None or table.state.is_terminal:
            return other
        seed = random.Random(hash((self._play.deal, len(self._play.actions), random.random()))).randrange(2**63)
        other._play.table.state = table.state.determinize(player_id, seed=seed)
        return other

    def __str__(self):
        state = self._play.table.state
        return "chance: the deal" if state is None else render(state.view())


class _Observer:
    """Tensors and strings for pyspiel: the information state (perfect recall) or the
    observation, for one player."""

    def __init__(self, table: Table, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        size = table.info_size if perfect_recall else table.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        table = state._play.table
        if table.state is None:
            self.tensor.fill(0)
            return
        values = table.information_state(player) if self.perfect_recall else table.observation(player)
        self.tensor[:] = values

    def string_from(self, state, player):
        table = state._play.table
        if table.state is None:
            return "chance: the deal"
        return table.information_text(player) if self.perfect_recall else table.observation_text(player)


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in str(name).lower())
