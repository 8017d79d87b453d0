"""Grouped commits (issue 47, gonzaga/net/groupcommit.py): many actions share one commit, the
event loop never waits on the disk, and no player is told of an action before it is durable."""
from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

from gonzaga.net import protocol as P
from gonzaga.net import serve
from gonzaga.net.groupcommit import GroupCommit
from gonzaga.net.storage import DB_NAME, SQLiteStore, StoredGame, open_store
from gonzaga.net.viewcodec import view_from_json
from gonzaga.rules import legal_actions, load_content

CONTENT = load_content()
ROOT = Path(__file__).resolve().parents[1]
WAIT = 20.0  # seconds before a test gives up on something that must happen


class Seat:
    """One player's connection to a game (plain ws://, the tests' server)."""

    def __init__(self, url: str):
        self.ws = connect(url, open_timeout=20, close_timeout=2, max_size=P.MAX_SERVER_BYTES).__enter__()
        self.token = self.game = self.code = None
        self.seat = self.n = None
        self.view = None

    def send(self, **msg) -> None:
        self.ws.send(json.dumps({"v": 2, **msg}))

    def recv(self, timeout: float = WAIT) -> dict:
        m = json.loads(self.ws.recv(timeout=timeout))
        if m["type"] == "joined":
            self.token, self.game, self.code, self.seat = m["token"], m["game"], m["code"], m["seat"]
        elif m["type"] == "update":
            self.n, self.view = m["n"], view_from_json(m["view"], CONTENT)
        return m

    def until(self, kind: str, timeout: float = WAIT) -> dict:
        end = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, end - time.monotonic()))
            if m["type"] == kind:
                return m
            assert m["type"] != "error", m

    def quiet(self, seconds: float) -> list[dict]:
        """Every message within ``seconds`` (nothing must come: an acknowledgement held back)."""
        got = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                got.append(self.recv(max(0.01, end - time.monotonic())))
            except TimeoutError:
                break
        return got

    def act(self) -> str:
        """This seat's first legal action, sent; its text."""
        action = legal_actions(self.view, self.seat)[0].to_text()
        self.send(type="act", token=self.token, n=self.n, action=action)
        return action

    def close(self) -> None:
        self.ws.close()


def two_seat_game(url: str) -> tuple[Seat, Seat]:
    """Two human seats, started: both are to plan (the setup is action 0)."""
    a, b = Seat(url), Seat(url)
    a.send(type="create", name="Ann", seats=[{"kind": "host", "colour": "red"}, {"kind": "open", "colour": "blue"}],
           seed=7)
    a.until("joined")
    b.send(type="join", code=a.code, name="Bea")
    b.until("joined")
    a.send(type="start", token=a.token)
    for s in (a, b):
        s.until("update")
        assert s.seat in s.view.to_act()
    return a, b


@pytest.fixture
def srv(tmp_path):
    t = serve.ServerThread(tmp_path / "data", test_seeds=True)
    t.start()
    yield t
    t.stop()


class Gate:
    """Holds the writer thread inside the store's next ``append_actions`` until opened (a
    commit that takes as long as the test wants); counts the batches and their sizes."""

    def __init__(self, monkeypatch):
        self.armed = threading.Event()
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.batches: list[int] = []
        real = SQLiteStore.append_actions

        def append_actions(store, items):
            self.batches.append(len(items))
            if self.armed.is_set():
                self.armed.clear()
                self.entered.set()
                assert self.opened.wait(WAIT), "the test never opened the gate"
            return real(store, items)
        monkeypatch.setattr(SQLiteStore, "append_actions", append_actions)


def stored_actions(data: Path, game: str) -> list[str]:
    db = sqlite3.connect(data / DB_NAME)
    try:
        return [r[0] for r in db.execute("SELECT text FROM actions WHERE game_id = ? ORDER BY idx", (game,))]
    finally:
        db.close()


def test_an_acknowledgement_waits_for_its_commit_and_the_loop_does_not(srv, monkeypatch):
    """A commit that does not return: the player is not told of the action (nor anyone else),
    while another game's connection is still answered; once the commit returns, both hear."""
    gate = Gate(monkeypatch)
    a, b = two_seat_game(srv.url)
    other = Seat(srv.url)
    gate.armed.set()
    a.act()
    assert gate.entered.wait(WAIT), "the action never reached the store"
    other.send(type="ping")
    assert other.until("pong", timeout=5.0)  # the event loop is not waiting on the disk
    assert [m["type"] for m in a.quiet(0.5)] == []  # no update, no lobby: nothing before the commit
    assert [m for m in b.quiet(0.2) if m["type"] == "update"] == []
    gate.opened.set()
    assert a.until("update")["n"] == 2 and b.until("update")["n"] == 2
    assert len(stored_actions(srv.data_dir, a.game)) == 2
    for s in (a, b, other):
        s.close()


