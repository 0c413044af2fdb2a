"""Web Push: subscriptions stored with the seat (readable only with its token, dropped when the
push service forgets them or the seat changes hands), and "your turn" pushed through the real
push library to a push endpoint served by the test itself, which checks the VAPID signature
header and decrypts the body with the browser's keys."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from handfoot.server import push
from handfoot.server.client import ClientError, TableClient, http_json
from server_helpers import Server, running_server
from test_server import autoplay, seated


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Browser:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"0123456789abcdef"
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint,
                             "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        out: dict[str, Any] = json.loads(plain)
        return out


class PushEndpoint:
    """A push service on loopback: takes the encrypted POST; ``/gone/...`` answers 410."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.arrived = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                outer.received.append((self.path, dict(self.headers.items()), body))
                outer.arrived.set()
                self.send_response(410 if self.path.startswith("/gone") else 201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("push") / "tables.sqlite3"
    with running_server(str(db)) as srv:
        srv.app.state.push.allow_http = True  # the test's push endpoint is plain http
        yield srv


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    ep = PushEndpoint()
    yield ep
    ep.close()


def on_server(server: Server, work: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(work, server.hall.loop).result(10)


def api(server: Server, path: str, body: dict[str, Any]) -> Any:
    return http_json(f"{server.base}{path}", body)


# ====================================================================== the key
def test_the_key_is_made_once_and_kept_beside_the_database(server: Server) -> None:
    path = Path(server.db).parent / push.KEY_FILE
    assert path.exists() and path.stat().st_mode & 0o077 == 0  # the owner's only
    key = http_json(f"{server.base}/api/push/key")["key"]
    raw = base64.urlsafe_b64decode(key + "==")
    assert len(raw) == 65 and raw[0] == 4  # an uncompressed P-256 point
    again = push.load_or_make_key(path)
    assert push.public_key(again) == key
    assert push.key_path("postgresql://x/y", "/srv/k.pem") == Path("/srv/k.pem")


# ====================================================================== storage
def test_a_subscription_is_readable_only_with_its_seats_token(server: Server,
                                                              endpoint: PushEndpoint) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 3: "Bob"}, start=False)
        table = made["table"]
        ann, bob = clients[0].seat_token, clients[3].seat_token
        assert ann and bob
        phone = Browser(f"{endpoint.base}/bob-phone")
        got = api(server, "/api/push/subscribe", {"table": table, "seat_token": bob,
                                                  "subscription": phone.subscription})
        assert got == {"subscribed": True, "seat": 3}
        mine = api(server, "/api/push/subscription", {"table": table, "seat_token": bob})
        assert mine == {"seat": 3, "endpoints": [f"{endpoint.base}/bob-phone"]}
        # Ann's token reads Ann's seat, which has none; a made-up token reads nothing.
        assert api(server, "/api/push/subscription",
                   {"table": table, "seat_token": ann})["endpoints"] == []
        with pytest.raises(ClientError, match="403"):
            api(server, "/api/push/subscription", {"table": table, "seat_token": "s-nope"})
        # An endpoint that is not a push service's https address is refused, with why.
        server.app.state.push.allow_http = False
        try:
            with pytest.raises(ClientError, match="https"):
                api(server, "/api/push/subscribe", {"table": table, "seat_token": ann,
                                                    "subscription": phone.subscription})
        finally:
            server.app.state.push.allow_http = True
        with pytest.raises(ClientError, match="keys"):
            api(server, "/api/push/subscribe", {"table": table, "seat_token": ann, "subscription":
                                                {"endpoint": "https://push.test/x", "keys": {}}})
        # Bob gives his seat up and Cy takes it: Bob's phone is never told of Cy's turns.
        await clients[3].send({"type": "leave"})
        await clients[3].until("table")
        cy = await TableClient.connect(made["websocket"])
        await cy.join(3, "Cy")
        assert cy.seat_token
        storage = server.hall.storage
        assert on_server(server, push.subscriptions(storage, table, 3)) == []
        assert api(server, "/api/push/subscription",
                   {"table": table, "seat_token": cy.seat_token})["endpoints"] == []
        for c in (*clients.values(), cy):
            await c.close()

    asyncio.run(go())


