"""The Gymnasium entry points of ``primeval/PrimordialSoup-v1`` and ``primeval/Origin-v0``
(:func:`make`) and of the benchmark ids ``primeval/PrimordialSoup-vsZoo-v1`` and
``primeval/Origin-vsZoo-v0`` (:func:`make_vs_zoo`)."""

from __future__ import annotations

from typing import Any

from primeval.envs.games import get_game
from primeval.training.evaluate import agent_from_spec
from primeval.wrappers.single_agent import SingleAgentEnv


def make(game: str, num_players: int | None = None, opponent: str | list[str] = "random",
         obs_encoder: str = "flat", learner_seat: int | None = None, shaping: float = 0.0,
         render_mode: str | None = None, illegal_action: str = "lose",
         illegal_reward: float = -1.0, trust_checkpoint: bool = False,
         shaping_sources: dict[str, float] | None = None, shaping_others: float = 1.0,
         shaping_prospects: float = 0.0,
         **config_overrides: Any) -> SingleAgentEnv:
    """A single-agent env: the learner's seat (random per episode unless ``learner_seat``),
    the other seats played by ``opponent`` (one spec for all, or a list drawn from per seat
    and episode: ``random``, ``heuristic``, ``ppo:PATH``, a zoo member ``zoo:TASK/MEMBER``, or
    any spec of :func:`~primeval.training.agents.make_agent`).

    A masked-out action ends the episode with ``illegal_reward`` by default
    (``illegal_action="lose"``; or ``"random"``: a random legal action is played instead;
    ``"raise"``: ``IllegalActionError``); see :mod:`primeval.wrappers.single_agent`.
    ``shaping_sources`` weighs the sources of points in the shaped lead (Origin's, e.g.
    ``{"tiles": 2.0}``; :class:`~primeval.wrappers.single_agent.SingleAgentEnv`);
    ``shaping_others`` the weight of the others' mean in it (0: own points alone),
    ``shaping_prospects`` that of the learner's points in prospect (Origin's objectives in
    hand by progress).
    ``render_mode`` is ``"ansi"``, ``"human"`` or ``"rgb_array"``. ``trust_checkpoint``: load
    ``ppo:`` opponents that need unpickling (see :mod:`~.agents.checkpoint`)."""
    players = num_players or get_game(game).default_players
    specs = [opponent] if isinstance(opponent, str) else list(opponent)
    if not specs:
        raise ValueError("opponent: give at least one agent spec")
    agents = [agent_from_spec(spec, game, trust_checkpoint=trust_checkpoint) for spec in specs]
    aec = get_game(game).raw_env(players, obs_encoder=obs_encoder, render_mode=render_mode,
                   **config_overrides)
    check_opponents(agents, specs, aec, get_game(game).name, obs_encoder)
    return SingleAgentEnv(aec, opponents=agents if len(agents) > 1 else agents[0],
                          learner_seat=learner_seat, shaping=shaping,
                          shaping_sources=shaping_sources, shaping_others=shaping_others,
                          shaping_prospects=shaping_prospects,
                          illegal_action=illegal_action, illegal_reward=illegal_reward)


def check_opponents(agents: list[Any], specs: list[str], aec: Any, game: str,
                    obs_encoder: str) -> None:
    """Refuse, before the first game, an opponent checkpoint trained on another env: the
    game and player count of its saved env spec, then the observation shape and action
    count, as ``primeval evaluate`` checks them (the message names the spec). One trained on
    another encoder of the same game reads the states through its own encoder."""
    from primeval.training.agents.checkpoint import CheckpointError

    agent_id = aec.possible_agents[0]
    wanted = {"game": game, "players": len(aec.possible_agents), "encoder": obs_encoder}
    for spec, agent in zip(specs, agents, strict=True):
        try:
            if hasattr(agent, "check_env_spec"):
                agent.check_env_spec(wanted)
            if hasattr(agent, "check_spaces"):
                agent.check_spaces(aec.observation_space(agent_id)["observation"],
                                   aec.action_space(agent_id))
        except CheckpointError as exc:
            raise CheckpointError(f"opponent {spec!r} cannot play this env: {exc}") from None


def make_vs_zoo(game: str, task: str | None = None, obs_encoder: str = "flat",
                learner_seat: int | None = None, seed: int = 0,
                render_mode: str | None = None, illegal_action: str = "lose",
                illegal_reward: float = -1.0) -> SingleAgentEnv:
    """The entry point of ``primeval/PrimordialSoup-vsZoo-v1`` and ``primeval/Origin-vsZoo-v0``:
    a single-agent env whose other seats are the opponents of a benchmark task
    (:mod:`primeval.training.benchmark.tasks`; default the game's task at its default player
    count, ``soup-4p`` and ``origin-3p``), each seat drawn per episode from them, seeded
    ``seed + 1000 (j + 1)`` as in the task. The game's rules are the standard ones (no config
    overrides): a harness that only knows Gymnasium scores the task's conditions."""
    from primeval.training.benchmark.run import opponent_agents
    from primeval.training.benchmark.tasks import TASKS, get_task

    entry = get_game(game)
    if task is None:
        task = next(t.name for t in TASKS.values()
                    if t.game == entry.name and t.players == entry.default_players)
    chosen = get_task(task)
    if chosen.game != entry.name:
        tasks = [t.name for t in TASKS.values() if t.game == entry.name]
        raise ValueError(f"task {chosen.name} plays {chosen.game}, not {entry.name}; "
                         f"{entry.name}'s tasks are {', '.join(tasks)}")
    agents = opponent_agents(chosen, seed)
    aec = entry.raw_env(chosen.players, obs_encoder=obs_encoder, render_mode=render_mode)
    return SingleAgentEnv(aec, opponents=agents if len(agents) > 1 else agents[0],
                          learner_seat=learner_seat, illegal_action=illegal_action,
                          illegal_reward=illegal_reward)
