"""The learner-step profile's parts: each sampled stack lands in the part its frames say."""

from __future__ import annotations

import os

import pytest

from primeval.training.ppo.profile import _ROOT, PARTS, classify


def own(rel: str) -> str:
    return os.path.join(_ROOT, *rel.split("/"))


SB3 = "/x/site-packages/sb3_contrib/ppo_mask/ppo_mask.py"
ROLLOUT = [(SB3, "learn"), (SB3, "collect_rollouts")]
STEP = [*ROLLOUT, (own("training/ppo/vec_env.py"), "step_wait")]


def test_each_rule():
    assert classify([(SB3, "learn"), (SB3, "train"), ("/x/torch/f.py", "backward")]) == (
        "PPO update"
    )
    heuristic = [
        *STEP,
        (own("envs/core/agents.py"), "agent_action"),
        (own("training/agents/heuristics/base.py"), "act"),
    ]
    assert classify(heuristic) == "opponents' decisions: heuristic"
    policy_hint = [
        *STEP,
        (own("training/agents/policy.py"), "act_batch"),
        (own("training/agents/prior.py"), "prior_hint"),
        (own("training/agents/heuristics/base.py"), "act"),
    ]
    assert classify(policy_hint) == "opponents' decisions: policy"
    assert (
        classify(
            [
                *STEP,
                (own("envs/core/agents.py"), "agent_action"),
                (own("envs/core/agents.py"), "act"),
            ]
        )
        == "opponents' decisions: random"
    )
    learner_hint = [
        *STEP,
        (own("training/ppo/prior.py"), "_observation"),
        (own("training/agents/prior.py"), "prior_hint"),
        (own("training/agents/heuristics/base.py"), "act"),
    ]
    assert classify(learner_hint) == "prior's hint"
    assert (
        classify(
            [
                *STEP,
                (own("wrappers/single_agent.py"), "_score_lead"),
                (own("envs/origin/rules/scoring.py"), "total"),
            ]
        )
        == "reward shaping"
    )
    assert (
        classify(
            [
                *STEP,
                (own("envs/core/aec.py"), "step"),
                (own("envs/origin/rules/turn.py"), "legal"),
                ("/x/numpy/core/numeric.py", "count_nonzero"),
            ]
        )
        == "rules"
    )
    assert (
        classify(
            [
                *STEP,
                (own("envs/core/aec.py"), "observe"),
                (own("envs/origin/encoders_fast.py"), "fill"),
            ]
        )
        == "encoder"
    )
    assert classify([*STEP, (own("envs/core/aec.py"), "step")]) == "adapter (env, wrappers)"
    assert classify([*ROLLOUT, ("/x/sb3_contrib/common/maskable/policies.py", "forward")]) == (
        "policy forward (rollout)"
    )
    assert classify([*ROLLOUT, ("/x/stable_baselines3/common/buffers.py", "add")]) == (
        "SB3, torch and the rest"
    )


def test_every_part_is_in_the_table():
    assert len(set(PARTS)) == len(PARTS) == 11


def test_reference_bots_are_swapped_in_for_the_run_and_out_after_it():
    """``--bots reference`` plays the plain classes; the fast defaults come back after."""
    from primeval.training.agents.heuristics import heuristic_class
    from primeval.training.agents.heuristics.origin import (
        OriginHeuristic,
        ReferenceOriginHeuristic,
    )
    from primeval.training.agents.heuristics.primordial_soup import (
        PrimordialSoupHeuristic,
        ReferencePrimordialSoupHeuristic,
    )
    from primeval.training.ppo.profile import _bots

    with _bots("reference"):
        assert heuristic_class("origin") is ReferenceOriginHeuristic
        assert heuristic_class("primordial_soup") is ReferencePrimordialSoupHeuristic
    assert heuristic_class("origin") is OriginHeuristic
    assert heuristic_class("primordial_soup") is PrimordialSoupHeuristic
    try:
        with _bots("reference"):
            raise RuntimeError("a failed run")
    except RuntimeError:
        pass
    assert heuristic_class("origin") is OriginHeuristic


def test_build_run_takes_a_config_and_refuses_one_for_the_other_game(tmp_path):
    """``--config`` profiles that run (here the learned-alone shaped MLP's: no prior, 8
    envs) with its games in this process (the profile samples it), and a config for the
    other game is refused by name before anything is built."""
    from primeval.training.ppo.profile import build_run, main

    config = tmp_path / "config.yaml"
    config.write_text(
        "game: origin\nplayers: 3\nn_envs: 2\nshaping: 0.25\nprior:\n  agent: none\n"
        "ppo:\n  n_steps: 8\n  batch_size: 16\nvec_env: vector\nworkers: 2\ncollect: rollout\n"
    )
    built, vec, model, _step = build_run("origin", str(tmp_path / "run"), config_path=str(config))
    try:
        assert built.prior.agent == "none" and built.shaping == 0.25
        assert built.workers == 1 and built.collect == "step"  # the profile's one process
        assert vec.num_envs == 2 and model.n_steps == 8
    finally:
        vec.close()
    with pytest.raises(ValueError, match="for origin, not primordial_soup"):
        build_run("primordial_soup", str(tmp_path / "run2"), config_path=str(config))
    with pytest.raises(SystemExit):
        main(["--game", "primordial_soup", "--config", str(config)])
    with pytest.raises(SystemExit):
        main(["--game", "origin", "--config", str(tmp_path / "missing.yaml")])
