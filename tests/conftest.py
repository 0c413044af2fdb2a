"""Shared fixtures: a throwaway PostgreSQL server on loopback for the storage tests (and
the ``database`` fixture that runs a test on SQLite and on it).

The cluster is made with Debian's ``initdb`` and ``pg_ctl`` (package ``postgresql``, which
scripts/test-all installs) in a temporary folder, started on a free port, and removed at the
end.  PostgreSQL refuses to run as root, so as root it runs as the ``postgres`` user the
package creates.  Without the binaries the tests that need it are skipped, saying why.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                      key=lambda p: int(Path(p).parent.parent.name)
                      if Path(p).parent.parent.name.isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL's initdb and pg_ctl were not found: install Debian's "
                    "postgresql package (scripts/test-all does)")
    prefix: list[str] = []
    owner = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
        prefix = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="handfoot-pg-"))
    data = root / "data"
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    root.chmod(0o700)
    port = _free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "handfoot", "--auth=trust",
            "-E", "UTF8", "--no-sync")
        run(str(bindir / "pg_ctl"), "-D", str(data), "-w", "-t", "60", "-l",
            str(root / "log"), "-o",
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off", "start")
    except subprocess.CalledProcessError as err:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {err.stderr.decode()}\n{log}") from None
    try:
        yield f"postgresql://handfoot@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True, timeout=60, check=False)
        shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------- the browser tests
# A real `handfoot serve` process with its own SQLite file, and Debian's Chromium driven by
# Playwright, one of each per test module (tests/test_web*.py).  A module that needs another
# kind of server or page defines its own fixture of the same name.
@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database for the storage: a SQLite file, then the throwaway PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.sqlite3")
    else:
        yield request.getfixturevalue("postgres_url")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from server_helpers import running_server

    db = tmp_path_factory.mktemp("web") / "tables.sqlite3"
    with running_server(str(db)) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from web_helpers import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()
