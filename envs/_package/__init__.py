"""primeval: RL environments for Primordial Soup and Origin.

``import primeval`` registers the environments with PettingZoo and Gymnasium (see
:mod:`primeval.registration`) without importing either library itself.
"""

from primeval.registration import make, register_when_imported

register_when_imported()

__all__ = ["make"]
