"""Origin rules, one module per part of the rulebook.

``setup`` (6.1), ``turn`` (6.2-6.5, the end of a turn and the final round), ``rewards``
(5 and 6.6), ``cards`` (4 and 6.7, every yellow effect kind), ``objectives`` (4.1, every
condition kind), ``scoring`` (6.9); ``common`` holds the shared helpers.
"""

from primeval.envs.origin.rules.engine import OriginRules

__all__ = ["OriginRules"]
