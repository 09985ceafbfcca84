"""primeval environments: ``primordial_soup_v0``, ``origin_v0``, and the id registry.

Importing this package registers the envs with PettingZoo (``pettingzoo.make("aec",
"primeval/origin-v0")``) and Gymnasium (``gymnasium.make("primeval/Origin-v0")``).
"""

from primeval.envs.registration import ENTRIES, make, register_envs

register_envs()

__all__ = ["ENTRIES", "make", "register_envs"]
