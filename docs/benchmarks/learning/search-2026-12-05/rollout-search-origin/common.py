"""What this folder's diagnosis scripts share: the positions they ask the rollout search at,
and how they report (printed, and written with ``--out``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np

from primeval.training.agents.heuristics.bench import record_positions
from primeval.training.evaluate import write_json


def search_positions(agent: Any, count: int, every: int, seed: int
                     ) -> Iterator[tuple[Any, Any, int, np.ndarray, list[int]]]:
    """Up to ``count`` positions of the heuristics bench's games (``record_positions("origin",
    3, 200, seed)``): every ``every``-th decision with at least three legal moves, as
    ``(rules, state, seat, legal, candidates)``, the candidates the search's (``agent``, a
    :class:`~primeval.training.agents.rollouts.RolloutSearchAgent`)."""
    kept = 0
    for i, (_rules, state, mask, seat) in enumerate(
            record_positions("origin", 3, 200, seed=seed)):
        legal = np.flatnonzero(mask)
        if i % every or legal.size < 3:
            continue
        rules = agent.rules_for(state)
        yield rules, state, seat, legal, agent.candidates(rules, state, seat, legal)
        kept += 1
        if kept == count:
            return


def report(result: dict, out: str | None) -> None:
    """Print ``result`` as one JSON line; write it to ``out`` if given."""
    print(json.dumps(result))
    if out:
        write_json(out, result)
