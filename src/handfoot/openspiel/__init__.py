"""Hand and Foot as an OpenSpiel game (``pyspiel.load_game("python_handfoot")``).

Importing this package registers the game with ``pyspiel.register_game`` (it needs the
``openspiel`` extra: ``pip install "handfoot[openspiel]"``).  It is a sequential,
imperfect-information game, registered twice: ``python_handfoot`` pays the margins
(zero-sum, as the PettingZoo and Gymnasium environments pay) and ``python_handfoot_scores`` the
team scores (general-sum):

- **Chance.** The first state is a chance node with ``deals`` equally likely outcomes; outcome
  ``i`` plays the engine's game of seed ``seed_base + i``, whose seed then fixes every round's
  shuffle.  Listing the shuffles themselves as outcomes is out of the question (a shuffle of
  five decks has hundreds of digits' worth of arrangements), and one outcome per seed keeps
  games reproducible: the game OpenSpiel plays after outcome ``i`` is the one ``handfoot``
  deals for that seed.  No later chance node exists: draws come off the shuffled stock.
- **Players** are the seats (0 to ``players - 1``); the actions are the engine's fixed atomic
  index (``handfoot.actions.ATOMIC_ACTIONS``), legal ones from ``Game.legal_actions()``.
- **Rewards** are paid when a round ends, in thousands of points: each seat gets its team's
  round points minus the mean of the other teams' (``python_handfoot``) or its team's round
  points (``python_handfoot_scores``).  **Returns** are the sum of the rewards so far.
- **Observations** come from the seat's view only (``handfoot.views.view``): the tensor is the
  learning environment's vector (docs/RL.md), the string the view's JSON form.  The
  information-state string adds the game's public action history (every atomic action is seen
  by the whole table); its tensor adds the round's public history summed per seat (the cards
  each seat discarded, per kind, and how often it took the pile).
- **Resampling** (``resample_from_infostate``, used by information-set MCTS) deals the unseen
  cards at random into a world that agrees with the view (``handfoot.views.sample_world``).

Parameters: ``preset`` (a preset name), ``players``, ``rounds`` (0: the preset's),
``turn_cap`` (0: the preset's), ``deals`` and ``seed_base``.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"handfoot.openspiel needs OpenSpiel ({err.name} is missing): "
        'pip install "handfoot[openspiel]"'
    ) from None

from .game import (
    GAME_TYPE,
    SCORES_GAME_TYPE,
    SCORES_NAME,
    SHORT_NAME,
    HandfootGame,
    HandfootScoresGame,
    HandfootState,
)

pyspiel.register_game(GAME_TYPE, HandfootGame)
pyspiel.register_game(SCORES_GAME_TYPE, HandfootScoresGame)

__all__ = ["GAME_TYPE", "SCORES_GAME_TYPE", "SCORES_NAME", "SHORT_NAME", "HandfootGame",
           "HandfootScoresGame", "HandfootState"]
