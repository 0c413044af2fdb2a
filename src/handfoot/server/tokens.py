"""The table's secrets: the table token in the invite link, host and seat tokens.

Host and seat tokens are handed out once and kept only as hashes, so a copy of the database
lets nobody act for a seat.  They are 192 random bits, so a plain SHA-256 is enough (a slow
password hash protects guessable secrets, which these are not).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEAT_PREFIX = "s-"
HOST_PREFIX = "h-"


def new_table_id() -> str:
    """96 random bits, URL-safe: the table's id and the token of its invite link."""
    return secrets.token_urlsafe(12)


def new_seat_token() -> str:
    return SEAT_PREFIX + secrets.token_urlsafe(24)


def new_host_token() -> str:
    return HOST_PREFIX + secrets.token_urlsafe(24)


def looks_like_host_token(token: str) -> bool:
    """A host token of this server's making (so nobody picks a guessable one for a table)."""
    return token.startswith(HOST_PREFIX) and len(token) >= len(HOST_PREFIX) + 32


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)
