"""The ``policy`` bot: a trained MaskablePPO model seated like any bot (``policy:path=FILE``).

Without the training packages the bot still parses and refuses in one line; with them
(sb3-contrib and torch, the ``train`` extra) a small model is trained here, saved, loaded
lazily and played in the arena, every choice one of the engine's legal actions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from handfoot.bots import BotError, make_bot
from handfoot.cli.main import main

EXAMPLE = Path(__file__).parent.parent / "examples" / "policy-hand-and-foot.zip"


def test_policy_needs_a_path() -> None:
    with pytest.raises(BotError, match="policy:path=FILE"):
        make_bot("policy")


def test_policy_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="no model file at"):
        make_bot(f"policy:path={tmp_path / 'missing.zip'}")


def test_other_options_stay_numbers() -> None:
    with pytest.raises(BotError, match="is not a number"):
        make_bot("search:worlds=many")


def test_arena_reports_a_missing_model_in_one_line(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    code = main(["arena", "--bots", f"policy:path={tmp_path}/none.zip", "random", "--deals",
                 "1", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "no model file" in err


def test_missing_packages_give_one_line(tmp_path: Path) -> None:
    """With torch unavailable the bot says what to install, without a traceback."""
    model = tmp_path / "m.zip"
    model.write_bytes(b"not a model")
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from handfoot.bots import make_bot\n"
        "from handfoot.bots.policy import PolicyError\n"
        "from handfoot.engine import Game\nfrom handfoot.presets import preset\n"
        "from handfoot.views import view\n"
        "g = Game.new(preset('hand-and-foot'), seed=1)\n"
        "try:\n"
        f"    bot = make_bot('policy:path={model}')\n"
        "    bot.choose(view(g, g.actor), g.legal_actions())\n"
        "except PolicyError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.startswith("bot 'policy' needs NumPy, PyTorch and sb3-contrib (torch is "
                          "missing)") and 'pip install torch "handfoot[train]"' in out
    assert out.count("\n") == 1


@pytest.mark.parametrize("argv", [
    # play loads the terminal game's modules first: about two seconds, so in the full run only
    pytest.param(["play", "--bots", f"policy:path={EXAMPLE}"], marks=pytest.mark.slow),
    ["arena", "--bots", f"policy:path={EXAMPLE}", "random", "--deals", "1", "--jobs", "1"],
])
def test_without_numpy_the_command_names_the_extra_in_one_line(argv: list[str]) -> None:
    """No NumPy (nor what needs it): one line naming the extra to install, exit 2, before
    the game starts; it used to be "internal error: ModuleNotFoundError"."""
    code = (
        "import sys\n"
        "for name in ('numpy', 'torch', 'sb3_contrib'):\n    sys.modules[name] = None\n"
        "from handfoot.cli.main import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("handfoot: error: bot "
                                                                    "'policy' needs NumPy")
    assert "(numpy is missing)" in done.stderr and '"handfoot[train]"' in done.stderr


@pytest.fixture(scope="module")
def small_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    from handfoot.env import HandfootEnv

    env = HandfootEnv("hand-and-foot", players=2, rounds=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(128)
    path = tmp_path_factory.mktemp("policy") / "small.zip"
    model.save(path)
    return path


@pytest.mark.slow
def test_a_trained_model_plays_legal_actions_in_the_arena(
        small_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", f"policy:path={small_model}", "random", "--deals", "1",
                 "--rounds", "1", "--players", "2", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    pair = json.loads(out)["pairs"][0]
    assert pair["a"].startswith("policy") and pair["games"] == 2


@pytest.mark.slow
def test_the_bot_chooses_from_the_legal_list(small_model: Path) -> None:
    from handfoot.bots.base import ask
    from handfoot.engine import Game
    from handfoot.presets import preset

    bot = make_bot(f"policy:path={small_model}")
    game = Game.new(preset("hand-and-foot", 2).replace(rounds=1), seed=3)
    for _ in range(200):
        if game.over:
            break
        action = ask(bot, game)
        assert action in game.legal_actions()
        game.apply(action)


@pytest.mark.slow
@pytest.mark.skipif(not EXAMPLE.exists(), reason="no example model committed")
def test_the_example_model_loads_and_plays() -> None:
    pytest.importorskip("sb3_contrib")
    from handfoot.bots.base import ask
    from handfoot.engine import Game
    from handfoot.presets import preset

    bot = make_bot(f"policy:path={EXAMPLE}")
    game = Game.new(preset("hand-and-foot"), seed=9)
    for _ in range(100):
        game.apply(ask(bot, game))


@pytest.mark.slow
@pytest.mark.skipif(not EXAMPLE.exists(), reason="no example model committed")
def test_a_model_for_another_table_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib")
    code = main(["arena", "--bots", f"policy:path={EXAMPLE}", "random", "--deals", "1",
                 "--players", "2", "--rounds", "1", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "trained on observations of 355 numbers" in err and "has 303" in err
