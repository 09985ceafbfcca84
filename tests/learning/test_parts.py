"""Primordial Soup's default collected in parts at training seeds 10 and 11
(docs/benchmarks/learning/parts-2026-12-08/): each run is the shipped default in parts at its
seed, held out on the games of the collect and draw runs, and docs/learning.md quotes what
the folder's compare.py computes from the saved files (every training seed 0-11 each way)."""

from __future__ import annotations

from tests.learning.common import ROOT, held_out_runs, load_script

PARTS = ROOT / "docs" / "benchmarks" / "learning" / "parts-2026-12-08"


def test_the_runs_are_the_default_in_parts_and_quoted():
    held_out_runs(PARTS, "parts-seed[0-9]*", ["parts-seed10", "parts-seed11"],
                  workers=2, collect="rollout")


def test_the_groups_and_tests_quoted_are_what_compare_py_computes():
    """Each way's runs, mean, SD and pooled rate, both tests' p, the pairs' differences and
    the simulated power, as compare.py prints them, are in docs/learning.md; every training
    seed 0-11 has a run each way."""
    learning = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    result = load_script(PARTS / "compare.py").compare()
    assert result["seeds"] == {"step by step": list(range(12)), "in parts": list(range(12))}
    assert result["pairs"] == list(range(12))
    for way in result["rates"]:
        assert f"{result['spread'][way]}; pooled {result['pooled'][way]}" in learning, way
    assert (f"step by step against in parts (Mann-Whitney U, two-sided): "
            f"p = {result['rank p']:.3f}") in learning
    assert f"Wilcoxon signed-rank, two-sided: p = {result['signed-rank p']:.3f}" in learning
    power = ", ".join(f"{share:.2f} at {n} runs a way" for n, share in result["power"].items())
    assert power in learning, power
