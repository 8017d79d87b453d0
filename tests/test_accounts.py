"""Issue 47, accounts on a community server, against a real server in this process: names unique
regardless of case and width, passwords hashed with their parameters, session tokens that cannot
be forged and can be ended, guessing limited per address and per account (without locking the
owner's own computer out), a seat of an account refused to every other connection, and the
operator's commands on the data folder of a running server."""
from __future__ import annotations

import hashlib
import io
import random
import secrets
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

from gonzaga.net import accounts as A
from gonzaga.net import protocol as P
from gonzaga.net import accounts_cli
from gonzaga.net import ratings as R
from gonzaga.net.account_desk import RECHECK
from gonzaga.net.account_store import ACCOUNTS_DB, SQLiteAccountStore
from gonzaga.net.serve import Database, ServerThread

from online_helpers import PASSWORD, Player
from online_helpers import register as _register
from test_net_server import HOST, Client, play, seat

pytestmark = pytest.mark.rule("E-net")

class Skew:
    """A clock that runs with ``base`` and jumps forward when told (the desk's clocks)."""

    def __init__(self, base):
        self.base, self.ahead = base, 0.0

    def __call__(self) -> float:
        return self.base() + self.ahead

    def skip(self, seconds: float) -> None:
        self.ahead += seconds


def _answer(c: Player, code: str, key: str, **msg) -> dict:
    m = c.ask(**msg)
    assert (m["type"], m.get("code"), m.get("key")) == ("error", code, key), m
    return m


@pytest.fixture(params=["sqlite", "postgres"])
def database(request):
    """Each server test runs with the accounts in SQLite (the data folder's file) and in
    PostgreSQL (the games' database, account_store_pg.py): one suite for both stores."""
    if request.param == "sqlite":
        return None
    url, password = request.getfixturevalue("pg_database")
    return Database(url, password)


def _server(data, database):
    return ServerThread(data, test_seeds=True, any_level=True, accounts=True, database=database).start()


def _open_accounts(srv):
    """The server's accounts as the operator would open them (a second connection)."""
    if srv.database is None:
        return SQLiteAccountStore(srv.data_dir / ACCOUNTS_DB)
    from gonzaga.net.account_store_pg import PostgresAccountStore  # psycopg only for PostgreSQL
    from gonzaga.net.store_pg import PostgresStore
    games = PostgresStore(srv.database.url, password=srv.database.password)
    store = PostgresAccountStore(games)
    store.close = games.close
    return store


def _cli(srv, tmp_path):
    """``gonzaga accounts``' options naming the server's accounts."""
    args = ["--data", str(srv.data_dir)]
    if srv.database is not None:
        pw = tmp_path / "db-password"
        pw.write_text(srv.database.password + "\n")
        args += ["--database", srv.database.url, "--database-password-file", str(pw)]
    return args


@pytest.fixture
def srv(tmp_path, database):
    t = _server(tmp_path / "data", database)
    desk = t.server.accounts
    desk.clock = Skew(time.time)
    desk.monotonic = desk.attempts.clock = Skew(time.monotonic)
    yield t
    t.stop()


def _skip(srv, seconds: float) -> None:
    desk = srv.server.accounts
    desk.clock.skip(seconds)
    desk.monotonic.skip(seconds)


# ---------------------------------------------------------------- passwords and names

