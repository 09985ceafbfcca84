"""PettingZoo-style entry point: ``from primeval.envs import primordial_soup_v1``."""

from primeval.envs.primordial_soup.env import __doc__ as _doc
from primeval.envs.primordial_soup.env import env, raw_env

__doc__ = _doc
__all__ = ["env", "raw_env"]
