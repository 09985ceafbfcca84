"""GamesVecEnv (vec_env: vector): SB3's VecEnv over the vector env plays the games of SB3's
DummyVecEnv and of BatchedOpponentsVecEnv; with worker processes, the same games again."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from primeval.envs.games import GAMES  # noqa: E402
from primeval.training.agents import RandomAgent, make_heuristic  # noqa: E402
from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.ppo.config import ConfigError, load_config  # noqa: E402
from primeval.training.ppo.league import League  # noqa: E402
from primeval.training.ppo.train import make_vec_env, train  # noqa: E402
from primeval.training.ppo.vec_env import BatchedOpponentsVecEnv, GamesVecEnv  # noqa: E402
from primeval.wrappers.single_agent import SingleAgentEnv  # noqa: E402


class SeededGame:
    """A picklable env factory (for worker processes): game ``i``'s own opponents and seed."""

    def __init__(self, game: str, seed: int) -> None:
        self.game, self.seed = game, seed

    def __call__(self) -> SingleAgentEnv:
        env = SingleAgentEnv(
            GAMES[self.game].raw_env(3),
            opponents=[RandomAgent(), make_heuristic(self.game)],
            shaping=0.05,
        )
        env.reset(seed=self.seed)
        return env


def play(vec, steps: int, seed: int = 0):
    """Random legal learner actions (through sb3-contrib's get_action_masks); everything the
    vector env returns, step by step, and the infos of the games that ended."""
    rng = np.random.default_rng(seed)
    out = [vec.reset().copy()]
    for _ in range(steps):
        masks = get_action_masks(vec)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        ended = {i: infos[i] for i in np.flatnonzero(dones)}
        out.append((obs.copy(), rewards.copy(), dones.copy(), ended))
    return out


def same(a, b) -> int:
    """The two runs returned the same; the number of games that ended."""
    assert np.array_equal(a[0], b[0])
    ends = 0
    for x, y in zip(a[1:], b[1:], strict=True):
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])
        assert x[1].dtype == y[1].dtype and np.array_equal(x[2], y[2])
        assert x[3].keys() == y[3].keys()
        for i in x[3]:
            ends += 1
            assert x[3][i].keys() == y[3][i].keys()
            for key in x[3][i]:
                assert np.array_equal(np.asarray(x[3][i][key]), np.asarray(y[3][i][key])), key
    return ends


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_games_of_a_dummy_vec_env(game):
    fns = [SeededGame(game, s) for s in (3, 4, 5)]
    dummy, vector = DummyVecEnv(fns), GamesVecEnv(fns)
    dummy.seed(7)
    vector.seed(7)
    assert same(play(dummy, 200), play(vector, 200)) > 0
    assert vector.env_method("action_masks", indices=[1])[0].dtype == bool
    assert vector.get_attr("learner") == dummy.get_attr("learner")


def test_sampled_policy_opponents_as_batched_opponents_vec_env():
    """A sampling policy opponent shared by the games draws its rows in the same order as
    BatchedOpponentsVecEnv does: the same games, in fewer forward passes than decisions."""
    game = GAMES["primordial_soup"]
    model = MaskablePPO(
        "MlpPolicy",
        SingleAgentEnv(game.raw_env(3)),
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [16]},
    )
    calls = []

    def factory(opponent):
        return lambda: SingleAgentEnv(game.raw_env(3), opponents=[opponent, RandomAgent()])

    def run(vec_class):
        opponent = PolicyAgent.from_model(model, deterministic=False, seed=9)
        act_batch = opponent.act_batch
        opponent.act_batch = lambda obs, masks, **kw: (
            calls.append(len(obs)),
            act_batch(obs, masks, **kw),
        )[1]
        vec = vec_class([factory(opponent) for _ in range(4)])
        vec.seed(1)
        return play(vec, 150)

    reference = run(BatchedOpponentsVecEnv)
    calls.clear()
    assert same(reference, run(GamesVecEnv)) > 0
    assert 0 < len(calls) < sum(calls)


def test_two_workers_play_the_games_of_one():
    """Game i is the same game in this process or a worker's (reproducibility of a 2-worker
    run as a whole: the slow training test below)."""
    fns = [SeededGame("primordial_soup", s) for s in (3, 4, 5, 6, 7)]
    runs, learners, masks = [], [], []
    for workers in (1, 2):
        vec = GamesVecEnv(fns, workers=workers)
        vec.seed(11)
        try:
            runs.append(play(vec, 100))
            # attributes and methods reach the games of the workers too
            learners.append(vec.get_attr("learner"))
            masks.append(vec.env_method("action_masks", indices=[3, 4]))
            vec.set_attr("shaping", 0.5, indices=[4])
            assert vec.get_attr("shaping", indices=[3, 4]) == [0.05, 0.5]
        finally:
            vec.close()
    assert same(runs[0], runs[1]) > 0
    assert learners[0] == learners[1]
    assert np.array_equal(masks[0], masks[1])


