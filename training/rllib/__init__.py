"""RLlib backend (extra ``rllib``): PPO on the AEC env through RLlib's ``PettingZooEnv``,
an action-masking RLModule, one policy shared by every seat, self-play snapshots as extra
policies, EnvRunners on this machine or a Ray cluster.

* :mod:`.config`: the YAML schema (``configs/<game>/rllib.yaml``; needs no ray);
* :mod:`.env`: the game as an RLlib ``MultiAgentEnv``;
* :mod:`.module`: :class:`~.module.MaskedPPOTorchRLModule`;
* :mod:`.train`: the Algorithm, the policy-mapping function, snapshots, checkpoints;
* :mod:`.agent`: :class:`~.agent.RLlibAgent`, the ``rllib:PATH`` agent spec;
* :mod:`.bench`: env steps per second with 0, 1, 2... EnvRunners.
"""
