"""The league of a training run: who plays the other seats, and how everyone is rated.

Members are random players, the game's heuristic bot, and the snapshots of the policy saved
during the run (``snapshots/step_<N>.zip``). For every seat of every episode the league
draws an opponent kind by the weights in force at that step (``opponents`` and
``league.schedule``); a self-play draw is the policy being trained itself (shared by every
game, so its decisions are answered in batches) with probability ``league.current``, and
otherwise one of the latest snapshots, weighed by prioritised fictitious self-play (PFSP,
as in AlphaStar's league): the snapshots the learner still loses to come most.

The league learns those chances from the training games: after each episode it counts, for
every snapshot that played, whether the learner finished ahead of it. Its OpenSkill ratings
(Plackett-Luce) are updated by rating games at every evaluation, between the current policy
(saved as a snapshot first) and members of the league. Everything is saved in
``league.json`` beside the checkpoint, so ``--resume`` continues the same league.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from primeval.training.agents import Agent, RandomAgent, make_heuristic
from primeval.training.agents.policy import PolicyAgent
from primeval.training.files import atomic_json

#: The opponent kinds of the weights, in order.
KINDS = ("random", "heuristic", "self_play")
#: The name of the policy being trained among the opponents.
CURRENT = "current"


@dataclass
class Member:
    """One member of the league and what is known of it.

    Attributes:
        name: ``random``, ``heuristic`` or ``step_<N>`` (a snapshot).
        path: The snapshot file, relative to the run folder (``None`` for the others).
        step: The env step of a snapshot (``-1`` for the others).
        games: Training episodes in which it played against the learner.
        behind: In how many of them the learner finished ahead of it (ties count a half).
        mu, sigma: Its OpenSkill rating.
    """

    name: str
    path: str | None = None
    step: int = -1
    games: int = 0
    behind: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def ordinal(self) -> float:
        """The rating's conservative value, ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def learner_ahead(self) -> float:
        """The chance that the learner finishes ahead of this member, with a uniform prior
        (one win and one loss)."""
        return (self.behind + 1.0) / (self.games + 2.0)


def inside_run(run_dir: Path, relative: Any, what: str) -> Path:
    """``run_dir / relative``, refused unless ``relative`` is a relative path that stays
    inside ``run_dir`` (no ``..`` out of it, no absolute path, no link leading outside).

    Raises:
        ValueError: Naming ``what`` and the path.
    """
    if not isinstance(relative, str) or not relative or "\x00" in relative:
        raise ValueError(f"{what}: its path {str(relative)[:200]!r} is not a relative path")
    rel = Path(relative)
    if rel.is_absolute() or rel.drive or rel.root:
        raise ValueError(f"{what}: its path {relative[:200]!r} is absolute; snapshot paths "
                         "are relative to the run folder")
    if ".." in rel.parts:
        raise ValueError(f"{what}: its path {relative[:200]!r} climbs out of the run folder "
                         "(..)")
    base = Path(run_dir).resolve()
    target = (base / rel).resolve()
    if not target.is_relative_to(base):
        raise ValueError(f"{what}: its path {relative[:200]!r} leads outside the run folder "
                         f"(to {target})")
    return Path(run_dir) / rel


def snapshot_spec(config: Any) -> dict[str, Any]:
    """The env spec a run's snapshots must carry (the keys that a config names)."""
    return {"game": config.game, "players": config.players, "encoder": config.encoder,
            "env": dict(config.env)}


def pfsp_weights(chances: np.ndarray, mode: str, power: float) -> np.ndarray:
    """Weights of the snapshots, summing to one, from the learner's chances of finishing
    ahead of each: ``hard`` ``(1 - p)^power``, ``even`` ``(p (1 - p))^power``, ``uniform``."""
    chances = np.asarray(chances, dtype=float)
    if mode == "hard":
        raw = (1.0 - chances) ** power
    elif mode == "even":
        raw = (chances * (1.0 - chances)) ** power
    elif mode == "uniform":
        raw = np.ones_like(chances)
    else:
        raise ValueError(f"unknown PFSP mode {mode!r}")
    total = raw.sum()
    return raw / total if total > 0 else np.full(len(chances), 1.0 / len(chances))


@contextlib.contextmanager
def global_generators_kept() -> Iterator[None]:
    """Within the block, whatever reseeds or draws from the global generators (loading a
    model does both: SB3 seeds ``random``, ``numpy.random`` and torch with the saved seed,
    and building the policy draws its initial weights) leaves them as they were. Training
    draws from them (SB3 shuffles its minibatches with ``numpy.random``), so a snapshot
    loaded mid-run must not change what training does next."""
    import random

    import torch

    py_state, np_state = random.getstate(), np.random.get_state()
    with torch.random.fork_rng(devices=[]):
        try:
            yield
        finally:
            random.setstate(py_state)
            np.random.set_state(np_state)