def test_a_password_hash_keeps_its_parameters_and_an_older_one_is_raised_at_sign_in(srv):
    stored = A.hash_password("pass word", n=2 ** 10, r=8, p=1)
    kind, n, r, p, salt, digest = stored.split("$")
    assert (kind, n, r, p) == ("scrypt", "1024", "8", "1") and len(salt) == 22 and len(digest) == 43
    assert A.verify_password("pass word", stored) and not A.verify_password("pass wore", stored)
    assert A.hash_password("pass word", n=2 ** 10) != stored  # a fresh salt each time
    assert A.needs_rehash(stored) and not A.needs_rehash(A.hash_password("x" * 8))
    assert not A.verify_password("pass word", "scrypt$1024$8$1$!!$??")  # damaged: refused, not raised
    for damaged in ("", "scrypt$1024$8$1$c2FsdA", "argon2$1$2$3$c2FsdA$aGFzaA", "scrypt$x$8$1$c2FsdA$aGFzaA"):
        assert not A.verify_password("pass word", damaged), damaged  # not a hash of ours: nobody gets in
    store = _open_accounts(srv)
    acc = store.create("Old", stored, time.time())
    c = Player(srv.url)
    assert c.ask(type="sign_in", name="Old", password="pass word")["type"] == "account"
    now = store.by_id(acc.id).password
    assert now.startswith(f"scrypt${A.SCRYPT_N}${A.SCRYPT_R}${A.SCRYPT_P}$") and A.verify_password("pass word", now)
    store.close()


def test_names_are_unique_regardless_of_case_and_width_and_passwords_have_a_length(srv):
    _register(srv.url, "Ann")
    c = Player(srv.url)
    for name in ("ANN", "ann", "\uff21\uff4e\uff4e"):  # the last: full-width letters
        m = _answer(c, "name_taken", "accounts.name_taken", type="register", name=name, password=PASSWORD)
        assert m["params"] == {"name": name}
    m = c.ask(type="register", name="Ann\u202e", password=PASSWORD)  # a text-direction mark: as seat names
    assert m["code"] == "bad_message"
    _answer(c, "bad_message", "accounts.password_short", type="register", name="Bea", password="short")
    m = c.ask(type="sign_in", name="aNN", password=PASSWORD)  # any case signs in, as the name was registered
    assert m["type"] == "account" and m["name"] == "Ann"


# ---------------------------------------------------------------- sessions

def test_only_the_hash_of_a_session_is_kept_and_a_kept_token_signs_in_again(srv):
    c, m = _register(srv.url)
    token = m["session"]
    assert len(token) == 43 and m["device_key"] and m["days"] == A.SESSION_DAYS
    if srv.database is None:  # the file's every byte (PostgreSQL's rows are read below)
        raw = b"".join(p.read_bytes() for p in srv.data_dir.glob(ACCOUNTS_DB + "*"))
        assert token.encode() not in raw and PASSWORD.encode() not in raw
    store = _open_accounts(srv)
    acc = store.by_name("Ann")
    assert [(s.digest, s.device) for s in store.sessions(acc.id)] == [(hashlib.sha256(token.encode()).hexdigest(), "laptop")]
    assert PASSWORD not in acc.password and token not in acc.password
    store.close()
    other = Player(srv.url)
    _answer(other, "bad_session", "accounts.not_signed_in", type="whoami")
    assert other.ask(type="whoami", session=token) == \
        {"v": 2, "type": "account", "name": "Ann", "session": None, "device_key": None, "days": A.SESSION_DAYS}
    assert other.ask(type="whoami")["name"] == "Ann"


def test_a_forged_an_ended_and_an_expired_token_sign_nobody_in(srv):
    c1, m1 = _register(srv.url)
    c2 = Player(srv.url)
    s2 = c2.ask(type="sign_in", name="Ann", password=PASSWORD)["session"]
    probe = Player(srv.url)
    forged = m1["session"][:-1] + ("A" if m1["session"][-1] != "A" else "B")
    for token in (secrets.token_urlsafe(32), forged):
        _answer(probe, "bad_session", "accounts.bad_session", type="whoami", session=token)
    assert c1.ask(type="sign_out") == {"v": 2, "type": "signed_out", "everywhere": False, "ended": 1}
    _answer(probe, "bad_session", "accounts.bad_session", type="whoami", session=m1["session"])
    _answer(c1, "bad_session", "accounts.not_signed_in", type="whoami")
    assert probe.ask(type="whoami", session=s2)["name"] == "Ann"  # the other computer's session lives on
    # sign out everywhere: every session ends, and each connection signed in to it is told
    c3 = Player(srv.url)
    assert c3.ask(type="sign_in", name="Ann", password=PASSWORD)["type"] == "account"
    assert c3.ask(type="sign_out_all") == {"v": 2, "type": "signed_out", "everywhere": True, "ended": 2}
    assert c2.expect_any(("signed_out",))["everywhere"] is True
    assert probe.expect_any(("signed_out",))["everywhere"] is True
    for c in (c2, probe, c3):
        _answer(c, "bad_session", "accounts.not_signed_in", type="whoami")
    _answer(Player(srv.url), "bad_session", "accounts.bad_session", type="whoami", session=s2)
    # a session not used for SESSION_DAYS is over
    s4 = Player(srv.url).ask(type="sign_in", name="Ann", password=PASSWORD)["session"]
    _skip(srv, A.SESSION_DAYS * 86400 + 60)
    _answer(Player(srv.url), "bad_session", "accounts.bad_session", type="whoami", session=s4)


