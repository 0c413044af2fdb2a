"""``handfoot serve``: options that would be accepted and then do nothing, or make invite links
no browser can open, are refused in one line before anything starts (issue 26)."""

from __future__ import annotations

import pytest

from handfoot.cli.common import UserError
from handfoot.cli.main import main
from handfoot.cli.serve import check_public_url


@pytest.mark.parametrize(("argv", "words"), [
    (["serve", "--game", "2"], "give --export TABLE too"),
    (["serve", "--public-url", "notaurl"], "is not a web address"),
    (["serve", "--public-url", "ftp://cards.example.org"], "is not a web address"),
    (["serve", "--public-url", "http:///t"], "is not a web address"),
    (["serve", "--public-url", "http://cards.example.org:99999"], "out of range"),
    (["serve", "--public-url", "https://cards.example.org/?x=1"], "?query or #fragment"),
    (["serve", "--push-contact", "me@example.org"], "give a mailto: or https://"),
])
def test_options_that_would_do_nothing_or_break_invites_are_refused(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    # --port 0 is refused too, after these: were they let through, the test stops there
    # instead of starting a server.
    assert main([*argv, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("handfoot: error: --") and words in err


@pytest.mark.parametrize("url", ["http://192.168.1.20:8000", "https://cards.example.org",
                                 "https://cards.example.org/handfoot/", "http://[::1]:8000"])
def test_real_addresses_are_taken(url: str) -> None:
    check_public_url(url)


def test_a_bad_address_is_a_user_error() -> None:
    with pytest.raises(UserError):
        check_public_url("cards.example.org")
