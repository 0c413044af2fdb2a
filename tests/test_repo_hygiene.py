"""No tracked file carries a merge's conflict markers."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_tracked_file_holds_conflict_markers() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=False).stdout.split()
    marker = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)
    bad = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".png", ".npz", ".zip", ".pdf", ".ttf", ".sqlite3"} or \
                not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if marker.search(text):
            bad.append(name)
    assert bad == []
