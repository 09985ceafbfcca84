"""Seat-rotated tournaments between agents, with win rates, ranks, scores and ratings.

``primeval evaluate --game primordial_soup --players 4 --agents ppo:runs/x/model.zip
heuristic random random --games 400 --seed 0 [--json out.json] [--record games.jsonl]``

With ``record`` every game is written as one JSON line (see :func:`game_record`); ``primeval
replay`` plays such a line again.

``--duplicate`` (both commands; :func:`play_game`'s ``duplicate``) plays duplicate games:
each seed is played once per seat rotation of the same agents with the same chance outcomes
(:class:`~primeval.envs.core.chance.DuplicateChance`), so that the luck of the deal and the
dice cancels across seats (``docs/benchmark.md`` measures what it buys).

``primeval league runs/a/model.zip runs/b/model.zip heuristic random --game origin
--games 300`` plays a round robin among any number of agents (:func:`round_robin`) and
prints the leaderboard with OpenSkill ratings (:func:`leaderboard`; ``--json``, ``--markdown``
write it to files).
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.games import get_game, make_raw_env
from primeval.training.agents import Agent, agent_action, make_agent, turns


@dataclass
class AgentResult:
    name: str
    games: int = 0
    wins: float = 0.0
    ranks: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    #: The share of the win of each game, in order (1, 0, or 1/k in a k-way tie for first).
    win_shares: list[float] = field(default_factory=list)
    rating_mu: float = 0.0
    rating_sigma: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @classmethod
    def pooled(cls, summaries: list[dict[str, Any]], name: str = "pooled") -> AgentResult:
        """One agent's reports pooled from their :meth:`summary` rows (a held-out report's
        ``agents`` entries, say): games and wins added up, so :meth:`win_interval` is the
        pooled Wilson interval."""
        return cls(name, games=sum(a["games"] for a in summaries),
                   wins=sum(a["win_rate"] * a["games"] for a in summaries))

    def win_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of the win rate (95% by default)."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        # Clamp (and round off float error) so that lo <= p <= hi always holds.
        return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))

    def summary(self) -> dict[str, Any]:
        lo, hi = self.win_interval()
        return {
            "agent": self.name, "games": self.games, "win_rate": self.win_rate,
            "win_rate_ci95": [lo, hi], "mean_rank": float(np.mean(self.ranks)),
            "mean_score": float(np.mean(self.scores)),
            "rating": {"mu": self.rating_mu, "sigma": self.rating_sigma,
                       "ordinal": self.rating_mu - 3 * self.rating_sigma},
        }


def ranks_of(scores: list[float]) -> list[float]:
    """Rank per seat (1 = best); ties share the average of their places."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def play_game(env, seat_agents: list[Agent], seed: int,
              actions: list[int] | None = None, duplicate: bool = False) -> list[float]:
    """One game; returns the final scores per seat.

    Args:
        actions: If given, every action taken (in order, without the ``None`` steps of
            finished agents) is appended to it, so ``reset(seed=seed)`` and these actions
            replay the game.
        duplicate: Fix chance per event by ``seed`` (:class:`DuplicateChance`, its context
            the acting seat): every game with this seed has the same deal, and the same
            ``k``-th die, card or tile of each kind in each seat's steps as far as play lets
            them. (``use_chance`` on the env; ``False`` gives chance back to the env's
            generator.)
    """
    from primeval.envs.core.chance import DuplicateChance

    game = env.unwrapped
    source = DuplicateChance(seed) if duplicate else None
    game.use_chance(source)
    env.reset(seed=seed)
    for seat, agent_name in turns(game):
        action = agent_action(seat_agents[seat], game, agent_name)
        if source is not None:
            source.context = seat  # the luck of a step is the acting seat's
        game.step(action)
        if actions is not None:
            actions.append(int(action))
    return game.rules.scores(game.game_state)


