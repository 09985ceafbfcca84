"""The seeds of a training run: one :class:`numpy.random.SeedSequence` per run, with a named
stream for each consumer (env workers, the model, the opponents, the evaluations, the
rating games, the imitation games, RLlib).

Every seed a run uses is ``RunSeeds(config.seed).spawn(stream, *keys)``: the 31-bit state
of the sequence whose spawn key is the stream's place in :data:`STREAMS` followed by the
keys (ints as they are, strings by their CRC-32), so a seed depends on the run's seed and
its name only, never on how many were drawn before or in which process. No offset is added
by hand anywhere: streams cannot overlap, whatever the seed.

    seeds = RunSeeds(7)
    seeds.spawn("env_workers", 3)            # the seed of env worker 3
    evaluation = seeds.child("evaluation", 100_000)  # the evaluation at step 100k
    evaluation.spawn("random", 1), evaluation.rng("lineups")
"""

from __future__ import annotations

import zlib

import numpy as np

#: The named streams of a run, in a fixed order (a stream's place is part of its seeds:
#: add new ones at the end).
STREAMS = (
    "env_workers",  # the training envs' reset seeds, by rank (their opponent draws follow)
    "model",  # MaskablePPO's seed (its torch initialisation and sampling)
    "opponents",  # the policy being trained as an opponent (its sampling)
    "evaluation",  # the evaluations during training, by step (or iteration)
    "final_evaluation",  # the evaluation after training
    "rating_games",  # the league's rating games, by step ("final" after training)
    "imitation",  # the heuristic's games and the shuffling of the imitation
    "rllib",  # RLlib's own seed (``debugging(seed=...)``)
    "selection",  # the games choosing the shipped policy (``select``), the same for each
    "teacher",  # expert iteration's warm start: the teacher's games and the learning's batches
    "collect",  # ``collect: rollout``: each part's action sampling, by part and rollout
)


def _key(part: int | str) -> int:
    if isinstance(part, str):
        return zlib.crc32(part.encode("utf-8"))
    if isinstance(part, bool) or not isinstance(part, int | np.integer) or part < 0:
        raise ValueError(f"a seed key is a non-negative int or a string, got {part!r}")
    return int(part)


class Seeds:
    """One node of a run's seed tree: a ``SeedSequence`` and the keys that lead to it."""

    def __init__(self, entropy: int, path: tuple[int, ...] = ()) -> None:
        if isinstance(entropy, bool) or not isinstance(entropy, int | np.integer) or entropy < 0:
            raise ValueError(f"seed must be a non-negative int, got {entropy!r}")
        self.entropy = int(entropy)
        self.path = path

    def child(self, *keys: int | str) -> Seeds:
        """The sub-stream named by ``keys`` (ints or strings)."""
        return Seeds(self.entropy, self.path + tuple(_key(k) for k in keys))

    def sequence(self, *keys: int | str) -> np.random.SeedSequence:
        """The ``SeedSequence`` of the sub-stream ``keys``."""
        node = self.child(*keys)
        return np.random.SeedSequence(node.entropy, spawn_key=node.path)

    def spawn(self, *keys: int | str) -> int:
        """The int seed of the sub-stream ``keys`` (in ``[0, 2**31)``: any library takes it)."""
        return int(self.sequence(*keys).generate_state(1, dtype=np.uint32)[0] >> 1)

    def rng(self, *keys: int | str) -> np.random.Generator:
        """A generator of the sub-stream ``keys``."""
        return np.random.default_rng(self.sequence(*keys))

    def __repr__(self) -> str:
        return f"Seeds({self.entropy}, path={self.path})"


class RunSeeds(Seeds):
    """The root of a run's seeds: its first key must be one of :data:`STREAMS`."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)

    def child(self, stream: int | str, *keys: int | str) -> Seeds:
        if stream not in STREAMS:
            raise ValueError(f"unknown seed stream {stream!r}; the streams: {', '.join(STREAMS)}")
        return Seeds(self.entropy, (STREAMS.index(stream), *(_key(k) for k in keys)))


def as_seeds(seed: int | Seeds) -> Seeds:
    """A :class:`Seeds` node: ``seed`` itself, or the root of the int ``seed``'s tree."""
    return seed if isinstance(seed, Seeds) else Seeds(seed)
