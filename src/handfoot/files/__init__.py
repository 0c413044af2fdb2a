"""Reading a file a person named: a regular file no bigger than such a file could be, or one
line saying why not.

Every command that reads a game record, a rules file or a round file goes through
:func:`read_text`, so ``/dev/zero``, a named pipe or a gigabyte of anything is refused at once
instead of being read into memory whole (or waited on for ever).  The limits are far above any
real file and far below what would strain a machine; docs/RECORD-FORMAT.md, docs/RULES.md and
docs/SCOREKEEPER.md name them.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from handfoot.errors import HandfootError

MB = 1024 * 1024


@dataclass(frozen=True)
class Kind:
    name: str  # "game record": how the messages call such a file
    limit: int  # the most bytes one may hold


# The longest game the rules allow (100 rounds of 20 decks among 6 random bots, which meld
# little and so take the most turns) writes a record of about 2.6 MB; four rounds, about 40 kB.
RECORD = Kind("game record", 16 * MB)
# A complete rules file is under 2 kB.
RULES = Kind("rules file", 1 * MB)
# A round file (or draft) for six teams is under 2 kB.
ROUND_FILE = Kind("round file", 1 * MB)


class InputFileError(HandfootError):
    """A named file that is missing, unreadable, not a regular file, too big or not UTF-8."""


def read_text(path: str | os.PathLike[str], kind: Kind, where: str | None = None) -> str:
    """The UTF-8 text of ``path``; ``where`` is how the messages name it (default: the path)."""
    where = where or os.fspath(path)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer (it is refused below).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise InputFileError(f"cannot read {where}: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(f"cannot read {where}: it is a folder; give a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"cannot read {where}: not a regular file (a device, pipe or "
                                 "socket); give a file")
        data = b""
        if info.st_size <= kind.limit:
            with os.fdopen(os.dup(fd), "rb") as f:
                # A file still growing after the check stops one byte past the limit.
                data = f.read(kind.limit + 1)
    except OSError as err:
        raise InputFileError(f"cannot read {where}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if info.st_size > kind.limit or len(data) > kind.limit:
        raise InputFileError(f"cannot read {where}: it is larger than {kind.limit // MB} MB, "
                             f"and no {kind.name} is anywhere near that; is it the right file?")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputFileError(f"cannot read {where}: not UTF-8 text") from None