def test_actions_queued_during_a_commit_share_the_next_one():
    """Grouped: 60 actions of 6 games queued while a commit is under way are stored in one more
    commit (a store wrapper counts them), each game's in its order."""
    async def run(tmp: Path) -> tuple[list[int], dict[str, list[str]], int, int]:
        store = open_store(tmp)
        batches: list[int] = []
        entered, opened = threading.Event(), threading.Event()
        real = store.append_actions

        def counting(items):
            batches.append(len(items))
            if len(batches) == 1:
                entered.set()
                opened.wait(WAIT)
            return real(items)
        store.append_actions = counting  # type: ignore[method-assign]
        games = [f"g{k}" for k in range(6)]
        for g in games:
            store.create_game(StoredGame(g, g.upper(), {}, 1, []))
        commits = GroupCommit(store, asyncio.get_running_loop())
        commits.append_soon("g0", 0, "first")
        while not entered.is_set():
            await asyncio.sleep(0.001)
        for i in range(10):
            for g in games:
                commits.append_soon(g, i + (g == "g0"), f"{g}-{i}")
        opened.set()
        while commits.durable < commits.issued:
            await asyncio.sleep(0.001)
        loaded = {g.id: g.actions for g in commits.load_games()}
        durable, issued = commits.durable, commits.issued
        commits.close()
        store.close()
        return batches, loaded, durable, issued

    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        batches, loaded, durable, issued = asyncio.run(run(Path(tmp)))
    assert batches == [1, 60], batches
    assert durable == issued == 61
    assert loaded["g0"] == ["first"] + [f"g0-{i}" for i in range(10)]
    assert all(loaded[f"g{k}"] == [f"g{k}-{i}" for i in range(10)] for k in range(1, 6))


def test_a_batch_that_fails_midway_acknowledges_none_of_it(srv, monkeypatch):
    """Two games' actions in one batch whose transaction fails at the second insert (a trigger
    raises, after the first was written): neither player is told of their action, both get the
    refusal ``server``, nothing of the batch is stored, and both games go on from what is."""
    gate = Gate(monkeypatch)
    g1, _ = two_seat_game(srv.url)
    a1, _b1 = two_seat_game(srv.url)
    a2, _b2 = two_seat_game(srv.url)
    commits = srv.server.commits
    gate.armed.set()
    g1.act()  # the commit the others queue behind
    assert gate.entered.wait(WAIT)
    before = commits.issued
    a1.act()
    a2.act()
    end = time.monotonic() + WAIT
    while commits.issued < before + 2 and time.monotonic() < end:
        time.sleep(0.01)
    db = sqlite3.connect(srv.data_dir / DB_NAME)
    db.execute(f"CREATE TRIGGER full BEFORE INSERT ON actions WHEN NEW.game_id = '{a2.game}'"
               " BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
    db.commit()
    gate.opened.set()
    assert g1.until("update")["n"] == 2
    for s in (a1, a2):
        err = s.until("error")
        assert (err["code"], err["key"]) == ("server", "net.not_stored")
        assert s.n == 1  # never told of its own action
        assert len(stored_actions(srv.data_dir, s.game)) == 1  # the setup only: a1's insert was rolled back
        assert srv.server.rooms[s.game].n == 1  # the game in memory went back to what is stored
    assert gate.batches[-1] == 2  # the two were one batch
    db.execute("DROP TRIGGER full")
    db.commit()
    db.close()
    for s in (a1, a2):
        s.act()
        assert s.until("update")["n"] == 2
    assert len(stored_actions(srv.data_dir, a2.game)) == 2


KILL_AFTER_COMMIT = """
import os, runpy, sys
from gonzaga.net import storage
real = storage.SQLiteStore.append_actions
def append_actions(self, items):
    out = real(self, items)  # committed, and the acknowledgement log written
    if any(index >= 1 for _g, index, _t in items):  # a player's action: die before anyone is told
        os._exit(9)
    return out
storage.SQLiteStore.append_actions = append_actions
sys.argv = ["gonzaga"] + sys.argv[1:]
runpy.run_module("gonzaga", run_name="__main__", alter_sys=True)
"""


def serve_process(data: Path, *launcher: str) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, *launcher, "serve", "--port", "0", "--data", str(data), "--no-tls",
                          "--no-address-limits", "--test-seeds", "--log-level", "warning"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, text=True)
    line = p.stdout.readline()
    m = re.fullmatch(r"serving on (ws://\S+)", line.strip())
    if not m:
        p.kill()
        raise AssertionError(f"no server: {line!r} {p.stderr.read()[-500:]}")
    return p, m.group(1)


@pytest.mark.skipif(sys.platform == "win32", reason="the launcher's output is read line by line")
def test_killed_between_commit_and_acknowledgement_the_action_is_there_once(tmp_path):
    """The server dies after the commit of a player's action and before telling anyone: the
    player was told nothing, and after a restart their resume shows the action exactly once
    (sending it again is refused as stale)."""
    data = tmp_path / "data"
    launcher = tmp_path / "kill_after_commit.py"
    launcher.write_text(KILL_AFTER_COMMIT, encoding="utf-8")
    p, url = serve_process(data, str(launcher))
    try:
        a, b = two_seat_game(url)
        sent = a.act()
        assert p.wait(WAIT) == 9
        updates = []
        try:
            while True:
                m = a.recv(5.0)
                updates += [m] if m["type"] == "update" else []
        except Exception:  # the connection died with the server
            pass
        assert updates == []  # never acknowledged
    finally:
        if p.poll() is None:
            p.kill()
    p, url = serve_process(data, "-m", "gonzaga")
    try:
        back = Seat(url)
        back.send(type="resume", game=a.game, token=a.token)
        snap = back.until("update")
        assert snap["n"] == 2  # the setup and the action, once
        assert stored_actions(data, a.game)[1:] == [sent]
        back.send(type="act", token=a.token, n=1, action=sent)
        assert back.until("error")["code"] == "stale"
        back.close()
    finally:
        p.terminate()
        p.wait(WAIT)
