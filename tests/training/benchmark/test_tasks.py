"""Benchmark tasks: the registry, a result's fields, and any agent playing one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from primeval.envs.games import get_game
from primeval.training import cli
from primeval.training.benchmark import TASKS, callable_agent, get_task, run_task
from primeval.training.benchmark.protocol import ProtocolError
from primeval.training.benchmark.run import result_fields
from primeval.training.benchmark.tasks import Task

ROOT = Path(__file__).resolve().parents[3]
CLIENT = ROOT / "docs" / "examples" / "jsonl_random_client.py"


def test_the_tasks_are_fixed_on_the_games_of_this_package():
    assert set(TASKS) == {"soup-3p", "soup-4p", "origin-2p", "origin-3p", "origin-4p"}
    for task in TASKS.values():
        assert task.game_version == get_game(task.game).version
        assert len(task.opponents) == task.players - 1
        assert task.games % task.players == 0 and task.duplicate
        assert get_task(task.id) is task


def test_a_bad_task_is_named():
    with pytest.raises(ValueError, match="unknown benchmark task 'chess'.*soup-4p"):
        get_task("chess")
    with pytest.raises(ValueError, match="version 1, not 7"):
        get_task("soup-4p@7")
    with pytest.raises(ValueError, match="multiple of the players"):
        Task("x", 1, "origin", 0, 3, ("heuristic", "heuristic"), 10)


def test_a_result_carries_the_task_the_agent_the_package_and_the_machine():
    result = run_task("soup-3p", "random", games=3)
    assert tuple(result) == result_fields()
    assert result["task"] == "soup-3p" and result["task_version"] == 1
    assert result["agent"] == "random" and result["official"] is False
    assert result["package"]["version"] == "0.1.0"
    commit = result["package"]["commit"]
    assert commit is None or len(commit.split("+")[0]) == 40
    assert result["machine"]["cpu_count"] >= 1 and result["machine"]["platform"]
    score = result["score"]
    assert score["games"] == 3 and 0 <= score["win_rate"] <= 1
    lo, hi = score["win_rate_ci95"]
    assert lo <= score["win_rate"] <= hi
    assert -1 <= score["mean_reward"] <= 1 and 1 <= score["mean_rank"] <= 3
    json.dumps(result)


def test_the_command_prints_the_score_and_writes_the_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert (
        cli.main(
            [
                "benchmark",
                "--task",
                "origin-2p",
                "--agent",
                "heuristic",
                "--games",
                "2",
                "--json",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "origin-2p@1: heuristic wins" in printed and "95% CI" in printed
    data = json.loads(out.read_text())
    assert data["task"] == "origin-2p" and data["games"] == 2 and data["duplicate"]


def test_a_callable_plays_with_the_legal_actions_named():
    seen = []

    def first_legal(observation, action_mask, info):
        seen.append(info)
        assert observation.shape == (
            get_game("primordial_soup")
            .raw_env(3)
            .observation_space("player_0")["observation"]
            .shape
        )
        action_id, name = info["legal_actions"][0]
        assert action_mask[action_id] and isinstance(name, str) and name
        return action_id

    result = run_task("soup-3p", first_legal, games=3)
    assert result["agent"] == "first_legal" and result["score"]["games"] == 3
    assert {i["seat"] for i in seen} == {0, 1, 2}  # it sat in every seat
    assert all(i["game"] == "primordial_soup" and i["players"] == 3 for i in seen)
    assert callable_agent(first_legal, "origin", 2).name == "first_legal"


def test_a_callable_returning_an_illegal_action_is_named():
    with pytest.raises(ValueError, match="returned action -1, which is not legal"):
        run_task("soup-3p", lambda o, m, i: -1, games=3)
    with pytest.raises(TypeError, match="not an int action id"):
        run_task("soup-3p", lambda o, m, i: "pass", games=3)


def test_a_torch_module_plays_masked():
    torch = pytest.importorskip("torch")
    env = get_game("origin").raw_env(2)
    n_obs = env.observation_space("player_0")["observation"].shape[0]
    n_act = env.action_space("player_0").n
    module = torch.nn.Linear(n_obs, n_act)
    result = run_task("origin-2p", module, games=2)
    assert result["agent"] == "Linear" and result["score"]["games"] == 2


def test_the_jsonl_example_client_plays_through_the_command(tmp_path, capsys):
    out = tmp_path / "r.json"
    agent = f"cmd:{sys.executable} {CLIENT}"
    assert (
        cli.main(
            [
                "benchmark",
                "--task",
                "soup-3p",
                "--agent",
                agent,
                "--games",
                "3",
                "--json",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["agent"] == agent and data["score"]["games"] == 3


def _client(tmp_path, body: str) -> str:
    script = tmp_path / "client.py"
    script.write_text("import json, sys, time\n" + body)
    return f"cmd:{sys.executable} {script}"


HELLO = 'line = sys.stdin.readline()\nprint(json.dumps({"type": "ready"}), flush=True)\n'


@pytest.mark.parametrize(
    ("body", "error"),
    [
        # the agent's exit races the handshake's write: either pipe may see it first
        ("sys.exit(3)\n",
         r"closed its (output|input) before answering the handshake( \(did it exit\?\))?"
         r" \(exit code 3\)"),
        (
            'sys.stdin.readline(); print("hello", flush=True); time.sleep(5)\n',
            "answered the handshake with b'hello",
        ),
        (
            HELLO + 'sys.stdin.readline(); print(json.dumps({"move": 1}), flush=True)\n'
            "time.sleep(5)\n",
            'with no "action"',
        ),
        (
            HELLO + 'sys.stdin.readline(); print(json.dumps({"action": 100000}), flush=True)\n'
            "time.sleep(5)\n",
            "returned action 100000, which is not legal",
        ),
        (HELLO + "time.sleep(30)\n", r"gave no answer to a decision of seat \d within 1 s"),
    ],
)
def test_a_broken_client_is_named(tmp_path, body, error):
    with pytest.raises(ProtocolError, match=error):
        run_task("soup-3p", _client(tmp_path, body), games=3, timeout=1.0)


def test_an_agent_gone_before_a_message_is_written_is_named_as_one_gone_before_its_answer():
    """The other side of the race above, made certain: the agent has exited before the
    harness writes to it, so the write (not the read) finds it gone."""
    import subprocess

    from primeval.training.benchmark.protocol import ProcessAgent

    agent = ProcessAgent(f"{sys.executable} -c 'import sys; sys.exit(3)'", "primordial_soup")
    agent.proc = subprocess.Popen(agent.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    agent.proc.wait()
    with pytest.raises(ProtocolError, match=r"closed its input before answering the "
                       r"handshake \(did it exit\?\) \(exit code 3\)"):
        agent._send({"type": "hello"}, "the handshake")


def test_a_missing_command_is_named():
    with pytest.raises(ProtocolError, match="cannot start 'no-such-agent-binary'"):
        run_task("soup-3p", "cmd:no-such-agent-binary --x", games=3)
    with pytest.raises(ValueError, match="names no command"):
        run_task("soup-3p", "cmd:", games=3)


def test_a_bad_agent_is_named():
    with pytest.raises(TypeError, match="cannot play 42"):
        run_task("soup-3p", 42, games=3)
    with pytest.raises(ValueError, match="unknown agent"):
        run_task("soup-3p", "alphazero", games=3)
    with pytest.raises(ValueError, match="positive multiple of 3"):
        run_task("soup-3p", "random", games=4)


def test_unseeded_agents_do_not_touch_global_random():
    state = np.random.get_state()[1].copy()
    run_task("origin-2p", "random", games=2)
    assert np.array_equal(np.random.get_state()[1], state)


def test_the_same_task_and_seed_give_the_same_score():
    first = run_task("origin-2p", "random", games=2, seed=5)
    again = run_task("origin-2p", "random", games=2, seed=5)
    assert first["score"] == again["score"] and first["lineup"] == again["lineup"]
