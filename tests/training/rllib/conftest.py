"""One local Ray for every RLlib test of the session (the RLlib venv, ``make test``)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def local_ray():
    """A local Ray with 2 CPUs (two EnvRunners fit on a 2-core machine), shut down after."""
    ray = pytest.importorskip("ray")
    from primeval.training.rllib.train import init_ray

    init_ray("", 2)
    yield ray
    ray.shutdown()
