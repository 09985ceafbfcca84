"""What a PPO run writes besides its model: ``metrics.csv`` (one row an evaluation, fields
:data:`METRICS_FIELDS`), ``ratings.csv`` (the league's ratings after each), ``summary.md``
(:func:`summary_table`) and ``learning_curve.png`` (:func:`plot_learning_curve`).
:mod:`primeval.training.ppo.train` runs the training and calls these."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from primeval.training.files import append_row
from primeval.training.ppo.config import TrainConfig
from primeval.training.ppo.league import League

#: The columns of ``metrics.csv``, one row an evaluation (the final one last).
METRICS_FIELDS = ("step", "wall_seconds", "env_steps_per_second", "win_rate_vs_random",
                  "win_rate_vs_heuristic", "mean_rank_vs_random", "mean_rank_vs_heuristic",
                  "win_rate_vs_heuristic_lo", "win_rate_vs_heuristic_hi", "rating_policy",
                  "rating_heuristic", "rating_random")
#: The columns of ``metrics.csv`` that come from the evaluation itself.
EVAL_FIELDS = METRICS_FIELDS[3:]


def summary_table(final: dict[str, Any]) -> str:
    """The run's result as one Markdown table: the trained agent against random players and
    against heuristic players, the heuristic against random players (win rates with 95%
    intervals, seats rotated), then the training time and throughput."""
    n = final["players"]
    games = final["vs_random"][0]["games"]
    rows = [("trained agent", "random", final["vs_random"][0]),
            ("trained agent", "heuristic", final["vs_heuristic"][0]),
            ("heuristic", "random", final["heuristic_vs_random"][0])]
    lines = [f"{final['game']}, {n} players, seed {final['seed']}: {games} games per row, "
             "seats rotated; chance is " f"{1 / n:.3f}",
             "",
             "| agent | against | win rate | 95% CI | mean rank | mean score |",
             "|---|---|---|---|---|---|"]
    for agent, others, s in rows:
        lo, hi = s["win_rate_ci95"]
        lines.append(f"| {agent} | {n - 1} {others} | {s['win_rate']:.3f} | "
                     f"[{lo:.3f}, {hi:.3f}] | {s['mean_rank']:.2f} | {s['mean_score']:.1f} |")
    minutes, secs = divmod(int(round(final["train_seconds"])), 60)
    lines += ["", f"training: {final['total_steps']:,} env steps in {minutes} min {secs} s "
              f"({final['env_steps_per_second']:,.0f} env steps/s)"]
    if final.get("selection"):
        from primeval.training.ppo.select import summary_line

        lines += ["", summary_line(final["selection"]) + "; the tables above are of it"]
    return "\n".join(lines)


def league_ratings(league: League, policy: str) -> dict[str, float]:
    """The rating (``mu``) of the policy's snapshot ``policy``, the heuristic and random."""
    return {"rating_policy": league.members[policy].mu,
            "rating_heuristic": league.members["heuristic"].mu,
            "rating_random": league.members["random"].mu}


def append_ratings(path: Path, step: int, league: League) -> None:
    """One row per member of the league: its rating after the evaluation at ``step``."""
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(["step", "member", "mu", "sigma", "ordinal", "games_vs_learner"])
        for m in league.members.values():
            writer.writerow([step, m.name, round(m.mu, 3), round(m.sigma, 3),
                             round(m.ordinal, 3), m.games])


def append_metrics(path: Path, row: dict[str, Any]) -> None:
    """One row of ``metrics.csv`` (its columns :data:`METRICS_FIELDS`)."""
    append_row(path, METRICS_FIELDS, row)


def algorithm_name(config: TrainConfig) -> str:
    """What a run trains, in words for titles: ``MaskablePPO``, or ``residual PPO over the
    heuristic (MaskablePPO)`` when the config has a prior."""
    if config.prior.agent != "none":
        return f"residual PPO over the {config.prior.agent} (MaskablePPO)"
    return "MaskablePPO"