def check_agents(agents: list[Any], env: Any, game: str, players: int,
                 env_kwargs: dict[str, Any]) -> None:
    """Refuse agents that cannot play ``env`` (checkpoints of another game, player count or
    action space, named); a checkpoint of another encoder of the same game is told to
    encode the states itself (:meth:`~primeval.training.agents.policy.PolicyAgent.
    check_env_spec`)."""
    space = env.observation_space(env.possible_agents[0])["observation"]
    wanted = {"game": get_game(game).name, "players": players,
              "encoder": env_kwargs.get("obs_encoder", "flat")}
    for agent in agents:
        if hasattr(agent, "check_env_spec"):  # a checkpoint's saved env, named if it differs
            agent.check_env_spec(wanted)
        if hasattr(agent, "check_spaces"):
            agent.check_spaces(space, env.action_space(env.possible_agents[0]))


def count_game(results: list[AgentResult], ratings: list, model: Any,
               seat_of: dict[int, int], scores: list[float]) -> None:
    """Count one game: agent ``i`` (a key of ``seat_of``) sat in seat ``seat_of[i]``; its
    result gets the game, its rank, score and share of the win, and ``ratings[i]`` its
    OpenSkill update (``model.rate``, the agents in ``seat_of``'s order)."""
    ranks = ranks_of(scores)
    best = min(ranks)
    winners = sum(r == best for r in ranks)
    for i, seat in seat_of.items():
        res = results[i]
        res.games += 1
        res.ranks.append(ranks[seat])
        res.scores.append(scores[seat])
        share = 1.0 / winners if ranks[seat] == best else 0.0
        res.wins += share
        res.win_shares.append(share)
    players = list(seat_of)
    new = model.rate([[ratings[i]] for i in players], ranks=[ranks[seat_of[i]] for i in players])
    for i, (rating,) in zip(players, new, strict=True):
        ratings[i] = rating


def game_record(env, agents_by_seat: list[str], seed: int, actions: list[int],
                scores: list[float], duplicate: bool = False) -> dict[str, Any]:
    """One game as a JSON-ready dict: ``game``, ``players``, ``config`` (the rules config's
    ``to_dict()``), ``max_steps`` (the env's truncation limit), ``seed``, ``agents`` (by seat),
    ``actions`` and ``scores`` (and ``"chance": "duplicate"`` for a duplicate game).
    ``primeval replay`` rebuilds the game from it."""
    game = env.unwrapped
    extra = {"chance": "duplicate"} if duplicate else {}
    return {**extra,
        "game": game.rules.name,
        "players": len(game.possible_agents),
        "config": game.rules.config.to_dict(),
        "max_steps": game.max_steps,
        "seed": seed,
        "agents": list(agents_by_seat),
        "actions": [int(a) for a in actions],
        "scores": [float(x) for x in scores],
    }


#: ``evaluate --seeds K`` plays seed ``seed + SEED_STRIDE * k`` for ``k < K``: games and
#: agents of one seed never share a seed with another's (games ``seed + g``, agents
#: ``seed + 1000 i``, for fewer than a million games).
SEED_STRIDE = 1_000_000


