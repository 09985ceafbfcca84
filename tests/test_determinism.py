"""Determinism across processes: the same seed gives byte-identical game records (``primeval
evaluate --record``) and transcripts in separate processes, whatever the string hash seed and
whatever other code does with the global generators of ``random``, ``numpy.random`` and
``torch`` before and during the games."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from primeval.envs.testing.golden import transcript
from primeval.training.replay import replay_record

# (game, players, agents by spec, games, seed); "ppo" is a small untrained checkpoint, the one
# agent that runs torch.
CASES = {
    "primordial_soup": ("primordial_soup", 3, ["ppo", "heuristic", "random"], 2, 31),
    "origin": ("origin", 2, ["heuristic", "random"], 2, 57),
}
TRANSCRIPT_SEED = 7  # not the golden transcripts' seed: other games

# Runs `primeval evaluate --record` (through cli.main) for every case, and writes a transcript.
# With "noise" = [seed, k] it first seeds the global generators of random, numpy.random and
# torch with values of its own and draws from them, and draws k values from each again before
# every move of every agent (make_agent is wrapped for that). It prints the next value of each
# global generator, which shows that the noise did change them, and the moves made with noise.
SCRIPT = r"""
import json, random, sys
from pathlib import Path

import numpy as np
import torch

from primeval.training import cli, evaluate
from primeval.envs.testing.golden import transcript

job = json.loads(sys.argv[1])
noise = job["noise"]
noisy_moves = 0


def draw(k):
    random.random()
    np.random.random(k)
    torch.rand(k)


if noise:
    seed, k = noise
    random.seed(seed)
    np.random.seed(seed + 1)
    torch.manual_seed(seed + 2)
    draw(k)
    make_agent = evaluate.make_agent

    class Noisy:
        def __init__(self, agent):
            self.agent, self.name = agent, agent.name

        def act(self, *args, **kwargs):
            global noisy_moves
            noisy_moves += 1
            draw(k)
            return self.agent.act(*args, **kwargs)

    evaluate.make_agent = lambda s, g, seed=None, **kw: Noisy(make_agent(s, g, seed, **kw))

for case in job["cases"]:
    code = cli.main(["evaluate", "--game", case["game"], "--players", str(case["players"]),
                     "--agents", *case["agents"], "--games", str(case["games"]),
                     "--seed", str(case["seed"]), "--quiet", "--record", case["record"]])
    assert code == 0, code
    Path(case["transcript"]).write_text(
        transcript(case["game"], case["players"], seed=job["transcript_seed"]), encoding="utf-8")
print(json.dumps({"next": [random.random(), float(np.random.random()), float(torch.rand(1))],
                  "noisy_moves": noisy_moves}))
"""


@pytest.fixture(scope="module")
def checkpoint(untrained_checkpoint) -> Path:
    """A small untrained MaskablePPO model for 3-player Primordial Soup."""
    return untrained_checkpoint()


def run(folder: Path, checkpoint: Path, hash_seed: str, noise: list[int] | None
        ) -> tuple[dict[str, bytes], dict]:
    """One process (see SCRIPT); returns its files by name and what it printed."""
    folder.mkdir()
    cases = []
    for name, (game, players, agents, games, seed) in CASES.items():
        specs = [f"ppo:{checkpoint}" if a == "ppo" else a for a in agents]
        cases.append({"game": game, "players": players, "agents": specs, "games": games,
                      "seed": seed, "record": str(folder / f"{name}.jsonl"),
                      "transcript": str(folder / f"{name}.txt")})
    job = {"cases": cases, "noise": noise, "transcript_seed": TRANSCRIPT_SEED}
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(job)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout.strip().splitlines()[-1])
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}, printed


@pytest.mark.slow
def test_same_seed_same_records_across_processes_and_global_generators(tmp_path, checkpoint):
    quiet, quiet_out = run(tmp_path / "quiet", checkpoint, "0", None)
    noisy, noisy_out = run(tmp_path / "noisy", checkpoint, "4242", [11, 1])
    noisier, noisier_out = run(tmp_path / "noisier", checkpoint, "987654321", [99, 5])
    # The three processes wrote the same bytes: records and transcripts ...
    assert sorted(quiet) == sorted(f"{name}{ext}" for name in CASES for ext in (".jsonl", ".txt"))
    for name in quiet:
        assert noisy[name] == quiet[name], name
        assert noisier[name] == quiet[name], name
    # ... although the noisy ones drew from the global generators before every move (of both
    # games), and the three left those generators in different states.
    moves = sum(len(json.loads(line)["actions"]) for line in quiet["origin.jsonl"].splitlines())
    assert quiet_out["noisy_moves"] == 0
    assert noisy_out["noisy_moves"] == noisier_out["noisy_moves"] > moves
    assert len({json.dumps(out["next"]) for out in (quiet_out, noisy_out, noisier_out)}) == 3
    # The records are whole games that replay to their scores.
    for name, (game, players, _agents, games, seed) in CASES.items():
        rows = [json.loads(line) for line in quiet[f"{name}.jsonl"].decode().splitlines()]
        assert [r["seed"] for r in rows] == [seed + g for g in range(games)]
        for row in rows:
            assert row["game"] == game and row["players"] == players
            assert replay_record(row, render="none", stdout=io.StringIO()) == row["scores"]
        # The transcript of this process (yet another hash seed) is the same text too.
        assert quiet[f"{name}.txt"].decode() == transcript(game, players, seed=TRANSCRIPT_SEED)
