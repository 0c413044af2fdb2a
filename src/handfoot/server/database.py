"""What the server asks of a database: two methods and one error.

``storage`` speaks SQL through this interface alone; ``sqlite`` and ``postgres`` implement it.
Keeping the interface in a module of its own lets both implementations import it while
``storage`` chooses between them, with no module importing its importer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class StorageError(RuntimeError):
    """The database failed or holds something unreadable."""


class Database(Protocol):
    async def run(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> int:
        """Run the statements in one transaction; the rows the last one changed."""
        ...

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    async def close(self) -> None: ...
