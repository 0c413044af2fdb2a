"""The web table: ``handfoot serve`` holds each table's one game and talks to its clients over
websockets (docs/PROTOCOL.md).

It reaches the engine only through ``Game`` (legal actions, refusals, apply), seat views, the
narration of events and game records; every message to a client is built from that client's
own seat view.  Modules: ``app`` (routes and the registry of tables), ``connection`` (one
websocket), ``table`` (one table: seats, drivers, versions, fan-out), ``protocol`` (message
schemas and limits), ``messages`` (what is sent, from views), ``words`` (events in words),
``keeping`` (the game and its record), ``storage`` (SQLite and PostgreSQL), ``seats`` (bots at
the table), ``tokens`` (secrets), ``client`` (a client of the protocol, for the terminal and
the benchmarks).
"""