# ---------------------------------------------------------------- guessing

def test_wrong_passwords_are_limited_per_address_before_any_hash(srv):
    _register(srv.url, "Ann")
    desk = srv.server.accounts
    guesser = Player(srv.url, "127.0.0.2")
    for i in range(A.ADDRESS_FAILS):  # against names nobody has: no account's own limit is involved
        _answer(guesser, "wrong_password", "accounts.wrong_password", type="sign_in", name=f"Nobody{i}",
                password=PASSWORD)
    hashes = desk.hashes
    m = _answer(guesser, "limit", "accounts.wait_address", type="sign_in", name="Ann", password=PASSWORD)
    assert 0 < m["params"]["seconds"] <= A.ADDRESS_WINDOW + 1
    assert desk.hashes == hashes  # refused before the hash: waiting costs the server nothing
    assert Player(srv.url, "127.0.0.3").ask(type="sign_in", name="Ann", password=PASSWORD)["type"] == "account"
    _skip(srv, A.ADDRESS_WINDOW)
    assert guesser.ask(type="sign_in", name="Ann", password=PASSWORD)["type"] == "account"


def test_an_account_guessed_at_waits_but_its_owners_computer_does_not(srv):
    owner, m = _register(srv.url, "Ann")
    key = m["device_key"]
    for i in range(A.ACCOUNT_FREE):  # a guesser with many addresses: each far under its own limit
        _answer(Player(srv.url, f"127.0.1.{i + 1}"), "wrong_password", "accounts.wrong_password",
                type="sign_in", name="Ann", password=f"guess {i}")
    m = _answer(Player(srv.url, "127.0.1.99"), "limit", "accounts.wait_account", type="sign_in", name="ann",
                password=PASSWORD)  # the right password too: not even tried while the account waits
    assert A.ACCOUNT_BACKOFF - 5 <= m["params"]["seconds"] <= A.ACCOUNT_BACKOFF + 1
    # the owner's computer (the key it was given) is never slowed by the guesser, from any address
    back = Player(srv.url, "127.0.2.1").ask(type="sign_in", name="Ann", password=PASSWORD, device_key=key)
    assert back["type"] == "account" and back["device_key"] == key
    _answer(Player(srv.url, "127.0.2.2"), "limit", "accounts.wait_account", type="sign_in", name="Ann",
            password=PASSWORD, device_key=A.new_token())  # a key the account never saw counts for nothing
    _skip(srv, A.ACCOUNT_BACKOFF + 1)
    _answer(Player(srv.url, "127.0.1.100"), "wrong_password", "accounts.wrong_password", type="sign_in",
            name="Ann", password="guess again")
    m = _answer(Player(srv.url, "127.0.1.101"), "limit", "accounts.wait_account", type="sign_in", name="Ann",
                password=PASSWORD)
    assert A.ACCOUNT_BACKOFF < m["params"]["seconds"] <= 2 * A.ACCOUNT_BACKOFF + 1  # doubled
    _skip(srv, 2 * A.ACCOUNT_BACKOFF + 1)
    assert Player(srv.url, "127.0.1.102").ask(type="sign_in", name="Ann", password=PASSWORD)["type"] == "account"
    store = _open_accounts(srv)
    assert store.by_name("Ann").fails == 0  # the right password forgets the wrong ones
    store.close()


