"""The web table: ``handfoot serve`` holds each table's one game and talks to its clients over
websockets (docs/PROTOCOL.md).

It reaches the engine only through ``Game`` (legal actions, refusals, apply), seat views, the
narration of events and game records; every message to a client is built from that client's
own seat view.  Modules: ``app`` (routes and the hall of open tables), ``connection`` (one
websocket), ``table`` (one table: its lobby, its game, versions, bots and seat holds),
``seats`` (who sits and who drives), ``updates`` (applied actions as clients read them:
events on the wire and in words), ``protocol`` (message schemas and limits), ``messages``
(what is sent, from views), ``keeping`` (the game and its record), ``storage`` and
``postgres`` (SQLite and PostgreSQL), ``drivers`` (bots: on the loop or in a process pool),
``stats`` (the server's health), ``tokens`` (secrets), ``client`` (a client of the protocol,
for the terminal, the benchmarks and the tests).
"""
