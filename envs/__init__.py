"""primeval environments: ``primordial_soup_v1``, ``origin_v0``, the catalogue of games
(:mod:`primeval.envs.games`), the shared adapter (:mod:`primeval.envs.core`) and tools for
env authors (:mod:`primeval.envs.testing`).

The ids are registered by ``import primeval`` (:mod:`primeval.registration`).
"""