def test_the_limits_let_through_the_guesses_the_docs_give():
    assert accounts_cli.guesses_allowed(1, 1, one_account=False)["guesses"] == 60  # one a minute per address
    assert accounts_cli.guesses_allowed(1, 1000)["guesses"] == 12  # per account, however many addresses
    assert accounts_cli.guesses_allowed(24, 1000)["guesses"] == 104


# ---------------------------------------------------------------- seats of an account

def test_a_seat_taken_signed_in_acts_only_for_its_account(tmp_path, database):
    srv = _server(tmp_path / "data", database)
    try:
        ann, m = _register(srv.url, "Ann")
        session = m["session"]
        ann.send(type="create", name="Someone", seats=[HOST, seat("open", "blue")], seed=5)
        ann.expect("joined")
        assert ann.expect("lobby")["seats"][0]["name"] == "Ann"  # the account's name, not the one sent
        bea = Client(srv.url)  # a friend without an account joins as today
        bea.send(type="join", code=ann.code, name="Bea")
        bea.expect("joined")
        ann.send(type="start", token=ann.token)
        ann.expect("update")
        token = ann.token
        cy, _ = _register(srv.url, "Cy")
        for msg in ({"type": "resume", "game": ann.game, "token": token}, {"type": "chat", "token": token, "text": "hi"},
                    {"type": "resign", "token": token}, {"type": "act", "token": token, "n": 1, "action": "plan 0 x"}):
            _answer(cy, "not_your_seat", "accounts.seat_other", **msg)
        nobody = Player(srv.url)
        _answer(nobody, "bad_session", "accounts.seat_sign_in", type="resume", game=ann.game, token=token)
        bea2 = Client(srv.url)  # a seat taken without an account: its token alone, as before
        bea2.send(type="resume", game=bea.game, token=bea.token)
        assert bea2.expect("joined")["seat"] == 1
    finally:
        srv.stop()
    srv = _server(tmp_path / "data", database)
    try:  # the binding is kept: after a restart too
        _answer(Player(srv.url), "bad_session", "accounts.seat_sign_in", type="resume", game=ann.game, token=token)
        again = Player(srv.url)
        assert again.ask(type="whoami", session=session)["name"] == "Ann"
        again.send(type="resume", game=ann.game, token=token)
        assert again.expect("joined")["seat"] == 0
    finally:
        srv.stop()


def test_a_server_without_accounts_says_so(tmp_path):
    with ServerThread(tmp_path / "data") as srv:
        c = Player(srv.url)
        for msg in ({"type": "register", "name": "Ann", "password": PASSWORD}, {"type": "whoami"}):
            _answer(c, "not_allowed", "accounts.none", **msg)
        assert not (Path(srv.data_dir) / ACCOUNTS_DB).exists()


# ---------------------------------------------------------------- the operator

def test_operator_reset_then_sign_in_and_ban_on_a_running_servers_folder(srv, monkeypatch, capsys, tmp_path):
    c, m = _register(srv.url, "Ann")
    data = _cli(srv, tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("a new password\n"))
    assert accounts_cli.main([*data, "reset-password", "aNN"]) == 0
    assert "sessions ended: 1" in capsys.readouterr().out
    _answer(Player(srv.url), "bad_session", "accounts.bad_session", type="whoami", session=m["session"])
    _answer(Player(srv.url), "wrong_password", "accounts.wrong_password", type="sign_in", name="Ann", password=PASSWORD)
    signed = Player(srv.url)
    assert signed.ask(type="sign_in", name="Ann", password="a new password")["type"] == "account"
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert accounts_cli.main([*data, "reset-password", "Ann"]) == 1  # refused: nothing changed
    assert accounts_cli.main([*data, "ban", "Ann"]) == 0
    _answer(Player(srv.url), "banned", "accounts.banned", type="sign_in", name="Ann", password="a new password")
    assert signed.ask(type="whoami")["name"] == "Ann"  # until the server looks the session up again
    _skip(srv, RECHECK + 1)
    _answer(signed, "bad_session", "accounts.not_signed_in", type="whoami")
    capsys.readouterr()
    assert accounts_cli.main([*data, "list"]) == 0
    assert capsys.readouterr().out == "Ann\t0 sessions  banned\n"
    assert accounts_cli.main([*data, "unban", "Ann"]) == 0
    assert Player(srv.url).ask(type="sign_in", name="Ann", password="a new password")["type"] == "account"
    assert accounts_cli.main([*data, "ban", "Nobody"]) == 1


