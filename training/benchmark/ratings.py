"""The zoo's leaderboard: OpenSkill ratings, Nash averaging and α-Rank over the head-to-head
matrix.

``primeval benchmark --leaderboard`` plays, per task, a round robin over the task's zoo
members (:func:`~primeval.training.evaluate.round_robin`, duplicate games) and writes
``docs/leaderboard.md``: per task a table ordered by Nash averaging, with OpenSkill μ ± σ
(Plackett-Luce over the final ranks, as ``primeval league``) and the α-Rank mass of each
member, and a picture of the head-to-head matrix in ``docs/images/``.

**Head-to-head matrix.** ``M[i, j]`` is how often ``i`` finished ahead of ``j`` in the
games where both sat (a tie counts a half), so ``M[i, j] + M[j, i] = 1``: a symmetric
two-player constant-sum meta-game, whatever the player count.

**Nash averaging** (Balduzzi et al. 2018, "Re-evaluating evaluation"): the antisymmetric
game ``A = M - 1/2`` has value 0; its maximum-entropy Nash equilibrium ``p`` (a mixture of
members no member beats on average) is unique, and each member's rating is ``(A p)_i``, its
mean margin against that mixture (0 for the members in it, negative for the others). A clone
of a member splits that member's share of ``p`` and changes no rating (tested): adding
copies of a weak member cannot lift whoever beats it, as it lifts a mean win rate over the
pool.

**α-Rank** (Omidshafiei et al. 2019, "α-Rank: Multi-Agent Evaluation by Evolution"; the
single-population form of OpenSpiel's ``open_spiel/python/egt/alpharank.py``): a population
of ``m`` individuals playing one member is invaded by a mutant playing another; the
mutant fixes with the Fermi-process probability ``ρ``, the chain over members moves by
``ρ / (S - 1)``, and the members are ranked by the chain's stationary distribution. At the
large α used here the mass sits on the strongest members (the chain's sink); below them the
masses underflow to 0 and say no order, which Nash averaging's ratings still give. A clone
shares its original's mass; on a transitive matrix the others keep their order (tested), on
a cyclic one α-Rank at finite α can move them, which is why the table is ordered by Nash
averaging.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

import numpy as np

#: α-Rank's ranking intensity and population size (OpenSpiel's defaults are alpha swept
#: up to large values and m = 50); ranks are taken at this large α, where the
#: stationary mass sits on the strongest members.
ALPHA = 100.0
POPULATION = 50


def fixation_probability(f_mutant: np.ndarray, f_resident: np.ndarray, alpha: float) -> float:
    """Probability that one mutant takes over a population of ``m`` residents, given the
    fitness of the mutant and of the residents when there are ``k = 1..m-1`` mutants:
    ``1 / (1 + sum_l prod_{k<=l} exp(-alpha (f_mutant(k) - f_resident(k))))``."""
    steps = -alpha * (np.asarray(f_mutant, float) - np.asarray(f_resident, float))
    logs = np.concatenate([[0.0], np.cumsum(steps)])
    top = logs.max()
    return float(np.exp(-(top + np.log(np.exp(logs - top).sum()))))


def transition_matrix(payoffs: np.ndarray, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """The α-Rank Markov chain over the ``S`` strategies of the symmetric meta-game whose
    row player gets ``payoffs[i, j]`` against ``j`` (single population, ``m`` individuals:
    with ``k`` mutants ``tau`` among residents ``sigma``, a mutant meets ``k - 1`` mutants and
    ``m - k`` residents, a resident ``k`` mutants and ``m - k - 1`` residents)."""
    payoffs = np.asarray(payoffs, dtype=float)
    size = payoffs.shape[0]
    if payoffs.shape != (size, size) or size < 1:
        raise ValueError(f"payoffs must be a square matrix, got shape {payoffs.shape}")
    if not np.isfinite(payoffs).all():
        raise ValueError("payoffs hold a NaN or infinity")
    chain = np.zeros((size, size))
    if size == 1:
        return np.ones((1, 1))
    k = np.arange(1, m)
    for s in range(size):
        for t in range(size):
            if s == t:
                continue
            f_t = ((k - 1) * payoffs[t, t] + (m - k) * payoffs[t, s]) / (m - 1)
            f_s = (k * payoffs[s, t] + (m - k - 1) * payoffs[s, s]) / (m - 1)
            chain[s, t] = fixation_probability(f_t, f_s, alpha) / (size - 1)
        chain[s, s] = 1.0 - chain[s].sum()
    return chain


def alpharank(payoffs: np.ndarray, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """The α-Rank stationary distribution over the strategies (sums to 1)."""
    chain = transition_matrix(payoffs, alpha, m)
    size = chain.shape[0]
    # pi (P - I) = 0 with sum(pi) = 1, solved as least squares (the chain is irreducible
    # for finite alpha, so the solution is unique).
    a = np.vstack([chain.T - np.eye(size), np.ones((1, size))])
    b = np.concatenate([np.zeros(size), [1.0]])
    pi = np.linalg.lstsq(a, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def nash_average(payoffs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nash averaging of a head-to-head matrix (``M[i, j] + M[j, i] = 1``): the
    maximum-entropy Nash equilibrium ``p`` of ``A = M - 1/2`` (antisymmetrised) and the
    ratings ``A p``.

    The equilibria of a symmetric zero-sum game are the mixtures ``p`` with ``A^T p >= 0``;
    a linear program finds one, and SLSQP moves to the one of largest entropy (the set is a
    polytope, the entropy strictly concave: one answer).
    """
    from scipy.optimize import linprog, minimize

    m = np.asarray(payoffs, dtype=float)
    size = m.shape[0]
    if m.ndim != 2 or m.shape != (size, size) or size < 1:
        raise ValueError(f"payoffs must be a square matrix, got shape {m.shape}")
    if not np.isfinite(m).all():
        raise ValueError("payoffs hold a NaN or infinity")
    a = m - 0.5
    a = (a - a.T) / 2
    tol = 1e-9
    found = linprog(
        np.zeros(size),
        A_ub=-a.T,
        b_ub=np.full(size, tol),
        A_eq=np.ones((1, size)),
        b_eq=[1.0],
        bounds=[(0, 1)] * size,
        method="highs",
    )
    if not found.success:  # pragma: no cover (a symmetric zero-sum game always has one)
        raise RuntimeError(f"nash_average: no equilibrium found ({found.message})")

    def neg_entropy(p: np.ndarray) -> float:
        return float(np.sum(p * np.log(np.clip(p, 1e-300, None))))

    def gradient(p: np.ndarray) -> np.ndarray:
        return np.log(np.clip(p, 1e-300, None)) + 1.0

    constraints = [
        {"type": "ineq", "fun": lambda p: a.T @ p + tol, "jac": lambda p: a.T},
        {"type": "eq", "fun": lambda p: p.sum() - 1.0, "jac": lambda p: np.ones((1, size))},
    ]
    start = found.x * 0.999 + 0.001 / size
    best = minimize(
        neg_entropy,
        start,
        jac=gradient,
        bounds=[(0, 1)] * size,
        constraints=constraints,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    p = np.clip(best.x if best.success else found.x, 0.0, None)
    p = p / p.sum()
    return p, a @ p


def head_to_head(
    records: list[tuple[list[int], list[float]]], size: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(M, counts)`` from games given as ``(agents by seat, scores by seat)``:
    ``M[i, j]`` the share of the games with both where ``i`` finished ahead of ``j`` (ties a
    half; 0.5 on the diagonal and where they never met), ``counts[i, j]`` those games."""
    ahead = np.zeros((size, size))
    counts = np.zeros((size, size))
    for agents, scores in records:
        for a, sa in zip(agents, scores, strict=True):
            for b, sb in zip(agents, scores, strict=True):
                if a == b:
                    continue
                counts[a, b] += 1
                ahead[a, b] += 1.0 if sa > sb else 0.5 if sa == sb else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        matrix = np.where(counts > 0, ahead / np.maximum(counts, 1), 0.5)
    np.fill_diagonal(matrix, 0.5)
    return matrix, counts


def play_zoo(
    task_name: str,
    games_per_lineup: int,
    seed: int = 0,
    members: list[str] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """The round robin of a task's zoo (duplicate games): results, head-to-head matrix,
    α-Rank."""
    from itertools import combinations

    from primeval.training.benchmark.tasks import get_task
    from primeval.training.benchmark.zoo import members as zoo_members
    from primeval.training.evaluate import round_robin

    task = get_task(task_name)
    chosen = [m for m in zoo_members(task.name) if members is None or m.name in members]
    # a file member plays by its zoo name (resolved to the package's file when played), so
    # the board names no path of the machine that played it
    specs = [m.spec if m.spec is not None else m.id for m in chosen]
    names = [m.name for m in chosen]
    n = task.players
    lineups = len(list(combinations(range(len(specs)), n)))
    per_lineup = games_per_lineup + (-games_per_lineup) % n  # whole duplicate blocks
    games = per_lineup * lineups
    records: list[tuple[list[int], list[float]]] = []
    results = round_robin(
        task.game,
        specs,
        games,
        seed=seed,
        num_players=n,
        progress=progress,
        duplicate=True,
        on_game=lambda by_seat, scores: records.append((by_seat, scores)),
    )
    matrix, counts = head_to_head(records, len(specs))
    mass = alpharank(matrix)
    nash, rating = nash_average(matrix)
    return {
        "task": task.id,
        "members": names,
        "specs": specs,
        "games": games,
        "seed": seed,
        "results": [r.summary() for r in results],
        "head_to_head": matrix.tolist(),
        "pair_games": counts.astype(int).tolist(),
        "alpharank": mass.tolist(),
        "nash": nash.tolist(),
        "nash_rating": rating.tolist(),
    }


def leaderboard_markdown(boards: list[dict[str, Any]], command: str, images: dict[str, str]) -> str:
    date = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Leaderboard of the reference zoo",
        "",
        f"Generated by `{command}` on {date} (do not edit by hand; "
        "[benchmark.md](benchmark.md) says how it is made).",
        "",
        "Per task, a round robin of duplicate games among the task's zoo members "
        "(every lineup, every seat rotation), ordered by **Nash averaging** of the "
        "head-to-head matrix (how often the row finished ahead of the column): the "
        "member's mean margin against the maximum-entropy Nash mixture (0 for the "
        "members in it), which clones cannot game. **Nash p** is the member's share of "
        "that mixture. **α-Rank** is the member's stationary mass in the "
        f"single-population α-Rank (α = {ALPHA:g}, m = {POPULATION}). **OpenSkill** is "
        "μ ± σ of a Plackett-Luce model over the final ranks. The win rate's 95% "
        "interval is Wilson's; with few games per lineup every figure is rough.",
        "",
    ]
    for board in boards:
        lines += [
            f"## {board['task']}",
            "",
            f"{board['games']} games, seed {board['seed']}.",
            "",
            "| place | member | Nash rating | Nash p | α-Rank mass | OpenSkill μ ± σ | "
            "win rate | 95% CI | mean rank |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        order = sorted(
            range(len(board["members"])),
            key=lambda i: (
                -round(board["nash_rating"][i], 9),
                -board["alpharank"][i],
                -board["results"][i]["rating"]["mu"],
            ),
        )
        for place, i in enumerate(order, start=1):
            r = board["results"][i]
            lo, hi = r["win_rate_ci95"]
            lines.append(
                f"| {place} | zoo:{board['task'].split('@')[0]}/"
                f"{board['members'][i]} | {board['nash_rating'][i]:+.3f} | "
                f"{board['nash'][i]:.3f} | {board['alpharank'][i]:.3f} | "
                f"{r['rating']['mu']:.1f} ± {r['rating']['sigma']:.1f} | "
                f"{r['win_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | "
                f"{r['mean_rank']:.2f} |"
            )
        if board["task"] in images:
            lines += ["", f"![head-to-head matrix of {board['task']}]({images[board['task']]})"]
        lines.append("")
    return "\n".join(lines)


def plot_matrix(board: dict[str, Any], path: Path) -> None:
    """The head-to-head matrix as a heat map (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matrix = np.asarray(board["head_to_head"])
    names = board["members"]
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(names), 1.0 + 0.8 * len(names)))
    image = ax.imshow(matrix, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            ax.text(j, i, f"{matrix[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{board['task']}: row finished ahead of column")
    fig.colorbar(image, ax=ax, fraction=0.046)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def leaderboard_cli(args: Any) -> int:
    from primeval.training.benchmark.tasks import TASKS

    out = Path(args.out or "docs/leaderboard.md")
    tasks = args.tasks or list(TASKS)
    games = args.games or 4
    seed = 0 if args.seed is None else args.seed
    boards, images = [], {}
    for name in tasks:
        board = play_zoo(name, games, seed=seed, progress=not args.quiet)
        boards.append(board)
        picture = out.parent / "images" / f"leaderboard-{name}.png"
        plot_matrix(board, picture)
        images[board["task"]] = f"images/{picture.name}"
        print(
            f"{board['task']}: Nash rating "
            + ", ".join(
                f"{m} {r:+.3f}" for m, r in zip(board["members"], board["nash_rating"], strict=True)
            ),
            flush=True,
        )
    command = (
        "primeval benchmark --leaderboard"
        + (f" --tasks {' '.join(args.tasks)}" if args.tasks else "")
        + f" --games {games} --seed {seed}"
        + (f" --out {args.out}" if args.out else "")
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(leaderboard_markdown(boards, command, images) + "\n", encoding="utf-8")
    data = Path(args.json or out.with_suffix(".json"))
    data.write_text(
        json.dumps({"command": command, "boards": boards}, indent=2) + "\n", encoding="utf-8"
    )
    print(f"(wrote {out} and {data})")
    return 0


__all__ = [
    "alpharank",
    "fixation_probability",
    "head_to_head",
    "leaderboard_markdown",
    "nash_average",
    "play_zoo",
    "transition_matrix",
]
