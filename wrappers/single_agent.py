"""A single-agent Gymnasium view of a primeval AEC environment.

The learner holds one seat (a random seat each episode by default); opponents (agents, or a
pool sampled each episode) act inside :meth:`SingleAgentEnv.step` until it is the learner's
turn again or the game is over. The reward is the learner's own. :meth:`action_masks`
exposes the learner's mask for sb3-contrib's ``MaskablePPO``, and every ``info`` carries it as
``info["action_mask"]`` (int8, as Gymnasium's Taxi and PettingZoo's observations do).

An action of the action space that the mask forbids is handled by ``illegal_action``:

* ``"lose"`` (default): the episode ends at once (``terminated``) with ``illegal_reward``
  (-1) for the learner and ``info["illegal_action"]`` set to the id, as the game's ``env()``
  (PettingZoo's ``TerminateIllegalWrapper``) ends it. Gymnasium's and SB3's ``check_env``,
  which step with ``action_space.sample()``, and unmasked learners so see a lost game.
* ``"random"``: a legal action drawn with the env's generator is played instead;
  ``info["illegal_action"]`` is the refused id and ``info["played_action"]`` the one played.
* ``"raise"``: ``IllegalActionError`` naming the action, the phase and the legal choices;
  nothing changes (for debugging a masked learner).

Anything outside the action space (a float, an id out of range) always raises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from primeval.envs.core.agents import Agent, RandomAgent, agent_action

OpponentSpec = Agent | Sequence[Agent] | Callable[[np.random.Generator], Agent]

#: The ``illegal_action`` policies of :class:`SingleAgentEnv` (see the module docstring).
ILLEGAL_ACTION_POLICIES = ("lose", "random", "raise")


def check_shaping(rules: Any, sources: Mapping[str, float] | None = None,
                  others: float = 1.0, prospects: float = 0.0) -> dict[str, float] | None:
    """The shaping weights of :class:`SingleAgentEnv` checked against the game's ``rules``
    (which only ``sources`` and ``prospects`` read): ``ValueError`` naming a weight that is not
    a finite number, a game without points by source or in prospect, or an unknown source.
    Returns ``sources`` completed to every source of ``rules.point_sources`` (1 where not
    named), or ``None`` when not given."""
    for name, value in (("shaping_others", others), ("shaping_prospects", prospects)):
        if not _finite(value):
            raise ValueError(f"{name}={value!r}: must be a finite number")
    if prospects and not hasattr(rules, "points_in_prospect"):
        raise ValueError(f"shaping_prospects: {rules.name} counts no points in prospect; "
                         "leave shaping_prospects at 0")
    if sources is None:
        return None
    if not isinstance(sources, Mapping):
        raise ValueError(f"shaping_sources={sources!r}: a mapping of source to weight")
    known = getattr(rules, "point_sources", None)
    if known is None:
        raise ValueError(f"shaping_sources: {rules.name} has no points by source "
                         "(only a score); leave shaping_sources out")
    for source, weight in sources.items():
        if source not in known:
            raise ValueError(f"shaping_sources: unknown source {source!r}; {rules.name} "
                             f"has {', '.join(known)}")
        if not _finite(weight):
            raise ValueError(f"shaping_sources.{source}={weight!r}: must be a finite number")
    return {source: float(sources.get(source, 1.0)) for source in known}


def _finite(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and bool(np.isfinite(value)))


class SingleAgentEnv(gymnasium.Env):
    """Gymnasium env over a primeval AEC env with the other seats played by opponents.

    Args:
        aec_env: A primeval AEC env (``primordial_soup_v1.raw_env(...)`` or ``env(...)``).
        opponents: One agent for every other seat, a list of agents (one is drawn per seat
            and episode: a pool), or a callable ``rng -> agent``. Default: random agents.
        learner_seat: A fixed seat, or ``None`` for a random seat each episode.
        shaping: Coefficient of potential-based reward shaping: each step adds
            ``shaping * (lead' - lead)`` where ``lead`` is the learner's score minus the mean
            of the others' scores (``rules.scores``). 0 (default) keeps the pure final reward.
        shaping_sources: Weights of the sources of points in that lead, for games whose
            rules give points by source (Origin: ``rules.point_sources``, e.g.
            ``{"tiles": 2.0}``); a source not named weighs 1, and the lead is then
            ``sum_s w_s * (own_s - mean of the others' _s)`` over
            ``rules.points_by_source`` (no tie-break). Still potential-based, so the
            game's optimal play is unchanged; it only says which points to learn first.
        shaping_others: Weight of the others' mean in that lead: 1 (default) the lead, 0
            the learner's own score alone (the opponents' scoring then adds nothing to the
            learner's reward until the final rank).
        shaping_prospects: Weight of the learner's points in prospect in that lead, for games
            whose rules count them (Origin's ``rules.points_in_prospect``: the objectives in
            hand, each by how much of its condition holds); only the learner's own, whose
            objectives it sees. 0 (default) counts only points scored.
        illegal_action: What a masked-out action of the action space does: ``"lose"``
            (default: the episode ends with ``illegal_reward``), ``"random"`` (a random legal
            action is played instead) or ``"raise"`` (``IllegalActionError``).
        illegal_reward: The learner's reward for an episode lost by an illegal action.
    """

    # The games' render modes; each instance copies its game's (render_fps included).
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(self, aec_env: Any, opponents: OpponentSpec | None = None,
                 learner_seat: int | None = None, shaping: float = 0.0,
                 illegal_action: str = "lose", illegal_reward: float = -1.0,
                 shaping_sources: Mapping[str, float] | None = None,
                 shaping_others: float = 1.0, shaping_prospects: float = 0.0) -> None:
        super().__init__()
        self.aec = aec_env
        self.game = aec_env.unwrapped
        agents = self.game.possible_agents
        if learner_seat is not None and not 0 <= learner_seat < len(agents):
            raise ValueError(f"learner_seat={learner_seat} is not a seat of {agents}")
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action={illegal_action!r}; choose one of "
                             f"{', '.join(map(repr, ILLEGAL_ACTION_POLICIES))}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        game_metadata = self.game.metadata
        self.metadata = {**type(self).metadata,
                         "render_modes": list(game_metadata["render_modes"]),
                         "render_fps": game_metadata.get("render_fps", 1)}
        self.fixed_seat = learner_seat
        _check_opponents(opponents)
        self.opponents = opponents if opponents is not None else RandomAgent()
        space = self.game.observation_space(agents[0])
        self.observation_space = space["observation"]
        self.action_space = self.game.action_space(agents[0])
        self.render_mode = self.game.render_mode
        self.learner = agents[0]
        self.seat_agents: dict[str, Agent] = {}
        self.shaping = float(shaping)
        self.shaping_sources = check_shaping(self.game.rules, shaping_sources, shaping_others,
                                             shaping_prospects)
        self.shaping_others = float(shaping_others)
        self.shaping_prospects = float(shaping_prospects)
        self._lead = 0.0
        self._reward = 0.0  # the learner's reward collected in the step under way
        self._illegal: dict[str, int] = {}  # info about an illegal action of this step
        self._forfeited = False  # the episode was lost by an illegal action

    # Opponents ------------------------------------------------------------------------------

    def _draw_opponent(self) -> Agent:
        spec = self.opponents
        if isinstance(spec, Sequence) and not isinstance(spec, str):
            return spec[int(self.np_random.integers(len(spec)))]
        if callable(spec) and not hasattr(spec, "act"):
            return spec(self.np_random)
        return spec  # one agent for every seat

    def opponent_to_act(self) -> tuple[str, Agent] | None:
        """The next opponent decision before the learner's turn, as ``(agent name, agent)``
        (finished agents are stepped out on the way); ``None`` once the learner is to act or
        the game is over. Answer it with :meth:`apply_opponent_action`: a loop over many
        envs can so gather the decisions of several games and answer them together."""
        game = self.game
        while game.agents and game.agent_selection != self.learner:
            agent = game.agent_selection
            if not (game.terminations[agent] or game.truncations[agent]):
                return agent, self.seat_agents[agent]
            self.aec.step(None)
            self._reward += float(game.rewards.get(self.learner, 0.0))
        return None

    def apply_opponent_action(self, action: int) -> None:
        """Play ``action`` for the opponent that :meth:`opponent_to_act` named."""
        self.aec.step(action)
        self._reward += float(self.game.rewards.get(self.learner, 0.0))

    def _play_opponents(self) -> None:
        """Let the other seats act until the learner must act or the game ends."""
        while (pending := self.opponent_to_act()) is not None:
            name, agent = pending
            self.apply_opponent_action(agent_action(agent, self.game, name))

    def _done(self) -> tuple[bool, bool]:
        game = self.game
        if self._forfeited or self.learner not in game.agents:
            return True, False
        terminated = bool(game.terminations[self.learner])
        # PettingZoo's TerminateIllegalWrapper sets both flags; the game did end: terminated.
        return terminated, bool(game.truncations[self.learner]) and not terminated

    # Gymnasium API ---------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self.reset_game(seed=seed)
        self._play_opponents()
        return self.finish_reset()

    def reset_game(self, *, seed: int | None = None) -> None:
        """The first part of :meth:`reset`: a new game, the learner's seat and the
        opponents drawn. Then the opponents before the learner act (:meth:`opponent_to_act`),
        then :meth:`finish_reset` gives what ``reset`` returns."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31 - 1))
        self.aec.reset(seed=game_seed)
        agents = self.game.possible_agents
        seat = (self.fixed_seat if self.fixed_seat is not None
                else int(self.np_random.integers(len(agents))))
        self.learner = agents[seat]
        self.seat_agents = {a: self._draw_opponent() for a in agents if a != self.learner}
        for agent in self.seat_agents.values():
            if hasattr(agent, "seed"):
                agent.seed(int(self.np_random.integers(2**31 - 1)))
        self._reward = 0.0
        self._illegal = {}
        self._forfeited = False

    def finish_reset(self):
        """``(observation, info)`` of the reset, once no opponent is left to act."""
        self.finish_reset_result()
        return self._observation(), self._info()

    def finish_reset_result(self) -> None:
        """:meth:`finish_reset` without building its observation and info (a vector env
        encodes the observation into its own buffer)."""
        self._lead = self._score_lead()

    def step(self, action):
        self.step_learner(action)
        self._play_opponents()
        return self.finish_step()

    def step_learner(self, action) -> None:
        """The first part of :meth:`step`: the learner's action alone. Then the opponents
        act (:meth:`opponent_to_act`), then :meth:`finish_step` gives what ``step`` returns."""
        terminated, truncated = self._done()
        if terminated or truncated:
            raise RuntimeError("step() called after the episode ended; call reset()")
        self._illegal = {}
        mask = self.game.action_mask(self.learner, dtype=bool)
        action_id = _action_id(action, mask.size)
        if action_id is None or (self.illegal_action == "raise" and not mask[action_id]):
            self.game.step(action)  # the raw env refuses it, naming it; nothing changes
            raise AssertionError(f"the env accepted the refused action {action!r}")
        if not mask[action_id]:
            self._illegal["illegal_action"] = action_id
            if self.illegal_action == "lose":
                self._forfeited = True
                self._reward = self.illegal_reward
                return
            legal = np.flatnonzero(mask)
            action_id = int(legal[self.np_random.integers(legal.size)])
            self._illegal["played_action"] = action_id
        self.aec.step(action_id)
        self._reward = float(self.game.rewards.get(self.learner, 0.0))

    def finish_step(self):
        """``(observation, reward, terminated, truncated, info)`` of the step, once no
        opponent is left to act."""
        reward, terminated, truncated = self.step_result()
        return self._observation(), reward, terminated, truncated, self._info()

    def step_result(self) -> tuple[float, bool, bool]:
        """``(reward, terminated, truncated)`` of :meth:`finish_step`, without building its
        observation and info (a vector env encodes the observation into its own buffer,
        and needs the info only of a game that ended)."""
        reward = self._reward
        if self.shaping:
            lead = self._score_lead()
            reward += self.shaping * (lead - self._lead)
            self._lead = lead
        terminated, truncated = self._done()
        return reward, terminated, truncated

    def _score_lead(self) -> float:
        if not self.shaping:
            return 0.0
        lead = self._sources_lead() if self.shaping_sources is not None else self._lead_of(
            self.game.rules.scores(self.game.game_state))
        if self.shaping_prospects:
            prospects = self.game.rules.points_in_prospect(self.game.game_state)
            lead += self.shaping_prospects * prospects[self._seat]
        return lead

    def _lead_of(self, scores: Sequence[float]) -> float:
        seat = self._seat
        others = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - self.shaping_others * sum(others) / len(others))

    def _sources_lead(self) -> float:
        """The lead with ``shaping_sources``' weights on each source of points."""
        points = self.game.rules.points_by_source(self.game.game_state)
        seat = self._seat
        n_others = len(points) - 1
        lead = 0.0
        for source, weight in self.shaping_sources.items():
            others = sum(p[source] for i, p in enumerate(points) if i != seat)
            lead += weight * (points[seat][source] - self.shaping_others * others / n_others)
        return lead

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all False when it is not to act, as once the episode
        is over: the env's own mask)."""
        if self._forfeited:
            return np.zeros(self.action_space.n, dtype=bool)
        if not self.seat_agents:
            raise gymnasium.error.ResetNeeded("action_masks() before reset(): call reset()")
        return self.game.action_mask(self.learner, dtype=bool)

    @property
    def _seat(self) -> int:
        return self.game.possible_agents.index(self.learner)

    def _observation(self) -> np.ndarray:
        """The learner's observation, also once the game is over (no mask needed)."""
        return self.game.obs_encoder.encode(self.game.game_state, self._seat)

    def _info(self) -> dict[str, Any]:
        seat = self._seat
        mask = (np.zeros(self.action_space.n, dtype=np.int8) if self._forfeited
                else self.game.action_mask(self.learner))
        info: dict[str, Any] = {"seat": seat, "action_mask": mask, **self._illegal}
        if not self._forfeited and self.game.rules.is_terminal(self.game.game_state):
            scores = self.game.rules.scores(self.game.game_state)
            info["scores"] = scores
            info["rank"] = 1 + sum(s > scores[seat] for s in scores)
            info["win"] = info["rank"] == 1
            info["opponents"] = {self.game.possible_agents.index(name): getattr(agent, "name", "")
                                 for name, agent in self.seat_agents.items()}
        return info

    def render(self):
        return self.game.render()

    def close(self) -> None:
        self.aec.close()


def _check_opponents(spec: Any) -> None:
    """Refuse what is no opponent spec (a name such as ``"heuristic"``, an empty pool, a
    pool member without ``act``), naming it, before the first game."""
    what = ("opponents must be an agent (with act), a list of agents or a callable "
            "rng -> agent")
    if spec is None:
        return
    if isinstance(spec, str):
        raise TypeError(f"{what}, got the string {spec!r}; build agents from names with "
                        "primeval.training.agents.make_agent")
    if isinstance(spec, Sequence):
        if not spec:
            raise ValueError(f"{what}; got an empty list")
        for member in spec:
            if not hasattr(member, "act"):
                raise TypeError(f"{what}; the list holds {member!r}, which has no act")
    elif not hasattr(spec, "act") and not callable(spec):
        raise TypeError(f"{what}, got {spec!r}")


def _action_id(action: Any, n: int) -> int | None:
    """``action`` as an id of ``Discrete(n)``, or ``None`` if it is none (not an integer, or
    out of range): such an action is no move of the game at all and always raises."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        return None
    return int(action) if 0 <= action < n else None


class ExposeActionMasks(gymnasium.Wrapper, gymnasium.utils.RecordConstructorArgs):
    """``action_masks()`` on the outermost wrapper, as the Gymnasium ids add it.

    Gymnasium 1.x wrappers forward no attributes, so ``gymnasium.make(id).action_masks()``
    needs a wrapper that has the method; the ids list this one in ``additional_wrappers``,
    which ``gymnasium.make`` applies last. Through any further wrappers,
    ``env.get_wrapper_attr("action_masks")()`` finds it (as sb3-contrib's
    ``get_action_masks`` and SB3's ``VecEnv.env_method`` do).
    """

    def __init__(self, env: gymnasium.Env) -> None:
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)
        self._action_masks = env.get_wrapper_attr("action_masks")

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (see :meth:`SingleAgentEnv.action_masks`)."""
        return self._action_masks()
