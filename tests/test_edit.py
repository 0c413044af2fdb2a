"""Game.edit: scenarios change a game by hand and it answers from the changed table."""

from __future__ import annotations

from handfoot.cards import KING
from handfoot.presets import preset
from handfoot.views import view
from scenario import game, legal_texts

HF = "hand-and-foot"


def test_an_edit_is_seen_by_the_legal_list_and_the_views() -> None:
    g = game(preset(HF), "K K K 9 | 4", stock="4 6 4 6")
    g.apply("draw")
    assert "meld K K K" in legal_texts(g)
    assert not view(g, 1).teams[0].opened
    with g.edit() as same:
        assert same is g
        g.hands[0][KING] = 0  # the kings leave the hand
        g.hand_n[0] = sum(g.hands[0])
        g.opened[0] = True
    assert not any(t.startswith("meld K") for t in legal_texts(g))
    assert view(g, 1).teams[0].opened and view(g, 0).hand[KING] == 0


def test_an_edit_leaves_the_history_and_version_alone() -> None:
    g = game(preset(HF), "K K K 9 | 4")
    g.apply("draw")
    history, version = list(g.history or []), g.version
    with g.edit():
        g.opened[0] = True
    assert g.history == history and g.version == version
