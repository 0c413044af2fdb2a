"""The one folder where handfoot keeps a person's files on this computer.

Saved terminal games, the scorekeeper's score file, the web table's database and the seat tokens
of joined tables all live under it, so a person finds (and backs up) them in one place.  It sits
outside the core because it reads the environment, and outside every front end because several
of them share it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _xdg_folder() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "handfoot"


def data_folder() -> Path:
    """``handfoot`` in the platform's user data folder ($XDG_DATA_HOME or ~/.local/share on
    Linux, Application Support on macOS, %APPDATA% on Windows).

    Earlier versions used the Linux folder everywhere for the score file and the web table's
    database; where that folder already exists it stays in use, so nobody's scores move away.
    """
    if sys.platform not in ("win32", "darwin"):
        return _xdg_folder()
    legacy = _xdg_folder()
    if legacy.is_dir():
        return legacy
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "handfoot"
    return Path.home() / "Library" / "Application Support" / "handfoot"