@pytest.mark.parametrize(
    "workers", [{"vec_env": "vector", "workers": 2}, {"vec_env": "subproc"}], ids=str
)
def test_workers_follow_the_leagues_schedule(tmp_path, workers):
    """A worker's games draw their opponents by the main process's league step (the games
    vec env's workers and SB3's ``SubprocVecEnv``'s)."""
    config = load_config(
        "configs/primordial_soup/default.yaml",
        **{
            **workers,
            "n_envs": 4,
            "league.schedule": [
                {"from_step": 100, "random": 0.0, "heuristic": 1.0, "self_play": 0.0}
            ],
        },
    )
    league = League(config, tmp_path)
    vec = make_vec_env(config, league)
    try:
        vec.reset()
        assert {a.name for seats in vec.get_attr("seat_agents") for a in seats.values()} == {
            "random"
        }
        league.step = 100
        vec.seed(0)
        vec.reset()
        names = {
            a.name for seats in vec.get_attr("seat_agents", indices=[2, 3]) for a in seats.values()
        }
        assert names and "random" not in names
    finally:
        vec.close()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"vec_env": "batched", "workers": 2}, "needs vec_env: vector"),
        ({"vec_env": "vector", "workers": 0}, "workers"),
        ({"vec_env": "vector", "workers": 3, "n_envs": 2}, "at most n_envs"),
        ({"vec_env": "vector", "workers": 2, "opponents.self_play": 0.5}, "self-play"),
    ],
)
def test_bad_worker_configs_name_the_field(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config("configs/primordial_soup/default.yaml", **overrides)


def test_bad_worker_counts_are_refused():
    fns = [SeededGame("primordial_soup", s) for s in (1, 2)]
    for workers in (0, 3):
        with pytest.raises(ValueError, match="between 1 and the number of envs"):
            GamesVecEnv(fns, workers=workers)


@pytest.mark.slow
def test_a_two_worker_training_run_is_reproducible(tmp_path):
    config = load_config(
        "configs/primordial_soup/default.yaml",
        **{
            "total_steps": 512,
            "n_envs": 4,
            "vec_env": "vector",
            "workers": 2,
            "ppo.n_steps": 64,
            "ppo.batch_size": 128,
            "ppo.n_epochs": 1,
            "network.net_arch": [16],
            "eval.every": 10**9,
            "eval.games": 1,
            "eval.final_games": 3,
            "select.games": 2,
            "league.rating_games": 0,
            "torch_threads": 1,
        },
    )
    finals = [train(config, tmp_path / f"run{k}", progress=False) for k in range(2)]
    params = [
        PolicyAgent(tmp_path / f"run{k}" / "model.zip").model.policy.state_dict() for k in range(2)
    ]
    for key in params[0]:
        assert np.array_equal(params[0][key].numpy(), params[1][key].numpy()), key
    assert finals[0]["vs_random"] == finals[1]["vs_random"]


@pytest.mark.slow
def test_one_and_two_workers_train_the_same_weights(tmp_path):
    """workers only chooses which process steps which games: Primordial Soup's default
    config trains byte-equal weights with 1 and 2 workers (so a default's worker count
    changes its speed, never its agent)."""
    params = []
    for workers in (1, 2):
        config = load_config(
            "configs/primordial_soup/default.yaml",
            **{"total_steps": 512, "n_envs": 4, "vec_env": "vector", "workers": workers,
               "ppo.n_steps": 64, "ppo.batch_size": 128, "ppo.n_epochs": 1,
               "network.net_arch": [16], "eval.every": 10**9, "eval.games": 1,
               "eval.final_games": 3, "select.games": 2, "league.rating_games": 0,
               "torch_threads": 1})
        train(config, tmp_path / f"w{workers}", progress=False)
        params.append(PolicyAgent(tmp_path / f"w{workers}" / "model.zip").model.policy
                      .state_dict())
    for key in params[0]:
        assert np.array_equal(params[0][key].numpy(), params[1][key].numpy()), key


def test_a_workers_error_is_raised_naming_the_worker():
    from primeval.training.ppo.vec_env import WorkerError

    fns = [SeededGame("primordial_soup", s) for s in (1, 2)]
    vec = GamesVecEnv(fns, workers=2)
    try:
        vec.reset()
        assert vec.has_attr("action_masks") and not vec.has_attr("no_such_attribute")
        with pytest.raises(AttributeError, match="worker process 1: AttributeError"):
            vec.get_attr("no_such_attribute", indices=[1])
        with pytest.raises(ValueError, match=r"shape \(2,\)"):
            vec.step(np.zeros(3, dtype=int))
        vec.set_attr("illegal_action", "raise", indices=[1])
        masks = get_action_masks(vec)
        actions = masks.argmax(axis=1)
        actions[1] = int(np.flatnonzero(~masks[1])[0])  # a masked-out action in the worker
        with pytest.raises(WorkerError, match="worker process 1: IllegalActionError"):
            vec.step(actions)
    finally:
        vec.close()


@pytest.mark.slow
def test_batched_and_vector_train_the_same_weights(tmp_path):
    """vec_env only chooses how the games are stepped: Origin's default config (heuristic
    opponents, self-play answered in one forward pass) trains byte-equal weights with
    ``batched`` (the default the saved learning runs used) and ``vector`` (today's default),
    which is why tests/learning/ compares configs without vec_env and workers."""
    overrides = {
        "total_steps": 512,
        "n_envs": 4,
        "ppo.n_steps": 64,
        "ppo.batch_size": 128,
        "ppo.n_epochs": 1,
        "network.net_arch": [16],
        "eval.every": 10**9,
        "eval.games": 1,
        "eval.final_games": 3,
            "select.games": 2,
        "league.rating_games": 0,
        "torch_threads": 1,
    }
    params = []
    for kind in ("batched", "vector"):
        config = load_config("configs/origin/default.yaml", vec_env=kind, **overrides)
        train(config, tmp_path / kind, progress=False)
        params.append(PolicyAgent(tmp_path / kind / "model.zip").model.policy.state_dict())
    for key in params[0]:
        assert np.array_equal(params[0][key].numpy(), params[1][key].numpy()), key
