"""Search guided by a network, and expert iteration: the policy-value network
(:mod:`.network`), its training loop (:mod:`.train`) and its config (:mod:`.config`)."""
