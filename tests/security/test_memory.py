"""Bounded caches: 2,000 games in one process keep its memory flat (issue 22, "Bounded
caches").

Every cache of the envs is bounded (``functools.lru_cache(maxsize=...)`` or a size check):
Primordial Soup's ``_on_space`` met new cube counts game after game without bound (about
2 KB a game). One subprocess plays 2,000 seeded random games, the two games in turn, and
reports its resident memory after game 500 and after game 2,000.

Measured (Linux, Python 3.11): +0.07 MB from game 500 to 2,000 with the bounded caches,
+1.5 MB with ``_on_space`` unbounded again. The bound, 1 MB, leaves fourteen times the
measured growth and still catches an unbounded cache.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Resident memory may grow at most this much from game 500 to game 2,000.
GROWTH_BOUND_MB = 1.0

SCRIPT = """
import gc, json, resource
from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import random_steps

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20

envs = [GAMES[name].raw_env() for name in GAMES]
rss = {}
for game in range(1, 2001):
    env = envs[game % len(envs)]
    env.reset(seed=game)
    for _turn in random_steps(env, game):
        pass
    if game in (500, 2000):
        gc.collect()
        rss[game] = rss_mb()
print(json.dumps(rss))
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc (Linux)")
def test_2000_games_in_one_process_keep_memory_flat():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True
    )
    rss = json.loads(done.stdout.strip().splitlines()[-1])
    growth = rss["2000"] - rss["500"]
    assert growth < GROWTH_BOUND_MB, (
        f"resident memory grew {growth:.2f} MB from game 500 to game 2,000 "
        f"({rss['500']:.1f} -> {rss['2000']:.1f} MB); a cache without bound?"
    )


def test_the_caches_of_the_rules_are_bounded():
    """The rules' function caches have a maxsize."""
    from primeval.envs.origin.rules.pawns import compatible_types
    from primeval.envs.primordial_soup.rules.feeding import ON_SPACE_CACHE_SIZE, _on_space

    assert _on_space.cache_info().maxsize == ON_SPACE_CACHE_SIZE
    assert compatible_types.cache_info().maxsize is not None
