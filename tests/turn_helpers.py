"""Helpers of the turn-based games' tests (t47turn): a clock for the turn-based clocks, a server
with accounts, signed-in clients, a started turn-based game, My games asked."""
from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from gonzaga.net import accounts, turns
from gonzaga.net.serve import ServerThread

from test_net_server import HOST, Client, seat

PASSWORD = "correct horse"
HOUR = 3600.0


class WallClock:
    """The turn-based clocks' time (``turns.time``): the real one plus what the test skipped."""

    def __init__(self, monkeypatch):
        self.ahead = 0.0
        monkeypatch.setattr(turns, "time", SimpleNamespace(time=lambda: time.time() + self.ahead))

    def skip(self, seconds: float) -> None:
        self.ahead += seconds


@pytest.fixture(autouse=True)
def registers(monkeypatch):
    """More accounts from this one address than a server allows an hour (the tests' players)."""
    monkeypatch.setattr(accounts, "REGISTERS", 20)


@pytest.fixture
def wall(monkeypatch):
    return WallClock(monkeypatch)


def _server(data) -> ServerThread:
    return ServerThread(data, test_seeds=True, any_level=True, accounts=True).start()


@pytest.fixture
def srv(tmp_path):
    t = _server(tmp_path / "data")
    yield t
    t.stop()


def account(url: str, name: str, session: str = "") -> Client:
    """A client signed in to ``name`` (registered when no ``session`` is given)."""
    c = Client(url)
    if session:
        c.send(type="whoami", session=session)
    else:
        c.send(type="register", name=name, password=PASSWORD, device="test")
    m = c.expect("account")
    c.session = m.get("session") or session
    c.device_key = m.get("device_key")
    return c


def my_games(c: Client) -> dict:
    c.send(type="my_games")
    return c.expect("my_games_list", skip=("lobby", "pong", "update", "history"))


def turn_game(url: str, hours: int = 12, limit: int = 3, names=("Ann", "Bea")) -> tuple[Client, Client]:
    """A started two-seat turn-based game between two accounts."""
    ann = account(url, names[0])
    ann.send(type="create", name=names[0], seats=[HOST, seat("open", "blue")], seed=7, pace="turn",
             move_hours=hours, missed_limit=limit)
    ann.expect("joined")
    lobby = ann.expect("lobby")
    assert (lobby["pace"], lobby["move_hours"], lobby["missed_limit"]) == ("turn", hours, limit)
    bea = account(url, names[1])
    bea.send(type="join", code=ann.code, name=names[1])
    bea.expect("joined")
    ann.send(type="start", token=ann.token)
    ann.expect("update")
    bea.expect("update")
    return ann, bea


def wait_for(pred, timeout: float = 15.0, what: str = "the server") -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, f"{what} did not get there in time"
        time.sleep(0.05)


def row_of(listing: dict, game: str) -> dict:
    return next(r for r in listing["games"] if r["game"] == game)


def caught_up(c: Client, room) -> None:
    """Read ``c``'s messages until it has seen every action of ``room``."""
    wait_for(lambda: (c.poll(0.05), c.n == room.n)[1], what="the client's updates")


def play_until(room, mover: Client, due: int) -> None:
    """``mover`` plays its moves (the first legal one) until seat ``due`` is to decide (or the game is over)."""
    for _ in range(300):
        st = room.state
        if st.phase == "over" or due in st.to_act():
            return
        if mover.seat in st.to_act():
            caught_up(mover, room)
            n = room.n
            mover.act(mover.my_actions()[0])
            wait_for(lambda n=n: room.n > n, what="the move")
        else:
            time.sleep(0.05)
    raise AssertionError("seat never due")
