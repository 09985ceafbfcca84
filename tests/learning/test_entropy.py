"""The entropy-bonus probe of Primordial Soup's default (docs/benchmarks/learning/
entropy-2026-12-07/): each run is the shipped default but its ``ppo.ent_coef``, held out on
the games of the default's runs it is paired with, and docs/learning.md quotes what the
folder's compare.py computes from the saved files."""

from __future__ import annotations

import pytest

from tests.learning.common import (
    ROOT,
    held_out_run,
    load_script,
    pool_rates,
    reproduces_default_run,
)

ENTROPY = ROOT / "docs" / "benchmarks" / "learning" / "entropy-2026-12-07"


@pytest.mark.parametrize("prefix, coef", [("seed", 0.02), ("half-seed", 0.005)])
def test_each_run_is_the_default_but_its_entropy_bonus_and_is_quoted(prefix, coef):
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    folders = sorted(p for p in ENTROPY.glob(f"{prefix}[0-9]*") if p.is_dir())
    assert len(folders) >= 2
    agents = []
    for folder in folders:
        agents.append(held_out_run(folder, learning, **{"ppo.ent_coef": coef}))
    assert pool_rates(agents)[1] in learning


@pytest.mark.parametrize("prefix, coef", [("seed", 0.02), ("half-seed", 0.005)])
def test_the_pairs_and_statistics_quoted_are_what_compare_py_computes(prefix, coef):
    """The differences seed by seed and each run's row of PPO's statistics (entropy over the
    third and the last tenth of the rollouts, value loss over the last, the held-out rate) are
    compare.py's, for the bonus's runs and the default's at the same seeds."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    flat = " ".join(learning.split())
    result = load_script(ENTROPY / "compare.py").compare(prefix)
    assert len(result["pairs"]) >= 2
    pairs = ", ".join(f"{d:+.2f}" for d in result["pairs"].values()).replace("-", "\u2212")
    assert pairs in flat, pairs
    assert result["stats"], "no run of this bonus kept its statistics"
    for seed, by_way in result["stats"].items():
        for way, by_tag in by_way.items():
            entropy, value = by_tag["train/entropy_loss"], by_tag["train/value_loss"]
            name = "the default" if way == "default" else f"`ent_coef` {coef}"
            rate = result["rates"][seed][0 if way == "bonus" else 1]
            row = (f"| seed {seed}, {name} | {-entropy[1]:.2f} | {-entropy[-1]:.2f} | "
                   f"{value[-1]:.3f} | {rate:.3f} |")
            assert row in learning, row


@pytest.mark.parametrize("seed", [6, 7])
def test_the_default_runs_compared_with_are_what_the_probes_tree_trains(seed):
    """The default config at the seed, from the probe's clone, stopped after 500k steps:
    its evaluation rows equal the default run's (all but the wall time and speed), so the
    pairs compare recipes, not trees."""
    repro = reproduces_default_run(ENTROPY / "repro" / f"seed{seed}-metrics.csv",
                                   ENTROPY / "repro" / f"seed{seed}-config.yaml", seed)
    assert [r["step"] for r in repro] == ["0", "500000"]