class League:
    """The members, the opponent draws and the ratings of one run (see the module docstring).

    Args:
        config: The run's :class:`~primeval.training.ppo.config.TrainConfig`.
        run_dir: The run folder (snapshot paths are relative to it).
        current: The policy being trained, as an agent (``PolicyAgent.from_model``), or
            ``None`` until :meth:`set_current` gives it.
        trust_checkpoint: Load snapshots that need unpickling (see
            :mod:`~primeval.training.agents.checkpoint`); by default nothing is unpickled.
    """

    def __init__(self, config: Any, run_dir: str | Path, current: Agent | None = None,
                 trust_checkpoint: bool = False) -> None:
        self.config = config
        self.run_dir = Path(run_dir)
        self.trust_checkpoint = trust_checkpoint
        self.step = 0
        self.members: dict[str, Member] = {"random": Member("random"),
                                           "heuristic": Member("heuristic")}
        for spec in config.league.rated:  # rated, never drawn as opponents
            self.members[spec] = Member(spec)
        self.current = current
        self._loaded: dict[str, PolicyAgent] = {}

    # -- members ---------------------------------------------------------------------------

    def set_current(self, agent: Agent) -> None:
        """The policy being trained, as self-play opponents play it."""
        agent.name = CURRENT
        self.current = agent

    def add_snapshot(self, step: int, path: Path) -> Member:
        """A new snapshot member, rated as the current policy is (it is the same policy)."""
        name = f"step_{step}"
        member = Member(name, path=str(Path(path).relative_to(self.run_dir)), step=step)
        latest = self.latest_snapshot()
        if latest is not None:  # the new snapshot starts from its predecessor's rating
            member.mu, member.sigma = latest.mu, latest.sigma
        self.members[name] = member
        return member

    def snapshots(self) -> list[Member]:
        """Every snapshot, oldest first."""
        return sorted((m for m in self.members.values() if m.path is not None),
                      key=lambda m: m.step)

    def latest_snapshot(self) -> Member | None:
        snapshots = self.snapshots()
        return snapshots[-1] if snapshots else None

    def drawable_snapshots(self) -> list[Member]:
        """The ``self_play.keep`` latest snapshots, the ones opponents are drawn from."""
        return self.snapshots()[-self.config.self_play.keep:]

    def snapshot_path(self, member: Member) -> Path:
        """The file of a snapshot member, checked to be inside the run folder.

        Raises:
            ValueError: Its path is absolute, climbs out (``..``) or leads outside the run
                folder through a link.
        """
        return inside_run(self.run_dir, member.path, f"league member {member.name!r}")

    def _load_snapshot(self, member: Member, **kwargs: Any) -> PolicyAgent:
        with global_generators_kept():
            agent = PolicyAgent(self.snapshot_path(member), deterministic=False,
                                trust_checkpoint=self.trust_checkpoint, **kwargs)
        agent.check_env_spec(snapshot_spec(self.config))
        agent.name = member.name
        return agent

    def policy(self, name: str) -> Agent:
        """The current policy or the snapshot called ``name``, as an agent (snapshots are
        loaded once and sample their actions)."""
        if name == CURRENT:
            if self.current is None:
                raise RuntimeError("the league has no current policy yet (set_current)")
            return self.current
        if name not in self._loaded:
            self._loaded[name] = self._load_snapshot(self.members[name])
            keep = {m.name for m in self.drawable_snapshots()}
            for old in [n for n in self._loaded if n not in keep and n != name]:
                del self._loaded[old]
        return self._loaded[name]

    def rating_agent(self, name: str, seed: int) -> Agent:
        """The snapshot ``name`` as a new agent of its own for rating games (seeded; never
        the one training opponents play, so that rating games leave training as it was)."""
        return self._load_snapshot(self.members[name], seed=seed)

    def opponents(self) -> Opponents:
        """An opponent drawer for one env: its own random and heuristic players, the
        league's policies."""
        return Opponents(self)

    # -- drawing opponents -----------------------------------------------------------------

    def snapshot_weights(self) -> dict[str, float]:
        """PFSP weights of the drawable snapshots (summing to one; empty without any)."""
        members = self.drawable_snapshots()
        if not members:
            return {}
        weights = pfsp_weights(np.array([m.learner_ahead() for m in members]),
                               self.config.league.pfsp, self.config.league.pfsp_power)
        return {m.name: float(w) for m, w in zip(members, weights, strict=True)}

    def draw_kind(self, rng: np.random.Generator) -> str:
        """``random``, ``heuristic``, or the name of a policy (``current`` or a snapshot),
        by the weights in force now."""
        weights = self.config.opponent_weights(self.step)
        w = np.array([weights[k] for k in KINDS], dtype=float)
        kind = KINDS[int(rng.choice(len(KINDS), p=w / w.sum()))]
        if kind != "self_play":
            return kind
        snapshots = self.snapshot_weights()
        if self.current is not None and (not snapshots
                                         or rng.random() < self.config.league.current):
            return CURRENT
        if not snapshots:
            return "random"  # no policy to play yet
        names = list(snapshots)
        return names[int(rng.choice(len(names), p=list(snapshots.values())))]

    def record(self, info: dict[str, Any]) -> None:
        """Count a finished training episode (the learner's ``info`` at its end: ``seat``,
        ``scores`` and ``opponents``, the opponent's name by seat)."""
        scores, seat = info["scores"], info["seat"]
        for other, name in info["opponents"].items():
            member = self.members.get(name)
            if member is None:
                continue  # the current policy: not a member
            member.games += 1
            diff = scores[seat] - scores[int(other)]
            member.behind += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0

    # -- ratings ---------------------------------------------------------------------------

    def rate(self, lineups: list[list[str]], ranks: list[list[float]]) -> None:
        """Update the OpenSkill ratings from games: the members by seat, and their ranks."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        for names, game_ranks in zip(lineups, ranks, strict=True):
            teams = [[model.rating(mu=self.members[n].mu, sigma=self.members[n].sigma,
                                   name=n)] for n in names]
            for name, (rating,) in zip(names, model.rate(teams, ranks=list(game_ranks)),
                                       strict=True):
                self.members[name].mu, self.members[name].sigma = rating.mu, rating.sigma

    def rating_lineups(self, newest: str, games: int, num_players: int,
                       rng: np.random.Generator) -> list[list[str]]:
        """``games`` lineups for rating games: ``newest`` and members drawn uniformly from
        the others (each once per game while there are enough), its seat rotating with the
        game."""
        others = [name for name in self.members if name != newest]
        lineups = []
        for g in range(games):
            picks = rng.choice(len(others), size=num_players - 1,
                               replace=len(others) < num_players - 1)
            seats = [others[int(i)] for i in picks]
            seats.insert(g % num_players, newest)
            lineups.append(seats)
        return lineups

    # -- saving ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "members": [asdict(m) for m in self.members.values()]}

    def save(self, path: str | Path | None = None) -> Path:
        """Write ``league.json`` (atomically: a temporary file, then a rename)."""
        path = Path(path) if path is not None else self.run_dir / "league.json"
        atomic_json(self.to_dict(), path)
        return path

    def load(self, path: str | Path | None = None) -> None:
        """Continue the league saved in ``league.json`` (by :meth:`save`).

        Raises:
            ValueError: The file is not a saved league (the message names the file).
        """
        path = Path(path) if path is not None else self.run_dir / "league.json"
        try:
            members, step = _members_and_step(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
            raise ValueError(f"{path}: not a saved league: {type(exc).__name__}: "
                             f"{str(exc)[:200]}") from None
        for member in members.values():
            if member.path is not None:
                try:
                    inside_run(self.run_dir, member.path, f"league member {member.name!r}")
                except ValueError as exc:
                    raise ValueError(f"{path}: {exc}") from None
        self.members, self.step = members, step
        self._loaded.clear()

    def follow(self, data: dict[str, Any]) -> None:
        """Take the members and step of another copy of this run's league (its
        :meth:`to_dict`): a worker process's copy follows the main process's at each rollout
        of ``collect: rollout``. The snapshots already loaded stay loaded."""
        self.members, self.step = _members_and_step(data)


def _members_and_step(data: dict[str, Any]) -> tuple[dict[str, Member], int]:
    """The members and step of a league's :meth:`League.to_dict`."""
    return {m["name"]: Member(**m) for m in data["members"]}, int(data["step"])


class Opponents:
    """Draws the opponent of a seat for one env (``opponents(rng) -> agent``, the form
    :class:`~primeval.wrappers.single_agent.SingleAgentEnv` takes): the league picks the
    kind; random and heuristic players are the env's own, policies the league's."""

    def __init__(self, league: League) -> None:
        self.league = league
        self._random = RandomAgent()
        self._heuristic: Agent | None = None

    def __call__(self, rng: np.random.Generator) -> Agent:
        name = self.league.draw_kind(rng)
        if name == "random":
            return self._random
        if name == "heuristic":
            if self._heuristic is None:
                self._heuristic = make_heuristic(self.league.config.game)
            return self._heuristic
        return self.league.policy(name)
