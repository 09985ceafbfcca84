"""PettingZoo-style entry point: ``from primeval.envs import origin_v0``."""

from primeval.envs.origin.env import __doc__ as _doc
from primeval.envs.origin.env import env, raw_env

__doc__ = _doc
__all__ = ["env", "raw_env"]