def test_a_subscription_the_push_service_forgot_is_removed(server: Server,
                                                           endpoint: PushEndpoint) -> None:
    async def go() -> None:
        made, clients = await seated(server, {0: "Ann"}, start=False)
        table, token = made["table"], clients[0].seat_token
        gone = Browser(f"{endpoint.base}/gone/1")
        kept = Browser(f"{endpoint.base}/kept/1")
        for b in (gone, kept):
            api(server, "/api/push/subscribe", {"table": table, "seat_token": token,
                                                "subscription": b.subscription})
        pusher = server.app.state.push
        sent = on_server(server, pusher.send_seat(table, 0, {"title": "t", "body": "b"}))
        assert sent == 1
        assert sorted(p for p, _, _ in endpoint.received) == ["/gone/1", "/kept/1"]
        left = api(server, "/api/push/subscription", {"table": table, "seat_token": token})
        assert left["endpoints"] == [f"{endpoint.base}/kept/1"]
        await clients[0].close()

    asyncio.run(go())


# ====================================================================== the push
def test_your_turn_is_pushed_once_to_a_person_who_is_away(server: Server,
                                                          endpoint: PushEndpoint) -> None:
    """Bob (seat 3) subscribes and closes his page; Ann plays with two bots, and when Bob's turn
    comes his phone gets one push, signed with the server's VAPID key, that only his browser's
    keys decrypt."""

    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 3: "Bob"}, start=False,
                                     options={"seat_hold": 30}, name="Sunday game")
        table = made["table"]
        phone = Browser(f"{endpoint.base}/bob")
        api(server, "/api/push/subscribe", {"table": table, "seat_token": clients[3].seat_token,
                                            "subscription": phone.subscription})
        await clients[3].close()
        ann = clients[0]
        await ann.send({"type": "start"})
        await ann.until("state")
        loop = asyncio.get_running_loop()
        await autoplay([ann], stop=lambda: endpoint.arrived.is_set(), timeout=30)
        assert await loop.run_in_executor(None, endpoint.arrived.wait, 10)
        path, headers, body = endpoint.received[0]
        assert path == "/bob"
        head = {k.lower(): v for k, v in headers.items()}
        scheme, _, params = head["authorization"].partition(" ")
        assert scheme == "vapid"
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        assert fields["k"] == http_json(f"{server.base}/api/push/key")["key"]
        assert fields["t"].count(".") == 2  # a signed JWT
        assert head["content-encoding"] == "aes128gcm" and int(head["ttl"]) > 0
        assert b"Your turn" not in body  # encrypted
        message = phone.read(body)
        assert message == {"title": "Your turn", "body": "Sunday game: it is your turn to play.",
                           "url": f"/t/{table}", "tag": f"handfoot-{table}"}
        # The same turn published again tells nobody twice.
        live = server.hall.tables[table]
        assert live.keeper.game.actor == 3

        async def again() -> None:
            push.published(live)
            await asyncio.sleep(0.2)

        on_server(server, again())
        assert len(endpoint.received) == 1
        await ann.close()

    asyncio.run(go())


def test_a_hidden_page_is_pushed_to_though_still_connected(server: Server,
                                                           endpoint: PushEndpoint) -> None:
    """Bob's phone put his page away (POST /api/push/away) while its connection stays open:
    his turn is pushed all the same; a page shown again is not pushed to."""

    async def go() -> None:
        made, clients = await seated(server, {0: "Ann", 3: "Bob"}, start=False)
        table, token = made["table"], clients[3].seat_token
        phone = Browser(f"{endpoint.base}/hidden")
        api(server, "/api/push/subscribe", {"table": table, "seat_token": token,
                                            "subscription": phone.subscription})
        assert api(server, "/api/push/away", {"table": table, "seat_token": token,
                                              "away": True}) == {"away": True}
        with pytest.raises(ClientError, match="away"):
            api(server, "/api/push/away", {"table": table, "seat_token": token, "away": "yes"})
        await clients[0].send({"type": "start"})
        loop = asyncio.get_running_loop()
        await autoplay([clients[0]], stop=lambda: endpoint.arrived.is_set(), timeout=30)
        assert await loop.run_in_executor(None, endpoint.arrived.wait, 10)
        assert phone.read(endpoint.received[0][2])["title"] == "Your turn"
        assert server.hall.tables[table].seats[3].client is not None  # still connected
        api(server, "/api/push/away", {"table": table, "seat_token": token, "away": False})
        assert (table, 3) not in server.app.state.push.away
        for c in clients.values():
            await c.close()

    asyncio.run(go())


