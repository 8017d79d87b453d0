"""Helpers shared by the online tests (a module of its own, so that no test file imports
another's): run code on a server's event loop, a raw client from another loopback address,
and a registered account."""
from __future__ import annotations

import random
import threading
import time

from websockets.sync.client import connect

from gonzaga.net import protocol as P

from test_net_server import Client

PASSWORD = "correct horse"


def on_loop(srv, fn):
    """Run ``fn()`` on the game server ``srv``'s event loop (its rooms are that thread's); its result."""
    done = threading.Event()
    out: list = []

    def run():
        try:
            out.append(fn())
        finally:
            done.set()
    srv.loop.call_soon_threadsafe(run)
    assert done.wait(10)
    return out[0] if out else None


def on_server(app, fn) -> None:
    """Run ``fn(room)`` on the hosted server's loop (its rooms are that thread's)."""
    srv = app.table.server.server
    on_loop(srv, lambda: fn(srv.rooms[app.table.game]))


class Player(Client):
    """A test client connected from ``source`` (a loopback address: another address to the server)."""

    def __init__(self, url: str, source: str = "127.0.0.1"):  # Client's, from another address
        self.ws = connect(url, open_timeout=20, close_timeout=2, max_size=P.MAX_SERVER_BYTES,
                          source_address=(source, 0)).__enter__()
        self.rng, self.last_send, self.sent_at = random.Random(0), 0.0, None
        self.token = self.seat = self.game = self.code = self.n = self.view = None
        self.updates, self.lobbies, self.told = [], [], []

    def ask(self, **msg) -> dict:
        """Send and return the answer (an ``account``, ``signed_out`` or ``error``)."""
        self.send(**msg)
        return self.expect_any(("account", "signed_out", "error"))

    def ask_kind(self, msg: dict, kind: str) -> dict:
        self.send(**msg)
        return self.expect_any((kind, "error"))

    def expect_any(self, kinds, timeout: float = 30.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, end - time.monotonic()))
            if m["type"] in kinds:
                return m
            assert m["type"] in ("lobby", "pong", "update", "history", "said", "news", "clocks"), m


def register(url: str, name: str = "Ann", password: str = PASSWORD, source: str = "127.0.0.1") -> tuple[Player, dict]:
    c = Player(url, source)
    m = c.ask(type="register", name=name, password=password, device="laptop")
    assert m["type"] == "account" and m["name"] == name, m
    return c, m


def seed_accounts(folder, histories: dict, now: float = 1_790_000_000.0) -> dict:
    """Accounts made in the server's data ``folder`` (its accounts' database, as ``gonzaga accounts``
    opens it), each rated by hand: ``histories`` maps a name to its shown rating after each rated
    game (sigma falling from openskill's 25/3 as games add up, mu = shown + 3 sigma). Returns
    each name's session token (signed in)."""
    from gonzaga.net import accounts as A
    from gonzaga.net.account_store import SQLiteAccountStore
    store = SQLiteAccountStore.in_folder(folder)
    sessions = {}
    try:
        for name, shown in histories.items():
            acc = store.create(name, A.hash_password(PASSWORD, n=2 ** 10), now)
            for k, rating in enumerate(shown):
                sigma = max(2.0, 25 / 3 - 0.4 * (k + 1))
                assert store.record_game(f"g{k}-{acc.id}", [(acc.id, rating + 3 * sigma, sigma, k + 1, rating, 1 + k % 3)],
                                         now + 3600 * k)
            token = A.new_token()
            store.add_session(A.digest(token), acc.id, "test", time.time())  # used now: not expired
            sessions[name] = token
    finally:
        store.close()
    return sessions


def signed_table(url: str, content, session, name: str, seats, **terms):
    """A ``Table`` that creates a listed game on ``url`` signed in with ``session`` (None: not signed in;
    the keyring's own sign-in to ``url``, if any, is sent after it and wins)."""
    from gonzaga.net.client import Connection
    from gonzaga.net.remote import Table
    conn = Connection(url)
    if session:
        conn.send(P.WhoAmI(session=session))
    return Table(url, content, P.Create(name=name, seats=seats, listed=True, **terms), connection=conn)
