"""Primordial Soup's default at four new training seeds and two more runs in parts
(docs/benchmarks/learning/draw-2026-12-07/): each run is the shipped default (or the default
in parts) at its seed, held out on the games of the collect and entropy runs, and
docs/learning.md quotes what the folder's compare.py computes from the saved files."""

from __future__ import annotations

from tests.learning.common import (
    ROOT,
    held_out_runs,
    load_script,
    pool_rates,
    reproduces_default_run,
)

DRAW = ROOT / "docs" / "benchmarks" / "learning" / "draw-2026-12-07"


def test_the_new_default_runs_are_the_default_and_quoted():
    agents = held_out_runs(DRAW, "seed[0-9]*", ["seed10", "seed11", "seed8", "seed9"])
    assert pool_rates(agents)[1] in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


def test_the_new_runs_in_parts_are_the_default_in_parts_and_quoted():
    held_out_runs(DRAW, "parts-seed[0-9]*", ["parts-seed8", "parts-seed9"],
                  workers=2, collect="rollout")


def test_the_groups_and_tests_quoted_are_what_compare_py_computes():
    """Every group's runs, mean, SD and pooled rate, each rank test's p and the simulated
    power, as compare.py prints them, are in docs/learning.md; the groups hold the runs they
    should."""
    learning = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    result = load_script(DRAW / "compare.py").compare()
    counts = {name: len(rates) for name, rates in result["rates"].items()}
    assert counts == {"earlier default": 8, "new default": 4, "in parts": 10, "entropy": 6}
    for name, spread in result["spread"].items():
        assert f"{spread}; pooled {result['pooled'][name]}" in learning, name
    every = result["every default"]
    assert f"{every['spread']}; pooled {every['pooled']}" in learning
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "twelve runs (training seeds 0-11" in readme and every["pooled"] in readme
    for what, p in result["p"].items():
        assert f"{what} (Mann-Whitney U, two-sided): p = {p:.3f}" in learning, what
    power = ", ".join(f"{share:.2f} at {n} runs a way" for n, share in result["power"].items())
    assert power in learning, power


def test_the_new_runs_tree_trains_what_the_earlier_default_runs_trained():
    """The default config at training seed 6 from the probe's clone, stopped in its final
    evaluation after 520k steps: its rows at steps 0 and 500k equal those of the earlier
    default run at seed 6 (all but the wall time and speed), so the new runs and the earlier
    eight are draws of one recipe from trees that train alike."""
    reproduces_default_run(DRAW / "repro" / "seed6-metrics.csv",
                           DRAW / "repro" / "seed6-config.yaml", 6)
