"""The one base class of every error handfoot raises, so a caller catches one thing.

Each error says what went wrong and where in its message; the subclasses (an illegal action, a
bad rules setting, an unreadable record, ...) carry the details as attributes.  They also derive
from ``ValueError``: they are all complaints about a value that was handed in.
"""

from __future__ import annotations


class HandfootError(ValueError):
    """Base class of every error raised by handfoot."""
