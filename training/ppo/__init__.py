"""PPO training with sb3-contrib's MaskablePPO: :mod:`.train` (the run: envs, opponents,
checkpoints, evaluation, curves), :mod:`.config` (the YAML config), :mod:`.masking` (the
masked policy), :mod:`.torch_runtime` (torch threads per phase)."""
