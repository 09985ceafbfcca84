"""A run's seeds (``primeval.training.seeding``): one SeedSequence per run, named streams,
and the same config and seed train the same ``policy.pth`` in two separate processes."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from primeval.training.seeding import STREAMS, RunSeeds, Seeds, as_seeds

ROOT = Path(__file__).resolve().parents[2]


def test_a_seed_is_its_seed_sequence_spawn_key():
    """``spawn(stream, *keys)`` is the state of the SeedSequence with the stream's place and
    the keys as its spawn key: the child ``SeedSequence(seed).spawn`` would give."""
    seeds = RunSeeds(11)
    child = np.random.SeedSequence(11).spawn(len(STREAMS))[STREAMS.index("env_workers")]
    grandchild = child.spawn(4)[3]
    assert seeds.spawn("env_workers", 3) == int(grandchild.generate_state(1, np.uint32)[0] >> 1)


def test_streams_and_keys_give_different_seeds():
    seeds = RunSeeds(0)
    drawn = {seeds.spawn("env_workers", rank) for rank in range(64)}
    drawn |= {seeds.spawn(stream) for stream in STREAMS}
    drawn |= {seeds.child("evaluation", step).spawn("games") for step in range(0, 10_000, 512)}
    assert len(drawn) == 64 + len(STREAMS) + 20
    assert all(0 <= s < 2**31 for s in drawn)
    # the old offsets made seed s's worker 1000 seed s+1's worker 0; streams never do that
    assert RunSeeds(0).spawn("env_workers", 1000) != RunSeeds(1).spawn("env_workers", 0)
    assert RunSeeds(0).spawn("model") != RunSeeds(1).spawn("model")


def test_a_seed_depends_on_its_name_only():
    a, b = RunSeeds(5), RunSeeds(5)
    first = [a.spawn("rating_games", 1), a.spawn("model")]
    assert [b.spawn("model"), b.spawn("rating_games", 1)] == first[::-1]
    assert a.child("imitation").spawn("bot", 2) == b.child("imitation", "bot", 2).spawn()
    assert list(a.rng("evaluation", 3).integers(1000, size=5)) == list(
        b.rng("evaluation", 3).integers(1000, size=5)
    )


def test_bad_streams_and_keys_are_refused():
    with pytest.raises(ValueError, match="unknown seed stream 'workers'; the streams: "):
        RunSeeds(0).spawn("workers", 1)
    with pytest.raises(ValueError, match="non-negative int or a string, got -1"):
        RunSeeds(0).spawn("env_workers", -1)
    with pytest.raises(ValueError, match="seed must be a non-negative int, got -3"):
        RunSeeds(-3)
    with pytest.raises(ValueError, match="got True"):
        Seeds(True)


def test_as_seeds_takes_an_int_or_a_stream():
    node = RunSeeds(2).child("imitation")
    assert as_seeds(node) is node
    assert as_seeds(9).spawn("x") == Seeds(9).spawn("x")


def test_no_hand_made_offsets_left_in_training():
    """The old derivations (``seed * 1000 + rank``, ``seed + 777``, ``10_000 + n``, ...) are
    gone from training/, except ``primeval evaluate``'s documented tournament seeding."""
    import re

    pattern = re.compile(
        r"seed \* 1000|seed \+ (777|7919|1\b|10_000)|(10|20)_000 \+ n"
        r"|123_456|654_321"
    )
    # The rollout search seeds its bot one past each pair's 63-bit draw of the agent's own
    # generator (the chance stream takes the draw itself): not an offset of a run's seed.
    allowed = {("training/agents/rollouts.py",
                "bot.seed(seed + 1)  # a pair's draw of the agent's generator, plus one: "
                "not a run seed")}
    hits = [
        f"{path.relative_to(ROOT)}:{i}"
        for path in (ROOT / "training").rglob("*.py")
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
        and (str(path.relative_to(ROOT)), line.strip()) not in allowed
    ]
    assert hits == []


def _policy_bytes(run: Path) -> bytes:
    with zipfile.ZipFile(run / "model.zip") as z:
        return z.read("policy.pth")


@pytest.mark.slow
def test_the_same_config_and_seed_train_the_same_policy_in_two_processes(tmp_path):
    """``primeval train`` twice, in two processes with different hash seeds: the trained
    ``policy.pth`` is byte-identical; another seed trains another one."""
    tiny = [
        "--set",
        "n_envs=2",
        "--set",
        "ppo.n_steps=64",
        "--set",
        "ppo.batch_size=64",
        "--set",
        "ppo.n_epochs=1",
        "--set",
        "network.net_arch=[16]",
        "--set",
        "eval.every=128",
        "--set",
        "eval.games=2",
        "--set",
        "eval.final_games=2",
        "--set",
        "select.games=2",
        "--set",
        "league.rating_games=2",
        "--set",
        "checkpoint_every=128",
        "--set",
        "torch_threads=1",
        "--set",
        "opponents={random: 1, heuristic: 1}",
        "--total-steps",
        "256",
    ]

    def run(name: str, seed: int, hash_seed: str) -> Path:
        out = tmp_path / name
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "primeval.training.cli",
                "train",
                "--config",
                "primordial_soup/default",
                "--seed",
                str(seed),
                "--out",
                str(out),
                "--quiet",
                *tiny,
            ],
            check=True,
            env=env,
            cwd=tmp_path,
            capture_output=True,
            timeout=600,
        )
        return out

    first, second, other = run("a", 3, "1"), run("b", 3, "2"), run("c", 4, "1")
    assert _policy_bytes(first) == _policy_bytes(second)
    assert _policy_bytes(first) != _policy_bytes(other)
    assert (first / "metrics.csv").read_text().splitlines()[1].split(",")[3:] == (
        second / "metrics.csv"
    ).read_text().splitlines()[1].split(",")[3:]
