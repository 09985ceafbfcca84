"""Origin learned by RLlib from every seat for about `make train`'s 30 minutes
(docs/benchmarks/learning/rllib-2026-12-08/): the run is the shipped RLlib config for 290
iterations, held out against two heuristic bots on fresh games, and docs/learning.md quotes
its figure."""

from __future__ import annotations

import csv
import json

from tests.learning.common import ROOT, quote_rate

RUN = ROOT / "docs" / "benchmarks" / "learning" / "rllib-2026-12-08" / "run"


def test_the_run_is_the_shipped_rllib_config_held_out_and_quoted():
    from primeval.training.rllib.config import load_rllib_config

    saved = load_rllib_config(RUN / "config.yaml")
    assert saved == load_rllib_config(ROOT / "configs" / "origin" / "rllib.yaml",
                                      iterations=290)
    with (RUN / "metrics.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert int(rows[-1]["iteration"]) == 290
    held = json.loads((RUN / "heldout.json").read_text(encoding="utf-8"))
    assert held["seeds"] == [2081120440, 2082120440]
    assert held["agents"][0]["games"] == 800
    learning = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    assert quote_rate(held["agents"][0]) in learning