# ---------------------------------------------------------------- ratings

def _game(srv, host: Player, guest: Client) -> None:
    host.send(type="create", name="x", seats=[HOST, seat("open", "blue")], seed=11)
    host.expect("joined")
    guest.send(type="join", code=host.code, name="Guest")
    guest.expect("joined")
    host.send(type="start", token=host.token)
    play([host, guest])


def test_a_game_between_two_accounts_is_rated_once_from_its_final_order(srv):
    ann, _ = _register(srv.url, "Ann")
    bea, _ = _register(srv.url, "Bea", source="127.0.0.2")
    _game(srv, ann, bea)
    state = srv.server.rooms[ann.game].state
    ranks = R.final_ranks(state, [False, False])
    best = max(range(2), key=lambda i: (state.seats[i].score, R.sites_held(state, i)))  # the rulebook's X6
    assert ranks[best] == 1 and ranks[1 - best] == (1 if ranks == [1, 1] else 2)
    assert R.final_ranks(state, [True, False]) == [2, 1] and R.final_ranks(state, [False, True]) == [1, 2]  # resigned: last
    desk = srv.server.accounts
    end = time.monotonic() + 10
    while ann.game not in desk.rated:
        assert time.monotonic() < end
        time.sleep(0.05)
    board = Player(srv.url, "127.0.0.3").ask_kind({"type": "leaderboard"}, "standings")
    names = [r["name"] for r in board["rows"]]
    assert sorted(names) == ["Ann", "Bea"] and all(r["games"] == 1 and r["provisional"] for r in board["rows"])
    winner = ("Ann", "Bea")[best]
    if ranks != [1, 1]:
        assert names[0] == winner and board["rows"][0]["rating"] > board["rows"][1]["rating"]
    fresh = R.new_rating()
    for who, place in (("Ann", ranks[0]), ("Bea", ranks[1])):
        p = Player(srv.url, "127.0.0.3").ask_kind({"type": "profile", "name": who.lower()}, "profile_info")
        assert p["name"] == who and p["games"] == 1 and [h["place"] for h in p["history"]] == [place]
        assert (p["mu"] > fresh.mu) == (place == 1 and ranks != [1, 1]) and p["sigma"] < fresh.sigma
        assert p["history"][0]["rating"] == p["rating"] and abs(p["rating"] - (p["mu"] - 3 * p["sigma"])) < 0.01
    desk._game_over(srv.server.rooms[ann.game])  # asked again (a reload, a resume): rated once
    desk.rated.discard(ann.game)
    desk._game_over(srv.server.rooms[ann.game])
    p = Player(srv.url, "127.0.0.3").ask_kind({"type": "profile", "name": "Ann"}, "profile_info")
    assert p["games"] == 1 and len(p["history"]) == 1
    _answer(Player(srv.url, "127.0.0.3"), "no_account", "accounts.no_account", type="profile", name="Nobody")


