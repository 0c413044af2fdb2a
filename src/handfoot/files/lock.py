"""One game per save file: the lock a session holds on the file its game is saved to.

Two ``handfoot play --resume g.json`` would each rewrite ``g.json`` with their own moves, every
save dropping the other's.  The lock is the operating system's advisory lock on a small file
beside the record (``.g.json.lock``), not on the record itself, which each save replaces by a
rename (a lock on the old file would not hold the new one).  The operating system lets go of it
when the process ends, however it ends, so a killed game never blocks the next; the lock file
holds the process id only to name the holder in the refusal.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

from handfoot.errors import HandfootError


class FileInUse(HandfootError):
    """The file is saved to by another running handfoot."""


def lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


class SaveLock:
    """Held from :meth:`acquire` until :meth:`release` (or the process ends)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = lock_path(path)
        self._fd: int | None = None

    @classmethod
    def acquire(cls, path: Path) -> SaveLock:
        """The lock on ``path``, or :class:`FileInUse` naming the process that holds it.  A
        path that is not a regular file (``/dev/null``) is not locked: there is no game in
        it to lose."""
        lock = cls(Path(os.path.realpath(path)))
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(os.stat(lock.path).st_mode):
                return lock
        lock._take(shown=path)
        return lock

    def _take(self, shown: Path) -> None:
        while True:
            fd = os.open(self.file, os.O_RDWR | os.O_CREAT, 0o644)
            if not _try_lock(fd):
                holder = _read_pid(fd)
                os.close(fd)
                by = f", process {holder}" if holder else ""
                raise FileInUse(f"{shown} is in use by another handfoot{by}; finish that game "
                                "first, or save this one elsewhere with --save FILE")
            # The holder before us may have removed the lock file after we opened it: then we
            # hold a lock on a file no one else will open, and must take the one now there.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.file))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        # Removed while still held, so no one can lock the old file after it is gone.
        with contextlib.suppress(OSError):
            os.unlink(self.file)
        os.close(self._fd)
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def _read_pid(fd: int) -> int | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        return int(os.read(fd, 32).decode("ascii", "replace").strip())
    except (OSError, ValueError):
        return None


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        # A byte far past the process id, so reading the id is not blocked by the lock.
        os.lseek(fd, 1 << 20, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
