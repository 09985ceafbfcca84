"""``TurnBasedAECEnv``: the one PettingZoo AEC adapter for every game in the package.

A game supplies a pure rules object (:class:`GameRules`), an observation encoder and a view
(:class:`GameView`: how states and actions are shown to people; both protocols are in
:mod:`primeval.envs.core.protocols`); the adapter owns the seeded generator and the
PettingZoo bookkeeping. A game's ``env.py`` only sets ``metadata`` and builds the three::

    class raw_env(TurnBasedAECEnv):
        metadata = {"name": "primordial_soup_v1", "is_parallelizable": False,
                    "render_modes": list(PrimordialSoupView.render_modes)}

        def __init__(self, num_players=4, obs_encoder="flat", **kwargs):
            rules = PrimordialSoupRules(Config(num_players=num_players))
            super().__init__(rules, make_encoder(ENCODERS, obs_encoder, rules),
                             PrimordialSoupView(rules), **kwargs)

The game data are the rules state and the generator (plus the step count and the PettingZoo
dicts); both are plain picklable objects, so ``copy.deepcopy`` and ``pickle`` keep a game in
progress.

The adapter is the AEC core only: the forms other libraries want (the Box observation with
the mask in the infos, the mask in the infos, numeric infos, the private state) are
PettingZoo wrappers over it, in :mod:`primeval.envs.core.forms`; a game's ``raw_env`` and
``env`` are built by :class:`~primeval.envs.core.builder.EnvBuilder`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from primeval.envs.core.encoders import ObservationEncoder
from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError
from primeval.envs.core.protocols import GameRules, GameView
from primeval.envs.core.rewards import check_reward_mode, reward_for_mode

__all__ = ["GameRules", "GameView", "TurnBasedAECEnv"]

_MAX_LEGAL_SHOWN = 8


class TurnBasedAECEnv(AECEnv):
    """PettingZoo AEC env for a turn-based game given by its rules, an observation encoder
    and a view.

    Agents are ``player_0 .. player_{n-1}`` (seat ``i`` is ``player_i``). The agent to act is the
    rules' ``current_player``, so one agent may act several times in a row. Rewards are 0 during
    play; at the end every agent gets ``reward_for_mode(reward_mode, rules.scores(state))``. After
    the end, each agent is stepped once with ``None`` (player_0 first), as in PettingZoo.

    Observations are ``{"observation": encoder.encode(state, seat), "action_mask": int8}``; the
    mask is all zeros for every agent that is not the one to act. ``infos[agent]`` holds
    ``"phase"`` and ``"decision"`` (the rules' names). Other forms (the encoder's array alone,
    the mask in the infos, the names as ids) are wrappers: :mod:`primeval.envs.core.forms`.

    The current rules state is :attr:`game_state`. PettingZoo's :meth:`state` (one array for a
    centralised critic) and :attr:`state_space` are the game's ``state_encoder``
    (:class:`~primeval.envs.core.state_encoder.StateEncoder`), when the game gives one.

    Args:
        rules: The game's rules (see :class:`GameRules`).
        obs_encoder: A built observation encoder (see ``make_encoder``).
        view: The game's view (see :class:`GameView`), built on the same rules.
        metadata: PettingZoo metadata; merged over the class attribute ``metadata`` if the
            subclass sets one, itself merged over defaults (``name`` = ``rules.name``,
            ``render_modes`` = ``view.render_modes``, ``is_parallelizable`` = False).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns ``view.to_text``),
            ``"rgb_array"`` (``render()`` returns ``view.to_rgb_array``, an (H, W, 3) uint8
            array) or ``"human"`` (a pygame-ce window showing that picture, drawn again
            after every step; a view without a picture prints its text instead).
        max_steps: Truncate the game after this many agent steps (None: never).
        reward_mode: ``"rank"`` (default), ``"win"`` or ``"score"``; see ``rewards.py``.
        info_names: The names the infos can hold, ``{"phase": (...), "decision": (...)}``
            (the game gives them; :class:`~primeval.envs.core.forms.NumericInfosWrapper`
            gives their indices). Every name the rules return must be in its table.
        state_encoder: What :meth:`state` returns: a built state encoder (``space()``,
            ``encode(state)``), or a zero-argument callable building one on first use
            (picklable: a class or ``functools.partial``), or ``None``: no ``state()``.

    Raises:
        ValueError: Unknown render or reward mode, or a non-positive ``max_steps``.
        TypeError: ``obs_encoder`` is not an encoder, or ``view`` not a view.
    """

    #: The core's own forms; a form wrapper over it (:mod:`primeval.envs.core.forms`)
    #: reports its own.
    observation_form: str = "dict"
    info_form: str = "names"
    mask_in_info: bool = False

    def __init__(
        self,
        rules: GameRules,
        obs_encoder: ObservationEncoder,
        view: GameView,
        *,
        metadata: dict[str, Any] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        reward_mode: str = "rank",
        info_names: Mapping[str, Sequence[str]] | None = None,
        state_encoder: Any = None,
    ) -> None:
        super().__init__()
        if not isinstance(obs_encoder, ObservationEncoder):
            raise TypeError(
                "obs_encoder must be an encoder with name, space() and encode(); build one "
                f"with make_encoder, got {type(obs_encoder).__name__}"
            )
        if not isinstance(view, GameView):
            raise TypeError(
                "view must be a view with render_modes, to_text(), describe_decision() and "
                f"action_name(), got {type(view).__name__}"
            )
        self.rules = rules
        self.obs_encoder = obs_encoder
        self.view = view
        self.metadata = {
            "name": rules.name,
            "render_modes": list(view.render_modes),
            "is_parallelizable": False,
            **getattr(type(self), "metadata", {}),
            **(metadata or {}),
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; allowed: {self.metadata['render_modes']}"
            )
        if max_steps is not None and (
            not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps <= 0
        ):
            raise ValueError(f"max_steps must be a positive int or None, got {max_steps!r}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.reward_mode = check_reward_mode(reward_mode)
        #: The names each info can hold: ``info_names["phase"]``, ``["decision"]``.
        self.info_names: dict[str, tuple[str, ...]] = {
            key: tuple(names) for key, names in (info_names or {}).items()}
        self._state_encoder = state_encoder

        n = rules.layout.n
        self.possible_agents = [f"player_{seat}" for seat in range(rules.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": obs_encoder.space(),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }

        # Game data: the rules state and the generator (plus the step count).
        self._rng: np.random.Generator | None = None
        self._state: Any = None
        self._num_steps = 0
        self._mask: np.ndarray | None = None  # legal mask of _state, computed on demand
        self._script: Any = None  # a ScriptedChance fixing the next chance events
        self._source: Any = None  # a ChanceSource deciding every event (use_chance)
        # Rules that return the next state's mask with the state (FrameRules.transition)
        # spare the adapter computing it again.
        self._transition = getattr(rules, "transition", None)

    # -- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) observation space of ``agent``: a Dict of the encoder's Box and the
        mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The (cached) ``Discrete(layout.n)`` action space of ``agent``."""
        return self.action_spaces[agent]

    # -- game -----------------------------------------------------------------------------

    @property
    def game_state(self) -> Any:
        """The current rules state (read it, do not mutate it)."""
        return self._state

    @property
    def num_steps(self) -> int:
        """Agent steps taken since the last reset (dead-agent steps not counted)."""
        return self._num_steps

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game.

        Args:
            seed: Seeds the generator; the same seed and actions give the same game. With
                ``None`` the generator continues from its current state (fresh entropy on the
                first reset), as in Gymnasium.
            options: Unused.
        """
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        state = self.rules.initial_state(self._chance_source())
        self._end_of_script()
        self._start(state)

    def step(self, action: Any) -> None:
        """Applies ``action`` for ``agent_selection``.

        Args:
            action: An ``int`` (or numpy integer, or 0-d integer array) legal id; ``None`` for
                an agent that is already terminated or truncated.

        Raises:
            InvalidActionTypeError: ``action`` is not an integer (float, bool, None, str, ...).
            IllegalActionError: Out of range or not legal now; nothing changes.
        """
        if self._state is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action_id = self._validate(action)
        rng_state = self._rng.bit_generator.state
        script = None if self._script is None else (self._script.used,
                                                    len(self._script.events))
        rng = self._chance_source()
        source_state = getattr(self._source, "get_state", lambda: None)()
        try:
            if self._transition is not None:
                new_state, new_mask = self._transition(self._state, action_id, rng, self._mask)
            else:
                new_state, new_mask = self.rules.apply(self._state, action_id, rng), None
        except Exception:
            self._rng.bit_generator.state = rng_state  # leave everything as it was
            if script is not None:
                self._script.used, self._script.events[script[1]:] = script[0], []
            if source_state is not None:
                self._source.set_state(source_state)
            raise
        self._end_of_script()
        self._state = new_state
        self._mask = None if new_mask is None else self._checked_mask(new_mask)
        self._num_steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._after_transition()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": ..., "action_mask": int8}`` for ``agent``."""
        observation = self.obs_encoder.encode(self._state, self._seats[agent])
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    @property
    def state_space(self) -> spaces.Box:
        """PettingZoo's state space: the Box every :meth:`state` lies in.

        Raises:
            AttributeError: The game gives no state encoder.
        """
        return self._get_state_encoder().space()

    def state(self) -> np.ndarray:
        """PettingZoo's global state: the game's features from no seat's view (the state
        encoder's; see the game's docstring for its pieces), a fresh float32 array: public
        information only (the game's ``state_private=True``,
        :class:`~primeval.envs.core.forms.PrivateStateWrapper`, adds every seat's private
        pieces).

        Raises:
            NotImplementedError: The game gives no state encoder.
            RuntimeError: Before :meth:`reset`.
        """
        if self._state_encoder is None:
            raise NotImplementedError(f"{self.rules.name} has no state encoder: no state()")
        if self._state is None:
            raise RuntimeError("state() before reset(): call reset() to start a game")
        return self._get_state_encoder().encode(self._state)

    @property
    def state_encoder(self) -> Any:
        """The state encoder of :meth:`state` (built on first use), whose ``pieces`` and
        ``view(state, name)`` name the state's parts; ``None`` when the game gives none."""
        return None if self._state_encoder is None else self._get_state_encoder()

    def _get_state_encoder(self) -> Any:
        encoder = self._state_encoder
        if encoder is None:
            raise AttributeError(f"{self.rules.name} has no state encoder: no state_space")
        if not hasattr(encoder, "encode"):  # a factory: build it on first use
            encoder = self._state_encoder = encoder()
        return encoder

    def action_mask(self, agent: str, dtype: Any = np.int8) -> np.ndarray:
        """``observe(agent)["action_mask"]`` without encoding the observation: 1 on the legal
        actions of the agent to act, all zeros for every other agent; a new array of
        ``dtype`` (int8 as PettingZoo's masks are; ``bool`` for sb3-contrib's)."""
        if self._is_to_act(agent):
            return self._legal_mask().astype(dtype)
        return np.zeros(self.rules.layout.n, dtype=dtype)

    def render(self) -> str | np.ndarray | None:
        """The view's text of the state (``"ansi"``), its picture (``"rgb_array"``: an
        (H, W, 3) uint8 array; drawing needs matplotlib), or the picture shown in a window
        (``"human"``, as PettingZoo's classic games: a pygame-ce window, see
        :mod:`~primeval.envs.core.picture_window`; a view without a picture prints its text
        instead). All are the view's debugging view (``viewer=None``). ``"human"`` renders
        after every step by itself; the text it printed before the window is
        ``print(env.render())`` with ``"ansi"``.

        Raises:
            WindowError: ``"human"`` cannot open its window (pygame-ce missing, no display:
                set ``SDL_VIDEODRIVER=dummy`` to draw off screen).
        """
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.render_mode == "rgb_array":
            return self.view.to_rgb_array(self._state)
        if self.render_mode == "human" and callable(getattr(self.view, "to_rgb_array", None)):
            window = getattr(self, "_window", None)
            if window is None:
                from primeval.envs.core.picture_window import PictureWindow

                window = self._window = PictureWindow(title=self.metadata["name"])
            window.show(self.view.to_rgb_array(self._state))
            return None
        text = self.view.to_text(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- chance ---------------------------------------------------------------------------

    def script_chance(self, outcomes: Any) -> Any:
        """Fix the outcomes of the next chance events of this env's game (dice, cards and
        tiles drawn, shuffles), in the order they happen: a die's face, a pick's index (see
        :mod:`primeval.envs.core.chance`). The next ``reset()`` (its setup) or ``step()`` uses
        them; each is checked against its event (``ValueError`` naming it, the env left as it
        was). Once they are used up, the env's chance source decides the events again (the
        one given to :meth:`use_chance`, else the env's own generator).

        Returns:
            The :class:`~primeval.envs.core.chance.ScriptedChance`; its ``events`` list the
            events met so far, ``remaining`` the outcomes not used yet.
        """
        from primeval.envs.core.chance import ScriptedChance

        if self._rng is None:
            self._rng = np.random.default_rng()
        self._script = ScriptedChance(outcomes, then=self._rng)
        return self._script

    def use_chance(self, source: Any) -> None:
        """Let ``source``, a :class:`~primeval.envs.core.chance.ChanceSource`, decide every
        chance event of this env's games from now on (the next ``reset()``'s setup included)
        instead of the env's generator; ``None`` gives them back to the generator. A script
        (:meth:`script_chance`) still comes first. Duplicate games use it
        (:class:`~primeval.envs.core.chance.DuplicateChance`). A source with ``get_state()``
        and ``set_state()`` is put back as it was when a step fails."""
        if source is not None and not callable(getattr(source, "draw", None)):
            raise TypeError(f"use_chance takes a ChanceSource (with draw(event)) or None, "
                            f"got {type(source).__name__}")
        self._source = source

    def _chance_source(self) -> Any:
        """Who decides the next chance events: the script while it lasts, then the source
        (:meth:`use_chance`), else this env's generator."""
        after = self._rng if self._source is None else self._source
        if self._script is None:
            return after
        self._script.then = after
        return self._script

    def _end_of_script(self) -> None:
        if self._script is not None and not self._script.remaining:
            self._script = None

    # -- legal actions by name ------------------------------------------------------------

    def legal_actions(self) -> list[tuple[int, str]]:
        """The legal actions of the agent to act, as ``(id, name)`` pairs in id order, each
        named as that agent may read it (:meth:`action_name`); ``[]`` once the game is over.

        ``[a for a, _ in env.legal_actions()]`` are OpenSpiel's ``state.legal_actions()``.
        """
        if self._state is None:
            raise RuntimeError("legal_actions() before reset(): call reset() to start a game")
        agent = self.agent_selection
        if not self._is_to_act(agent):
            return []
        return [(int(a), self.action_name(int(a))) for a in np.flatnonzero(self._legal_mask())]

    def action_name(self, action: Any) -> str:
        """The name of action id ``action`` (legal or not) in the current state, as the agent
        to act may read it (the game view's ``action_name``): ``"move(left)"``,
        ``"play_card(Y3) = Y3 Forced March"``.

        Raises:
            InvalidActionTypeError: ``action`` is not an integer.
            IllegalActionError: ``action`` is outside ``[0, n)``.
        """
        if self._state is None:
            raise RuntimeError("action_name() before reset(): call reset() to start a game")
        return self.view.action_name(self._state, self._action_id(action),
                                     self._seats[self.agent_selection])

    def action_to_string(self, action: Any) -> str:
        """OpenSpiel's name for :meth:`action_name`."""
        return self.action_name(action)

    def describe(self) -> str:
        """Who decides what, in words: the agent to act, the phase, the pending decision (as
        that agent may read it) and how many actions are legal; or the result when the game
        is over. E.g. ``"player_1 to act in phase 'movement': player_1 chooses how amoeba #2
        on space 5 moves (drift or hold); 2 legal actions"``."""
        if self._state is None:
            raise RuntimeError("describe() before reset(): call reset() to start a game")
        phase = self.rules.phase_name(self._state)
        if self.rules.is_terminal(self._state):
            scores = ", ".join(f"{a} {s:g}" for a, s in zip(
                self.possible_agents, self.rules.scores(self._state), strict=True))
            return f"game over after {self._num_steps} steps (phase {phase!r}); scores: {scores}"
        agent = self.agent_selection
        if not self._is_to_act(agent):
            return (f"the game was truncated after {self._num_steps} steps (max_steps "
                    f"{self.max_steps}); no one is to act")
        decision = self.view.describe_decision(self._state, self._seats[agent])
        legal = int(self._legal_mask().sum())
        return (f"{agent} to act in phase {phase!r}: {decision}; {legal} legal "
                f"action{'s' if legal != 1 else ''}")

    # -- saved states -------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """The game in progress as a JSON-serialisable dict (config, rules state, generator
        state, whose turn); :meth:`set_state` on a fresh env of the same game continues it."""
        from primeval.envs.core.saved_state import snapshot

        return snapshot(self)

    def set_state(self, data: dict[str, Any]) -> None:
        """Continue the game saved by :meth:`get_state`.

        Raises:
            StateError: another game, version or config, or a damaged dict; the env is left
                as it was.
        """
        from primeval.envs.core.saved_state import restore

        restore(self, data)

    def set_game_state(self, state: Any, seed: int | None = None) -> None:
        """Play on from ``state``, a rules state of this env's game: a position built with
        the game's ``position.build_position``, say, or a state taken from another env.

        The env starts a game there, as :meth:`reset` starts one at the setup:
        ``agent_selection`` is the rules' player to act, ``infos`` hold the phase and the
        decision, the mask is the state's, rewards are 0 (or the final ones, every agent
        terminated, when the state is over) and the step count starts again at 0. The state is
        copied, so changing it afterwards does not change the game. It works before the first
        :meth:`reset` too. Through ``env()``'s wrappers, ``env.set_game_state(state)`` counts
        as the reset their order check asks for; ``env.unwrapped.set_game_state(state)``
        works there once the env has been reset.

        Args:
            state: A state of this game's rules (``check_state`` is run when the rules have
                it; the state must be over or wait for a player's decision).
            seed: Re-seeds the generator, as ``reset(seed)`` does. Without one the env's
                generator goes on as it is (a fresh one if the env was never reset).

        Raises:
            StateError: the state is inconsistent, of another game or config, or waits for
                no one; the message says why and the env is left as it was.
        """
        from primeval.envs.core.saved_state import StateError, plain_state_tree, rules_error

        try:
            # A fresh copy through the state's plain form, when the rules have one: its tree
            # bounded in depth and size, numpy scalars turned into Python ones (so that
            # get_state() stays JSON-serialisable); the checks then run on the copy.
            from_dict = getattr(self.rules, "state_from_dict", None)
            if from_dict is not None and callable(getattr(state, "to_dict", None)):
                copied = from_dict(plain_state_tree(state.to_dict()))
            else:
                copied = state.copy()
            check = getattr(self.rules, "check_state", None)
            if check is not None:
                check(copied)
            if not self.rules.is_terminal(copied):
                seat = self.rules.current_player(copied)
                if not 0 <= seat < len(self.possible_agents):
                    raise ValueError(f"no player to act (current_player is {seat})")
                if not self._checked_mask(self.rules.legal_mask(copied)).any():
                    raise ValueError(f"player_{seat} has no legal action")
        except Exception as exc:  # noqa: BLE001  (any failure means a state we cannot play)
            raise StateError(f"set_game_state: refused ({rules_error(exc)})") from None
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self._start(copied)

    def clone(self, seed: int | None = None) -> TurnBasedAECEnv:
        """An independent copy of this env with the game in progress.

        Args:
            seed: ``None``: the copy's generator is a copy of this env's, so the clone
                **shares the future dice**: fed the same actions, it rolls the same dice and
                draws the same cards as this env will (a search over such clones sees this
                env's future chance outcomes). An int: the copy's generator is re-seeded with
                ``numpy.random.default_rng(seed)``, so its chance outcomes are its own.
        """
        import copy

        twin = copy.deepcopy(self)
        if seed is not None:
            twin._rng = np.random.default_rng(seed)
        return twin

    def close(self) -> None:
        """Close the window of ``render_mode="human"``, if one is open."""
        window = getattr(self, "_window", None)
        if window is not None:
            window.close()

    # -- internals ------------------------------------------------------------------------

    def _start(self, state: Any) -> None:
        """Begin a game at ``state`` (the setup after :meth:`reset`, any state after
        :meth:`set_game_state`): fresh PettingZoo bookkeeping, then the agent to act (and, for
        a finished game, the final rewards)."""
        self._state = state
        self._mask = None
        self._num_steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[0]
        self._after_transition()
        self._accumulate_rewards()

    def _after_transition(self) -> None:
        """Sets infos, and either the next agent or the end of the game, for ``_state``."""
        phase = self._set_infos()
        if self.rules.is_terminal(self._state):
            final = reward_for_mode(self.reward_mode, self.rules.scores(self._state))
            for agent in self.agents:
                self.rewards[agent] = float(final[self._seats[agent]])
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        elif self.max_steps is not None and self._num_steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        else:
            seat = self.rules.current_player(self._state)
            if not 0 <= seat < len(self.possible_agents):
                raise RuntimeError(
                    f"{self.rules.name}: current_player returned {seat} in phase '{phase}' "
                    "but the game is not over"
                )
            self.agent_selection = self.possible_agents[seat]

    def _set_infos(self) -> str:
        """The infos of every live agent for ``_state``; returns the phase name."""
        phase = self.rules.phase_name(self._state)
        info: dict[str, Any] = {"phase": phase}
        decision_name = getattr(self.rules, "decision_name", None)
        if decision_name is not None:
            info["decision"] = decision_name(self._state)
        for agent in self.agents:
            self.infos[agent] = dict(info)
        return phase

    def _is_to_act(self, agent: str) -> bool:
        return (
            agent == self.agent_selection
            and agent in self.terminations
            and not self.terminations[agent]
            and not self.truncations[agent]
        )

    def _legal_mask(self) -> np.ndarray:
        """The rules' legal mask of the current state, computed once per state (read-only)."""
        if self._mask is None:
            self._mask = self._checked_mask(self.rules.legal_mask(self._state))
        return self._mask

    def _checked_mask(self, mask: Any) -> np.ndarray:
        """A rules mask as a read-only boolean array of shape ``(layout.n,)``."""
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (self.rules.layout.n,):
            raise RuntimeError(
                f"{self.rules.name}: legal mask has shape {mask.shape}, "
                f"expected ({self.rules.layout.n},)"
            )
        mask.flags.writeable = False
        return mask

    def _validate(self, action: Any) -> int:
        """The action as a legal ``int`` id, or raise with a readable message."""
        action_id = self._action_id(action)
        mask = self._legal_mask()
        if not mask[action_id]:
            raise IllegalActionError(self._illegal_message(action_id, mask))
        return action_id

    def _action_id(self, action: Any) -> int:
        """The action as an ``int`` in ``[0, n)`` (legal or not), or raise naming it."""
        n = self.rules.layout.n
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise InvalidActionTypeError(
                f"action must be an int in [0, {n}), got {type(action).__name__} {action!r}"
            )
        action_id = int(action)
        if not 0 <= action_id < n:
            raise IllegalActionError(
                f"action id {action_id} out of range [0, {n}) for {self.agent_selection}"
            )
        return action_id

    def _illegal_message(self, action_id: int, mask: np.ndarray) -> str:
        legal = np.flatnonzero(mask)
        shown = ", ".join(f"{a}={self._describe(int(a))}" for a in legal[:_MAX_LEGAL_SHOWN])
        more = f", ... ({len(legal)} in all)" if len(legal) > _MAX_LEGAL_SHOWN else ""
        phase = self.rules.phase_name(self._state)
        return (
            f"illegal action {action_id} ({self._describe(action_id)}) for "
            f"{self.agent_selection} in phase '{phase}'; legal: {shown}{more}"
        )

    def _describe(self, action_id: int) -> str:
        """The view's name of an action, as the agent to act may read it."""
        viewer = self._seats[self.agent_selection]
        try:
            return self.view.action_name(self._state, action_id, viewer)
        except Exception:  # an error message must not fail on a view bug
            return self.rules.layout.describe(action_id)
