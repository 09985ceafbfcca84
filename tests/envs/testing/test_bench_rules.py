"""The rules benchmark (`python -m primeval.envs.testing.bench_rules`): the report's shape and
arithmetic, and the old-against-new runs taken in turns (never its speeds)."""

from __future__ import annotations

import json

import pytest

from primeval.envs.testing import bench_rules


def test_every_mode_is_measured_and_its_figures_agree(capsys):
    report = bench_rules.main(
        [
            "--game",
            "primordial_soup",
            "--players",
            "3",
            "--seconds",
            "0.05",
            "--repeats",
            "1",
            "--json",
        ]
    )
    assert json.loads(capsys.readouterr().out)["results"] == report["results"]
    by_mode = {r["mode"]: r for r in report["results"]}
    assert set(by_mode) == {"rules", "planner", "env"}
    for r in by_mode.values():
        assert (r["game"], r["players"]) == ("primordial_soup", 3)
        assert r["steps"] > 0 and r["games"] >= 1
        assert r["us_per_step"] * r["steps_per_second"] == pytest.approx(1e6)
    rules = by_mode["rules"]
    assert rules["legal_mask_us"] + rules["apply_us"] == pytest.approx(rules["us_per_step"])


def test_cpu_times_the_calls_on_the_process_clock(monkeypatch):
    """``--cpu`` times with ``time.process_time``: a clock that only counts the calls made
    to it shows which one was read."""
    reads = []

    def counting_clock():
        reads.append(1)
        return 0.001 * len(reads)

    monkeypatch.setitem(bench_rules.CLOCKS, "cpu", counting_clock)
    assert bench_rules.CLOCKS["wall"] is not counting_clock
    report = bench_rules.main(
        ["--game", "origin", "--players", "2", "--mode", "rules", "--seconds", "0.05"]
        + ["--repeats", "1", "--cpu"]
    )
    (rules,) = report["results"]
    assert len(reads) == 4 * rules["steps"]  # four clock reads a step, all on the CPU clock
    assert report["settings"]["cpu"] is True


def test_a_player_count_the_game_does_not_take_is_refused(capsys):
    with pytest.raises(SystemExit):
        bench_rules.main(["--game", "primordial_soup", "--players", "2"])
    assert "primordial_soup takes 3, 4" in capsys.readouterr().err


def test_a_baseline_that_is_no_source_tree_is_named(tmp_path):
    with pytest.raises(SystemExit, match="not a primeval source tree"):
        bench_rules.compare(str(tmp_path), [("origin", 3)], ["rules"], 0.1, 1)


def test_old_and_new_run_in_turns_and_the_ratio_is_new_over_old(monkeypatch, tmp_path):
    (tmp_path / "envs" / "_package").mkdir(parents=True)
    calls = []
    speeds = iter([100.0, 300.0, 200.0, 500.0, 150.0, 400.0])

    def fake_worker(pythonpath, cases, modes, seconds, seed, clock="wall"):
        calls.append(("new" if pythonpath is None else "old", seed))
        speed = next(speeds)
        result = [
            {
                "game": "origin",
                "players": 3,
                "mode": "rules",
                "us_per_step": 1e6 / speed,
                "steps_per_second": speed,
                "steps": 10,
                "games": 1,
            }
        ]
        return {"tree": "new" if pythonpath is None else "old", "results": result}

    monkeypatch.setattr(bench_rules, "_run_worker", fake_worker)
    report = bench_rules.compare(str(tmp_path), [("origin", 3)], ["rules"], 0.1, 3)
    assert calls == [
        ("old", 0),
        ("new", 0),
        ("old", 1000),
        ("new", 1000),
        ("old", 2000),
        ("new", 2000),
    ]
    assert report["old"][0]["steps_per_second"] == 150.0  # median of 100, 200, 150
    assert report["new"][0]["steps_per_second"] == 400.0
    assert report["ratios"][0]["speedup"] == pytest.approx(400.0 / 150.0)
    assert report["old"][0]["steps"] == 30


def test_the_baseline_shim_imports_the_other_tree(tmp_path):
    """The worker of a real baseline run reports the tree it imported."""
    import os

    import primeval.envs

    here = os.path.dirname(os.path.dirname(os.path.realpath(primeval.envs.__file__)))
    shim = bench_rules.package_shim(here, str(tmp_path / "shim"))
    out = bench_rules._run_worker(shim, [("primordial_soup", 3)], ["rules"], 0.02, 0)
    assert out["tree"] == here
    assert out["results"][0]["steps"] > 0