def learning_curve_figure(metrics: Path, title: str, *, players: int | None = None,
                          final: dict[str, Any] | None = None, eval_games: int | None = None,
                          rated: bool = True):
    """The learning curve as a matplotlib figure (see :func:`plot_learning_curve`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    every = list(csv.DictReader(metrics.open(encoding="utf-8"))) if metrics.exists() else []
    # the final evaluation's row: its win rates drawn apart, below (its ratings on the line)
    during = every[:-1] if final is not None else every
    fig, (wins, ratings) = plt.subplots(1, 2, figsize=(11, 4))

    def column(key: str, rows: list[dict] = during) -> tuple[list[int], list[float]]:
        pairs = [(int(r["step"]), float(r[key])) for r in rows if r.get(key) not in (None, "")]
        return [p[0] for p in pairs], [p[1] for p in pairs]

    each = f" ({eval_games} games each)" if eval_games else ""
    for key, label in (("win_rate_vs_random", "vs random"),
                       ("win_rate_vs_heuristic", "vs heuristic")):
        wins.plot(*column(key), marker="o", label=label + each)
    steps, lo = column("win_rate_vs_heuristic_lo")
    if steps:
        wins.fill_between(steps, lo, column("win_rate_vs_heuristic_hi")[1], alpha=0.2,
                          color="C1", label="vs heuristic, 95% CI")
    if final is not None:
        games = final["vs_heuristic"][0]["games"]
        for key, colour, label in (("random", "C0", "vs random"),
                                   ("heuristic", "C1", "vs heuristic")):
            rate = final[f"win_rate_vs_{key}"]
            lo, hi = final[f"win_rate_vs_{key}_lo"], final[f"win_rate_vs_{key}_hi"]
            wins.errorbar([final["total_steps"]], [rate], yerr=[[rate - lo], [hi - rate]],
                          fmt="*", markersize=14, color=colour, capsize=4,
                          markeredgecolor="black",
                          label=f"final {label} ({games} games, 95% CI)")
    if players:
        wins.axhline(1 / players, color="grey", linestyle="--", linewidth=1,
                     label=f"chance (1/{players})")
    wins.set(xlabel="environment steps", ylabel="win rate", ylim=(0, 1), title=title)
    ratings.set(xlabel="environment steps", ylabel="OpenSkill mu",
                title="league ratings (Plackett-Luce)")
    if rated:
        for key, label in (("rating_policy", "policy"), ("rating_heuristic", "heuristic"),
                           ("rating_random", "random")):
            ratings.plot(*column(key, every), marker="o", label=label)
        ratings.legend(fontsize="small")
    else:  # every rating would stay at its prior: say so rather than draw flat lines
        ratings.text(0.5, 0.5, "no rating games in this run\n(league.rating_games: 0)",
                     ha="center", va="center", transform=ratings.transAxes)
    ratings.grid(alpha=0.3)
    wins.grid(alpha=0.3)
    wins.legend(fontsize="small")
    fig.tight_layout()
    return fig


def plot_learning_curve(metrics: Path, out: Path, title: str, *, players: int | None = None,
                        final: dict[str, Any] | None = None,
                        eval_games: int | None = None, rated: bool = True) -> None:
    """Two panels over training steps, as a PNG: the win rates against random players and
    against the heuristic (with its 95% interval) at each evaluation during training, the
    chance line ``1/players``, and the final evaluation (``final``: :func:`train`'s result,
    whose row ends ``metrics.csv``) apart as stars with their 95% intervals, since it plays
    more games; and the OpenSkill ratings of the policy's snapshots, the heuristic and random
    players (``rated=False``: a run without rating games, whose panel says so instead).
    ``title``: name the algorithm (:func:`algorithm_name`)."""
    import matplotlib.pyplot as plt

    fig = learning_curve_figure(metrics, title, players=players, final=final,
                                eval_games=eval_games, rated=rated)
    fig.savefig(out, dpi=100)
    plt.close(fig)