# ====================================================================== both databases
def test_subscriptions_are_kept_with_the_seat_in_either_database(database: str) -> None:
    from handfoot.presets import preset
    from handfoot.server.storage import SeatRow, Storage, TableRow
    from handfoot.server.tokens import new_table_id, token_hash

    async def go() -> None:
        storage = await Storage.open(database)
        try:
            table = new_table_id()
            await storage.create_table(
                TableRow(table, "h", "Friday", "", preset("hand-and-foot").to_mapping(), {},
                         "lobby", 0, 0),
                [SeatRow(0, "Ann", token_hash("s-ann"), "heuristic"),
                 SeatRow(1, "Bob", token_hash("s-bob"), "heuristic")])
            sub = Browser("https://push.test/ann").subscription
            assert await push.seat_of(storage, table, "s-ann") == 0
            assert await push.seat_of(storage, table, "s-nobody") is None
            await push.subscribe(storage, table, 0, "s-ann", sub)
            await push.subscribe(storage, table, 0, "s-ann", sub)  # again: kept once
            assert await push.subscriptions(storage, table, 0) == [sub]
            assert await push.subscriptions(storage, table, 0, "s-ann") == [sub]
            assert await push.subscriptions(storage, table, 0, "s-bob") == []
            assert await push.subscriptions(storage, table, 1) == []
            for n in range(push.MAX_PER_SEAT + 2):
                await push.subscribe(storage, table, 1, "s-bob",
                                     Browser(f"https://push.test/bob{n}").subscription)
            assert len(await push.subscriptions(storage, table, 1)) == push.MAX_PER_SEAT
            # The seat changes hands: Ann's browser is not told of the new owner's turns.
            await storage.set_seat(table, 0, "Cy", token_hash("s-cy"))
            assert await push.subscriptions(storage, table, 0) == []
            await push.forget_endpoint(storage, "https://push.test/bob3")
            assert "https://push.test/bob3" not in [
                s["endpoint"] for s in await push.subscriptions(storage, table, 1)]
            pusher = push.Pusher(storage, push.load_or_make_key(Path(
                push.key_path(None if database.startswith("postgres") else database))), "x")
            await pusher._note_move(table)
            await pusher._note_move(table)  # an upsert: one row a table
            assert list(await push.last_moves(storage, [table])) == [table]
        finally:
            await storage.close()

    asyncio.run(go())


def test_the_partner_asked_is_told_once_and_a_connected_person_not_at_all(tmp_path: Path) -> None:
    """The hook's choices, on a table made of plain objects: who is told, what, and how often."""
    from types import SimpleNamespace

    sent: list[tuple[int, dict[str, Any]]] = []

    async def go() -> None:
        pusher = push.Pusher(SimpleNamespace(), push.load_or_make_key(tmp_path / "k.pem"), "x")

        async def send_seat(table_id: str, seat: int, message: dict[str, Any]) -> int:
            sent.append((seat, message))
            return 1

        async def note(table_id: str) -> None:
            pass

        pusher.send_seat = send_seat  # type: ignore[method-assign]
        pusher._note_move = note  # type: ignore[method-assign]
        game = SimpleNamespace(round_no=1, turns=7, actor=2, seat=0, over=False)
        seats = [SimpleNamespace(person=True, client=object(), driver="person"),
                 SimpleNamespace(person=False, client=None, driver="bot"),
                 SimpleNamespace(person=True, client=None, driver="person"),
                 SimpleNamespace(person=False, client=None, driver="bot")]
        table = SimpleNamespace(id="T1", name="Sunday", status="playing", game_no=1,
                                keeper=SimpleNamespace(game=game, names=["Ann", "", "Cy", ""]),
                                seats=seats)
        for _ in range(3):
            pusher.published(table)  # type: ignore[arg-type]
        game.actor = 0  # back to Ann, who asked: connected, not told
        pusher.published(table)  # type: ignore[arg-type]
        game.actor = 2
        pusher.published(table)  # type: ignore[arg-type]  # the same turn's question: once
        game.turns, game.seat = 9, 2  # Cy's own turn
        pusher.published(table)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    asyncio.run(go())
    assert [seat for seat, _ in sent] == [2, 2]
    assert sent[0][1]["title"] == "Ann asks: may I go out?"
    assert sent[0][1]["body"] == "Sunday: answer yes or no."
    assert sent[1][1]["title"] == "Your turn"
