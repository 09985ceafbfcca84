"""The benchmark tasks: fixed, versioned games against a fixed pool of zoo opponents.

A task is data (:data:`TASKS`): the game and its env version, the player count, the
opponents (zoo member names, one per other seat), the number of games, the seed and how the
games are played (duplicate games, seats rotated). A result cites the task by name and
version (``soup-4p@1``); any change to a task's fields is a new version, never an edit of
the old one's numbers.

The score of an agent on a task is its win rate (a k-way tie for first counts 1/k) with its
95% Wilson interval, beside its mean rank (1 = best) and mean reward (the env's default
rank reward: first +1, last -1, linear between).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Task:
    """One benchmark task.

    Attributes:
        name: The task's id (``"soup-4p"``).
        version: Bumped whenever any other field changes.
        game: The catalogue name of the game (``primordial_soup``, ``origin``).
        game_version: The env version the task was fixed on (the descriptor's ``version``);
            running it on another refuses.
        players: Seats per game.
        opponents: The zoo members (names in the task's zoo, :mod:`.zoo`) in the other
            seats, one per seat.
        games: Games per run: a multiple of ``players`` (duplicate games come in blocks of
            one seed played in every seat rotation).
        seed: Game ``g`` uses seed ``seed + g // players`` (duplicate) and agent ``i`` of
            the lineup ``seed + 1000 i`` (the tested agent is agent 0).
        duplicate: Duplicate games (:func:`~primeval.training.evaluate.play_game`).
    """

    name: str
    version: int
    game: str
    game_version: int
    players: int
    opponents: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: bool = True

    def __post_init__(self) -> None:
        if len(self.opponents) != self.players - 1:
            raise ValueError(
                f"task {self.name}: {self.players} players need "
                f"{self.players - 1} opponents, got {list(self.opponents)}"
            )
        if self.games % self.players:
            raise ValueError(
                f"task {self.name}: games ({self.games}) must be a multiple of "
                f"the players ({self.players})"
            )

    @property
    def id(self) -> str:
        """``name@version``, how a paper cites the task."""
        return f"{self.name}@{self.version}"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["opponents"] = list(self.opponents)
        return data


#: Every task, by name. The opponents are the game's heuristic bots: the strongest members
#: of the zoo that play fast enough for a few hundred games on a laptop.
TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task("soup-3p", 1, "primordial_soup", 1, 3, ("heuristic", "heuristic"), 300),
        Task("soup-4p", 1, "primordial_soup", 1, 4, ("heuristic",) * 3, 400),
        Task("origin-2p", 1, "origin", 0, 2, ("heuristic",), 200),
        Task("origin-3p", 1, "origin", 0, 3, ("heuristic",) * 2, 300),
        Task("origin-4p", 1, "origin", 0, 4, ("heuristic",) * 3, 400),
    )
}


def get_task(name: str) -> Task:
    """The task called ``name`` (``"soup-4p"``; ``"soup-4p@1"`` checks the version too).

    Raises:
        ValueError: No such task (the known ones named), or another version.
    """
    base, _, version = str(name).partition("@")
    task = TASKS.get(base)
    if task is None:
        raise ValueError(f"unknown benchmark task {name!r}; the tasks are {', '.join(TASKS)}")
    if version and version != str(task.version):
        raise ValueError(
            f"task {base} is at version {task.version}, not {version} (an "
            "older version's results are not comparable with this one's)"
        )
    return task


__all__ = ["TASKS", "Task", "get_task"]
