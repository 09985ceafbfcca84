"""The ways of collecting a rollout (step by step, in parts) compared: the runs, the
comparison compare.py computes, and PPO's own statistics."""

from __future__ import annotations

import json

from primeval.training.ppo.config import load_config
from tests.learning.common import (
    COLLECT,
    COLLECT_ORIGIN,
    ROOT,
    held_out_run,
    load_script,
    pool_rates,
    quote_rate,
)


def test_the_runs_collected_in_parts_are_the_default_so_and_quoted():
    """docs/learning.md's runs of Primordial Soup's default collected in parts: each is the
    shipped default config but ``workers: 2, collect: rollout`` (at its seed), held out at
    the same three fresh evaluation seeds; each run's and the pooled figure are quoted."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    agents = []
    folders = sorted(COLLECT.glob("seed*"))
    assert len(folders) >= 2
    for folder in folders:
        agents.append(held_out_run(folder, learning, workers=2, collect="rollout"))
    assert pool_rates(agents)[1] in learning


def test_the_runs_collected_step_by_step_beside_them_are_the_default_and_quoted():
    """Beside them, the default collected step by step on the same CPU at training seeds 0-7,
    held out on the very games: seeds 2 to 7 trained for the comparison (their folders: the
    shipped default config at the seed), seeds 0 and 1 the shipped 2M agents; each run's
    figure and the pooled figure of the eight are quoted."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    agents = []
    for folder in sorted(COLLECT.glob("step-seed*")):
        if folder.is_dir():
            run = json.loads((folder / "eval.json").read_text())
            saved = load_config(folder / "config.yaml").to_dict()
            shipped = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml",
                                  seed=run["seed"]).to_dict()
            assert saved == shipped
            held = json.loads((folder / "heldout.json").read_text())
        else:
            held = json.loads(folder.read_text())
        assert held["seeds"] == [2075120440, 2076120440, 2077120440]
        agent = held["agents"][0]
        assert agent["games"] == 1200 and quote_rate(agent) in learning, folder
        agents.append(agent)
    assert len(agents) == 8
    assert pool_rates(agents)[1] in learning


def test_origins_default_collected_in_parts_and_step_by_step_is_quoted():
    """docs/learning.md's runs of Origin's default, two collected in parts on both cores and
    two step by step at the same training seeds: each is the shipped default config (with
    ``workers: 2, collect: rollout`` for the first two), held out at the same three fresh
    evaluation seeds; each run's figure and each way's pooled figure are quoted."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    ways: dict[str, list[dict]] = {"seed": [], "step-seed": []}
    for way, agents in ways.items():
        for folder in sorted(COLLECT_ORIGIN.glob(f"{way}[0-9]*")):
            run = json.loads((folder / "eval.json").read_text())
            extra = {"workers": 2, "collect": "rollout"} if way == "seed" else {}
            saved = load_config(folder / "config.yaml").to_dict()
            shipped = load_config(ROOT / "configs" / "origin" / "default.yaml",
                                  seed=run["seed"], **extra).to_dict()
            assert saved == shipped, folder
            held = json.loads((folder / "heldout.json").read_text())
            assert held["seeds"] == [2078120440, 2079120440, 2080120440]
            agent = held["agents"][0]
            assert agent["games"] == 1200 and quote_rate(agent) in learning, folder
            agents.append(agent)
        assert len(agents) == 2, way
        assert pool_rates(agents)[1] in learning
    heuristic = json.loads((COLLECT_ORIGIN / "heuristic-heldout.json").read_text())
    assert heuristic["seeds"] == [2078120440, 2079120440, 2080120440]
    assert heuristic["agents"][0]["agent"] == "heuristic#1"
    assert f"| the heuristic in its seats | | | | | {quote_rate(heuristic['agents'][0])} |" in learning


def test_the_comparison_of_the_two_ways_quoted_is_what_compare_py_computes():
    """docs/learning.md's tests of the two ways of collecting (the rank test of the runs, the
    signed-rank test of the pairs, each pair's difference) are what
    ``collect-2026-12-07/compare.py`` computes from the saved runs; for Origin the step
    runs' lead over the runs in parts at each seed."""
    compare = load_script(COLLECT / "compare.py")
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    soup = compare.compare(COLLECT)
    flat = " ".join(learning.split())
    assert sorted(soup["pairs"]) == list(range(8))
    assert f"eight against eight gives p = {soup['rank_p']:.2f}" in flat
    assert f"eight pairs p = {soup['pairs_p']:.2f}" in flat
    diffs = ", ".join(f"{d:+.2f}".replace("-", "−") for d in soup["pairs"].values())
    assert f"(step minus parts {diffs};" in flat
    origin = compare.compare(COLLECT_ORIGIN)
    leads = " and ".join(f"{d:.3f}" for d in origin["pairs"].values())
    assert f"the runs\nin parts read {leads} below" in learning


def test_the_training_statistics_quoted_are_the_runs_own():
    """docs/learning.md's PPO statistics of the last two pairs (the policy's entropy over
    the third tenth of each run's rollouts, the value loss over the last tenth) are what
    ``collect-2026-12-07/stats.py`` reads from their saved ``train.csv``."""
    stats = load_script(COLLECT / "stats.py")
    runs = stats.summary(COLLECT)
    assert sorted(runs) == ["seed6", "seed7", "step-seed6", "step-seed7"]
    flat = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())

    def two(key: str, tenth: int, way: str) -> str:
        values = [-runs[f"{way}seed{s}"][key][tenth] if key.endswith("entropy_loss")
                  else runs[f"{way}seed{s}"][key][tenth] for s in (6, 7)]
        return " and ".join(f"{v:.3f}" for v in values)

    entropy, value = "train/entropy_loss", "train/value_loss"
    assert (f"entropy over the third tenth of the rollouts {two(entropy, 1, '')} in parts "
            f"against {two(entropy, 1, 'step-')} step by step") in flat
    assert (f"value loss over the last tenth {two(value, 3, '')} against "
            f"{two(value, 3, 'step-')}") in flat


def test_the_power_quoted_is_what_power_py_simulates():
    """docs/learning.md's chances that a rank test finds the collect gap at eight and sixteen
    runs a way are ``collect-2026-12-07/power.py``'s at its own seed and trials."""

    import numpy as np

    power = load_script(COLLECT / "power.py")
    rng = np.random.default_rng(0)
    shares = {runs: power.power(runs, 2000, rng) for runs in power.RUNS}
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    assert (f"simulated: {shares[8]:.2f} at\neight, {shares[16]:.2f} at sixteen" in learning)
