"""Self-play training of the networks the ``strong`` and ``expert`` levels play (docs/RL.md).

``handfoot train`` (handfoot.cli.train) runs it.  ``rollout`` plays the games with NumPy only
(rollout workers: processes or Ray actors); ``model`` and ``train`` need PyTorch (the ``train``
extra) and are imported only when training.  Nothing outside this package imports it, and it
imports the environment's encoder (handfoot.env) and the bots (the teacher, the opponents, the
model format of handfoot.bots.network), never the other way round.
"""