def evaluation_seeds(seed: int, count: int) -> list[int]:
    """The ``count`` independent evaluation seeds that start at ``seed``."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"seeds must be a whole number of at least 1, got {count!r}")
    return [seed + SEED_STRIDE * k for k in range(count)]


def pool_results(per_seed: list[list[AgentResult]]) -> list[AgentResult]:
    """One result per agent over the games of every seed's tournament (same agents, same
    order): games, wins, ranks and scores added up, so the win-rate interval is the pooled
    one; the OpenSkill rating is rated afresh over all the games, seed by seed in order."""
    from openskill.models import PlackettLuce

    if not per_seed:
        raise ValueError("no results to pool")
    names = [r.name for r in per_seed[0]]
    if any([r.name for r in results] != names for results in per_seed):
        raise ValueError("pooled tournaments must have the same agents in the same order")
    pooled = [AgentResult(name) for name in names]
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in names]
    for results in per_seed:
        for mine, theirs in zip(pooled, results, strict=True):
            mine.games += theirs.games
            mine.wins += theirs.wins
            mine.ranks += theirs.ranks
            mine.scores += theirs.scores
            mine.win_shares += theirs.win_shares
        for g in range(results[0].games):
            new = model.rate([[rating] for rating in ratings],
                             ranks=[r.ranks[g] for r in results])
            ratings = [rating for (rating,) in new]
    for res, rating in zip(pooled, ratings, strict=True):
        res.rating_mu, res.rating_sigma = float(rating.mu), float(rating.sigma)
    return pooled


def zoo_spec(spec: str) -> str:
    """``spec``, or for ``zoo:TASK/MEMBER`` (a member of the shipped reference zoo,
    :mod:`primeval.training.benchmark.zoo`) the spec that plays it: a shipped file's path
    inside the package, or heuristic/mcts settings."""
    if isinstance(spec, str) and spec.startswith("zoo:"):
        from primeval.training.benchmark.zoo import get_member

        return get_member(spec).agent_spec()
    return spec


def zoo_env_spec(spec: str) -> dict[str, Any] | None:
    """The game and player count of a zoo member's task (``None`` for another spec)."""
    if not (isinstance(spec, str) and spec.startswith("zoo:")):
        return None
    from primeval.training.benchmark.tasks import TASKS
    from primeval.training.benchmark.zoo import get_member

    task = TASKS[get_member(spec).task]
    return {"game": task.game, "players": task.players}


def agent_from_spec(spec: str, game: str, seed: int | None = None,
                    trust_checkpoint: bool = False) -> Agent:
    """:func:`make_agent`, and members of the reference zoo by name (``zoo:soup-4p/ppo``)."""
    return make_agent(zoo_spec(spec), game, seed=seed, trust_checkpoint=trust_checkpoint)


def tournament(game: str, num_players: int, agent_specs: list[str], games: int,
               seed: int = 0, progress: bool = False, record: str | Path | None = None,
               trust_checkpoint: bool = False, duplicate: bool = False,
               record_append: bool = False, **env_kwargs: Any) -> list[AgentResult]:
    """Play ``games`` games between agents named by spec (see :func:`make_agent`;
    ``trust_checkpoint`` as it takes it).

    ``record``, ``duplicate``, ``record_append``: see :func:`play_tournament`.
    """
    if len(agent_specs) != num_players:
        raise ValueError(f"{num_players} players need {num_players} agents, got "
                         f"{len(agent_specs)}: {agent_specs}")
    agents = [agent_from_spec(spec, game, seed=seed + 1000 * i,
                              trust_checkpoint=trust_checkpoint)
              for i, spec in enumerate(agent_specs)]
    return play_tournament(game, num_players, agents, _labels(agent_specs), games, seed,
                           progress, record=record, record_agents=agent_specs,
                           duplicate=duplicate, record_append=record_append, **env_kwargs)


