"""The env benchmark (`python -m primeval.envs.testing.bench`, the env half of `primeval bench`):
the report's shape and arithmetic (never its speeds)."""

from __future__ import annotations

import builtins
import json

import pytest

from primeval.envs.testing import bench


def test_random_play_report_and_peer_ratios(capsys):
    report = bench.main(["--game", "primordial_soup", "--seconds", "0.3", "--repeats", "1",
                         "--peers", "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == report["games"]
    (game,) = report["games"]
    assert (game["game"], game["players"], game["encoder"]) == ("primordial_soup", 4, "flat")
    assert game["steps_per_second"] > 0 and game["games"] >= 1
    # decisions per game match the rules' game length, not a constant
    assert 100 < game["decisions_per_game"] < 2000
    peers = {p["env"]: p for p in report["peers"]}
    assert set(peers) == {"connect_four_v3", "go_v5", "chess_v6"}
    for name, peer in peers.items():
        assert report["ratios"]["primordial_soup"][name] == pytest.approx(
            game["steps_per_second"] / peer["steps_per_second"])
    assert set(report["targets"]) == {"primordial_soup >= 1.5x go_v5",
                                      "primordial_soup >= 10.0x chess_v6"}
    assert report["targets"]["primordial_soup >= 1.5x go_v5"] == (
        report["ratios"]["primordial_soup"]["go_v5"] >= 1.5)
    assert report["machine"]["cores"] >= 1 and "numpy" in report["machine"]["versions"]


def test_games_and_peers_are_run_in_turns_and_reported_as_medians(monkeypatch):
    """One run of every game and peer per round, so that a drifting machine shifts every
    figure alike; each figure is the median of its rounds."""
    calls = []
    speeds = iter([100.0, 900.0, 10.0, 300.0, 700.0, 30.0, 200.0, 800.0, 20.0])

    def fake_run(name):
        calls.append(name)
        return {"steps_per_second": next(speeds), "games_per_second": 1.0,
                "decisions_per_game": 50.0, "games": 2}

    monkeypatch.setattr(bench, "bench_game", lambda game, *a, **k: fake_run(game))
    monkeypatch.setattr(bench, "peer_env", lambda name: name)
    monkeypatch.setattr(bench, "play_random", lambda env, *a, **k: fake_run(env))
    games, peers = bench.bench_round_robin([("origin", 3)], "flat", ["go_v5", "chess_v6"],
                                           seconds=1.0, repeats=3)
    assert calls == ["origin", "go_v5", "chess_v6"] * 3
    assert games[0]["steps_per_second"] == 200.0  # median of 100, 300, 200
    assert [p["steps_per_second"] for p in peers] == [800.0, 20.0]
    assert games[0]["games"] == 6 and games[0]["decisions_per_game"] == 50.0


def test_profile_report_names_where_a_step_spends_its_time(capsys):
    report = bench.main(["--game", "origin", "--seconds", "0.5", "--repeats", "1",
                         "--profile"])
    (profile,) = report["profiles"]
    assert profile["game"] == "origin" and profile["agent_steps"] > 10
    functions = profile["functions"]
    assert len(functions) == 25
    own = [f["own_us_per_step"] for f in functions]
    assert own == sorted(own, reverse=True) and own[-1] >= 0
    assert all(f["total_us_per_step"] >= f["own_us_per_step"] for f in functions)
    # the encoder and the rules are where an Origin step goes
    names = " ".join(f["function"] for f in functions)
    assert "origin/encoders" in names and "core/aec.py" in names
    assert "origin profile (cProfile" in capsys.readouterr().out


def test_memory_report(capsys):
    report = bench.main(["--game", "origin", "--seconds", "0.2", "--repeats", "1",
                         "--memory"])
    (memory,) = report["memory"]
    assert memory["envs"] == 64
    assert 0 < memory["env_mb"] < memory["process_rss_mb"]
    assert "origin memory:" in capsys.readouterr().out


def test_peers_without_their_dependencies_say_what_to_install(monkeypatch):
    real_import = builtins.__import__

    def no_chess(name, *args, **kwargs):
        if name == "chess" or name.startswith("pettingzoo.classic"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_chess)
    with pytest.raises(SystemExit, match=r"pip install 'primeval\[bench\]'"):
        bench.peer_env("chess_v6")


def test_bad_settings_are_refused():
    with pytest.raises(SystemExit, match="--seconds"):
        bench.main(["--game", "origin", "--seconds", "0"])
