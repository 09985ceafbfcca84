"""primeval: RL environments for Primordial Soup and Origin.

Importing ``primeval`` registers the environments (see ``primeval.envs.registration``).
"""

from primeval.envs import make

__all__ = ["make"]