def test_the_leaderboard_is_ordered_by_the_rating_shown_then_by_name(srv):
    """The rating shown is the conservative mu - 3 sigma: an account with a high mu but much
    uncertainty ranks below a settled one. By hand: Ann 30 - 3 x 8 = 6, Bea 25 - 3 x 2 = 19, Cleo
    27 - 3 x 5 = 12, Dora 24 - 3 x 4 = 12 (Cleo before Dora by name); by mu it would be Ann first."""
    hand = {"Ann": (30.0, 8.0), "Bea": (25.0, 2.0), "Cleo": (27.0, 5.0), "Dora": (24.0, 4.0)}
    for i, name in enumerate(hand):
        _register(srv.url, name, source=f"127.0.0.{i + 2}")
    store = _open_accounts(srv)
    try:
        for name, (mu, sigma) in hand.items():
            acc = store.by_name(name)
            assert store.record_game(f"hand-{name}", [(acc.id, mu, sigma, 12, mu - 3 * sigma, 1)], time.time())
    finally:
        store.close()
    board = Player(srv.url, "127.0.0.9").ask_kind({"type": "leaderboard"}, "standings")
    assert [(r["name"], r["rating"]) for r in board["rows"]] == [("Bea", 19.0), ("Cleo", 12.0), ("Dora", 12.0),
                                                                 ("Ann", 6.0)]


def test_a_game_with_a_player_not_signed_in_is_unrated(srv):
    ann, _ = _register(srv.url, "Ann")
    _game(srv, ann, Client(srv.url))
    desk = srv.server.accounts
    end = time.monotonic() + 10
    while ann.game not in desk.rated:
        assert time.monotonic() < end
        time.sleep(0.05)
    assert Player(srv.url).ask_kind({"type": "leaderboard"}, "standings")["rows"] == []
    p = Player(srv.url).ask_kind({"type": "profile", "name": "Ann"}, "profile_info")
    assert (p["rating"], p["games"], p["history"]) == (None, 0, [])


def test_ratings_follow_the_places_and_a_resigned_seat_ranks_last():
    fresh = [R.new_rating()] * 3
    first, second, third = R.rate(fresh, [1, 2, 3])
    assert first.mu > second.mu > third.mu and first.games == 1
    assert all(r.sigma < fresh[0].sigma for r in (first, second, third))
    a, b, c = R.rate(fresh, [1, 1, 3])
    assert a.mu == b.mu > c.mu  # a shared victory rates the same
    assert R.rated_accounts([1, 2]) == [1, 2] and R.rated_accounts([1, None]) is None
    assert R.rated_accounts([1, 1]) is None  # one account on two seats: unrated


# ---------------------------------------------------------------- behind a TLS proxy

class Proxied(Player):
    """A player whose connection comes through a proxy on this machine, which says who it is for."""

    def __init__(self, url: str, forwarded_for: str):
        self.ws = connect(url, open_timeout=20, close_timeout=2, max_size=P.MAX_SERVER_BYTES,
                          additional_headers={"X-Forwarded-For": forwarded_for}).__enter__()
        self.rng, self.last_send, self.sent_at = random.Random(0), 0.0, None
        self.token = self.seat = self.game = self.code = self.n = self.view = None
        self.updates, self.lobbies, self.told = [], [], []


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_the_limits_count_each_players_own_address(tmp_path, trusted):
    """``serve --trusted-proxy``: a guesser's wrong passwords count against the address the proxy
    forwards, so the other players behind the same proxy may still sign in; from a peer that is
    not a trusted proxy the header is ignored (a client cannot choose its address)."""
    t = ServerThread(tmp_path / "data", accounts=True)
    if trusted:
        t.admission.proxies = frozenset({"127.0.0.1"})
    srv = t.start()
    try:
        _register(srv.url, "Ann", source="127.0.0.9")
        guesser = Proxied(srv.url, "203.0.113.7")
        for i in range(A.ADDRESS_FAILS):
            _answer(guesser, "wrong_password", "accounts.wrong_password", type="sign_in", name=f"Nobody{i}",
                    password=PASSWORD)
        _answer(guesser, "limit", "accounts.wait_address", type="sign_in", name="Ann", password=PASSWORD)
        other = Proxied(srv.url, "198.51.100.4, 203.0.113.7" if not trusted else "198.51.100.4")
        m = other.ask(type="sign_in", name="Ann", password=PASSWORD)
        if trusted:
            assert m["type"] == "account"
        else:  # both are 127.0.0.1 to the server: the guesser's limit is theirs too
            assert (m["type"], m.get("key")) == ("error", "accounts.wait_address")
    finally:
        srv.stop()
