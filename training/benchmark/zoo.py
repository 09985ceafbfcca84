"""The reference zoo: named agents per task, shipped with the package.

``zoo:TASK/MEMBER`` (``zoo:soup-4p/ppo``, ``zoo:origin-3p/heuristic``) names one. Every task
has the members that are specs, no files (:data:`SPEC_MEMBERS`): ``random``, ``heuristic``
and plain MCTS (random rollouts) at two budgets, ``mcts-25`` and ``mcts-100``
simulations per decision. Trained agents are files in this package's ``zoo_files/`` folder,
each with one entry in ``zoo_files/manifest.json``: its task, name, file, kind (``ppo``),
the config, commit and command that produced it, its rating on its task (the benchmark
score, with the games and seed it was measured on), a short check run and notes. Adding or
replacing a member is one manifest entry and one file (:mod:`.curate` makes both);
:data:`SIZE_BUDGET` bounds the files' total (the wheel ships them).

Files are loaded as every checkpoint is, without unpickling
(:mod:`~primeval.training.agents.checkpoint`); a manifest path never leaves the folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from primeval.training.benchmark.tasks import TASKS, get_task

#: Members of every task that are specs (no file).
SPEC_MEMBERS: dict[str, str] = {
    "random": "random",
    "heuristic": "heuristic",
    "mcts-25": "mcts:sims=25",
    "mcts-100": "mcts:sims=100",
}
#: Most bytes the zoo's files may take together (the wheel carries them).
SIZE_BUDGET = 8 * 2**20
#: The zoo's folder inside the package ``primeval.training.benchmark``.
ZOO_FOLDER = "zoo_files"


@dataclass(frozen=True)
class Member:
    """One zoo member: a spec member (``spec`` set) or a file member (``file`` set)."""

    task: str
    name: str
    spec: str | None = None
    file: str | None = None
    kind: str = "spec"
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"zoo:{self.task}/{self.name}"

    def agent_spec(self) -> str:
        """The :func:`~primeval.training.agents.make_agent` spec that plays it."""
        if self.spec is not None:
            return self.spec
        return f"{self.kind}:{zoo_path(self.file)}"


def zoo_folder() -> Path:
    """The zoo's folder on disk (the package data is plain files, in a wheel and in a
    checkout)."""
    return Path(str(resources.files("primeval.training.benchmark").joinpath(ZOO_FOLDER)))


def zoo_path(name: str) -> Path:
    """The file ``name`` of the zoo folder; refused if it would lead out of it."""
    folder = zoo_folder().resolve()
    path = (folder / name).resolve()
    if path.parent != folder or not path.is_file():
        raise ValueError(f"zoo file {name!r}: not a file of the zoo folder {folder}")
    return path


def manifest() -> dict[str, Any]:
    """The parsed ``zoo_files/manifest.json``."""
    return json.loads((zoo_folder() / "manifest.json").read_text(encoding="utf-8"))


def members(task: str | None = None) -> list[Member]:
    """Every member (of ``task``, or of every task): the spec members, then the files."""
    tasks = [get_task(task).name] if task is not None else list(TASKS)
    out = [Member(t, name, spec=spec) for t in tasks for name, spec in SPEC_MEMBERS.items()]
    for entry in manifest()["members"]:
        if entry["task"] in tasks:
            info = {k: v for k, v in entry.items() if k not in ("task", "name", "file", "kind")}
            out.append(
                Member(
                    entry["task"], entry["name"], file=entry["file"], kind=entry["kind"], info=info
                )
            )
    return out


def get_member(name: str) -> Member:
    """The member ``zoo:TASK/MEMBER`` (or ``TASK/MEMBER``).

    Raises:
        ValueError: Malformed, or no such task or member (the task's members named).
    """
    text = name[4:] if name.startswith("zoo:") else name
    task, sep, member = text.partition("/")
    if not sep or not member:
        raise ValueError(f"zoo member {name!r}: write zoo:TASK/MEMBER, e.g. zoo:soup-4p/ppo")
    found = {m.name: m for m in members(task)}
    if member not in found:
        raise ValueError(f"zoo member {name!r}: task {task} has {', '.join(found)}")
    return found[member]


def zoo_agent(
    name: str, game: str | None = None, players: int | None = None, seed: int | None = None
) -> Any:
    """The agent of ``zoo:TASK/MEMBER``; ``game`` and ``players``, when given, must be the
    task's."""
    from primeval.envs.games import get_game
    from primeval.training.agents import make_agent

    member = get_member(name)
    task = TASKS[member.task]
    if game is not None and get_game(game).name != task.game:
        raise ValueError(f"{member.id} plays {task.game}, not {get_game(game).name}")
    if players is not None and players != task.players and member.file is not None:
        raise ValueError(f"{member.id} was trained for {task.players} players, not {players}")
    agent = make_agent(member.agent_spec(), task.game, seed=seed)
    return agent


def zoo_size() -> int:
    """Bytes of the zoo's member files together."""
    return sum(zoo_path(entry["file"]).stat().st_size for entry in manifest()["members"])


__all__ = [
    "SIZE_BUDGET",
    "SPEC_MEMBERS",
    "Member",
    "get_member",
    "manifest",
    "members",
    "zoo_agent",
    "zoo_path",
    "zoo_size",
]
