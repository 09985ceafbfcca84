"""The benchmark: fixed tasks, a reference zoo shipped with the package, any agent.

``primeval benchmark --task soup-4p --agent SPEC`` (:func:`run_task`) scores an agent on a
task (:mod:`.tasks`) against the task's zoo opponents (:mod:`.zoo`) in duplicate games;
``--leaderboard`` rates the zoo (:mod:`.ratings`). Agents: specs, zoo names, Python callables
(:func:`callable_agent`), torch modules, other processes (:mod:`.protocol`). See
``docs/benchmark.md``.
"""

from __future__ import annotations

from primeval.training.benchmark.agents import (
    CallableAgent,
    TorchPolicyAgent,
    benchmark_agent,
    callable_agent,
)
from primeval.training.benchmark.run import format_result, run_task, task_env
from primeval.training.benchmark.tasks import TASKS, Task, get_task

__all__ = [
    "TASKS",
    "CallableAgent",
    "Task",
    "TorchPolicyAgent",
    "benchmark_agent",
    "callable_agent",
    "format_result",
    "get_task",
    "run_task",
    "task_env",
]