def play_tournament(game: str, num_players: int, agents: list[Agent], labels: list[str],
                    games: int, seed: int = 0, progress: bool | str = False,
                    record: str | Path | None = None, record_agents: list[str] | None = None,
                    duplicate: bool = False, record_append: bool = False,
                    **env_kwargs: Any) -> list[AgentResult]:
    """Play ``games`` games; agent ``i`` takes seat ``(i + g) % n`` in game ``g``. A policy
    network decides one position at a time, so torch (when loaded) runs on one thread here:
    more threads only wait on each other, and on a busy machine cost many times the time.

    Args:
        progress: Show a progress bar (tqdm), labelled with this text if it is one
            (``True``: "evaluate").
        record: If given, this file is overwritten with one JSON line per game, in order
            (see :func:`game_record`).
        record_append: Add the records to the end of ``record`` instead of overwriting it
            (``evaluate --seeds K`` writes its seeds' games to one file).
        record_agents: The names written in the records' ``agents`` (per agent, default
            ``labels``); :func:`tournament` passes the specs.
        duplicate: Duplicate games: game ``g`` uses seed ``seed + g // n`` with chance fixed
            per event (:func:`play_game`), so each seed is played in the ``n`` seat
            rotations with the same deal and dice (give a multiple of ``n`` games). Without
            it game ``g`` uses seed ``seed + g``.
    """
    from openskill.models import PlackettLuce

    _check_blocks(games, num_players, duplicate)
    env = make_raw_env(game, num_players, **env_kwargs)
    check_agents(agents, env, game, num_players, env_kwargs)
    results = [AgentResult(label) for label in labels]
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    names = list(record_agents if record_agents is not None else labels)
    out = (open(record, "a" if record_append else "w", encoding="utf-8")  # noqa: SIM115
           if record is not None else None)
    threads = contextlib.ExitStack()
    if "torch" in sys.modules:
        from primeval.training.ppo.torch_runtime import torch_threads

        threads.enter_context(torch_threads(1))
    try:
        iterator = range(games)
        if progress:
            from tqdm import tqdm

            label = progress if isinstance(progress, str) else "evaluate"
            iterator = tqdm(iterator, desc=label, unit="game")
        for g in iterator:
            seats = [(i + g) % num_players for i in range(num_players)]
            seat_agents: list[Agent] = [None] * num_players  # type: ignore[list-item]
            for i, seat in enumerate(seats):
                seat_agents[seat] = agents[i]
            actions: list[int] | None = [] if out is not None else None
            game_seed = seed + (g // num_players if duplicate else g)
            scores = play_game(env, seat_agents, seed=game_seed, actions=actions,
                               duplicate=duplicate)
            if out is not None:
                by_seat = [""] * num_players
                for i, seat in enumerate(seats):
                    by_seat[seat] = names[i]
                out.write(json.dumps(game_record(env, by_seat, game_seed, actions, scores,
                                                 duplicate)) + "\n")
                out.flush()
            count_game(results, ratings, model, dict(enumerate(seats)), scores)
    finally:
        threads.close()
        if out is not None:
            out.close()
    for res, rating in zip(results, ratings, strict=True):
        res.rating_mu, res.rating_sigma = float(rating.mu), float(rating.sigma)
    return results


def round_robin(game: str, agent_specs: list[str], games: int, seed: int = 0,
                num_players: int | None = None, progress: bool = False,
                trust_checkpoint: bool = False, duplicate: bool = False,
                on_game: Any = None, **env_kwargs: Any) -> list[AgentResult]:
    """A league: ``games`` games among any number of agents (at least one per seat), with
    OpenSkill ratings (Plackett-Luce over the final ranks).

    Game ``g`` seats the ``n``-agent lineup ``g mod L`` of the ``L`` combinations of
    agents, in order, rotated by ``g div L`` seats: every lineup is played, and in every
    lineup each agent takes every seat in turn. Agent ``i`` is seeded ``seed + 1000 i``;
    game ``g`` uses seed ``seed + g``.

    ``duplicate``: games come in blocks of ``n``: block ``b = g div n`` seats lineup
    ``b mod L`` rotated by ``g mod n`` seats, all with seed ``seed + b`` and chance fixed
    per event (:func:`play_game`), so each lineup meets the same deal and dice in every
    rotation.

    ``on_game(by_seat, scores)``, if given, is called after every game with the agents'
    indices by seat and the scores by seat (the benchmark's head-to-head matrix reads it).

    Returns:
        One result per agent, in the order given (see :func:`leaderboard` for the table).
    """
    from itertools import combinations

    from openskill.models import PlackettLuce

    n = num_players or get_game(game).default_players
    _check_blocks(games, n, duplicate)
    if len(agent_specs) < n:
        raise ValueError(f"a league of {n}-player games needs at least {n} agents, got "
                         f"{len(agent_specs)}: {agent_specs} (repeat a spec to fill seats)")
    agents = [agent_from_spec(spec, game, seed=seed + 1000 * i,
                              trust_checkpoint=trust_checkpoint)
              for i, spec in enumerate(agent_specs)]
    labels = _labels(agent_specs)
    env = make_raw_env(game, n, **env_kwargs)
    check_agents(agents, env, game, n, env_kwargs)
    lineups = list(combinations(range(len(agents)), n))
    results = [AgentResult(label) for label in labels]
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    iterator = range(games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc="league", unit="game")
    for g in iterator:
        if duplicate:
            lineup, shift, game_seed = lineups[(g // n) % len(lineups)], g % n, seed + g // n
        else:
            lineup, shift = lineups[g % len(lineups)], (g // len(lineups)) % n
            game_seed = seed + g
        by_seat = [lineup[(seat - shift) % n] for seat in range(n)]
        scores = play_game(env, [agents[i] for i in by_seat], seed=game_seed,
                           duplicate=duplicate)
        count_game(results, ratings, model, {i: seat for seat, i in enumerate(by_seat)},
                   scores)
        if on_game is not None:
            on_game(list(by_seat), list(scores))
    for res, rating in zip(results, ratings, strict=True):
        res.rating_mu, res.rating_sigma = float(rating.mu), float(rating.sigma)
    return results


def _check_blocks(games: int, players: int, duplicate: bool) -> None:
    """Duplicate games come in blocks of one seed per seat rotation: a part block would
    give some agents a seat's luck the others never get."""
    if duplicate and games % players:
        raise ValueError(f"duplicate games come in blocks of {players} (one seed, every seat "
                         f"rotation): give a multiple of {players} games, not {games}")


def leaderboard(results: list[AgentResult]) -> str:
    """The results as a Markdown table, best rating (``mu - 3 sigma``) first."""
    lines = ["| rank | agent | games | win rate | 95% CI | mean rank | mean score | rating "
             "(mu ± sigma) | ordinal |", "|---|---|---|---|---|---|---|---|---|"]
    ordered = sorted(results, key=lambda r: -(r.rating_mu - 3 * r.rating_sigma))
    for place, r in enumerate(ordered, start=1):
        s = r.summary()
        lo, hi = s["win_rate_ci95"]
        lines.append(f"| {place} | {r.name} | {r.games} | {s['win_rate']:.3f} | "
                     f"[{lo:.3f}, {hi:.3f}] | {s['mean_rank']:.2f} | {s['mean_score']:.1f} | "
                     f"{r.rating_mu:.1f} ± {r.rating_sigma:.1f} | "
                     f"{s['rating']['ordinal']:.1f} |")
    return "\n".join(lines)


def _labels(specs: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if specs.count(spec) == 1 else f"{spec}#{seen[spec]}")
    return labels


def format_table(results: list[AgentResult]) -> str:
    lines = [f"{'agent':<34} {'games':>5} {'win rate':>9} {'95% CI':>15} {'mean rank':>9} "
             f"{'mean score':>10} {'rating':>14}"]
    for r in results:
        s = r.summary()
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"{r.name[:34]:<34} {r.games:>5} {s['win_rate']:>9.3f} "
            f"{f'[{lo:.3f}, {hi:.3f}]':>15} {s['mean_rank']:>9.2f} {s['mean_score']:>10.2f} "
            f"{f'{r.rating_mu:.1f}±{r.rating_sigma:.1f}':>14}"
        )
    return "\n".join(lines)


def report(game: str, num_players: int, results: list[AgentResult], seed: int) -> dict:
    return {"game": game, "players": num_players, "seed": seed,
            "games": results[0].games if results else 0,
            "agents": [r.summary() for r in results]}


def write_json(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)


__all__ = ["SEED_STRIDE", "AgentResult", "agent_from_spec", "evaluation_seeds", "format_table", "leaderboard",
           "play_tournament", "pool_results", "round_robin", "tournament"]
