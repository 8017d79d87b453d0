"""The network layer's gaps an audit found (issue 38): a real token of another game, an action
numbered behind the game, a message whose characters are few but whose bytes are many.

These drive ``GameServer.dispatch`` directly with stand-in connections (no sockets, no AI seats:
every seat is a human), so they are fast enough for the mutation run."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from gonzaga.net import protocol as P
from gonzaga.net import server as S
from gonzaga.net.admission import Admission
from gonzaga.net.storage import open_store
from gonzaga.rules import legal_actions, load_content

CONTENT = load_content()
HOST = {"kind": "host", "colour": "red"}
OPEN = {"kind": "open", "colour": "blue"}

pytestmark = pytest.mark.rule("E-net")


class Client:
    """A stand-in connection: what the server queues for it is read back as dicts."""

    def __init__(self, server: S.GameServer):
        self.server = server
        self.conn = S.Conn(SimpleNamespace(remote_address=("test", 0)))
        self.token = self.game = self.code = self.seat = None
        self.n = None
        self.view = None

    def send(self, **msg) -> list[dict]:
        return self.send_text(json.dumps({"v": 2, **msg}))

    def send_text(self, text) -> list[dict]:
        self.server.dispatch(self.conn, text)
        return self.inbox()

    def inbox(self) -> list[dict]:
        out = []
        while not self.conn.out.empty():
            item = self.conn.out.get_nowait()
            if isinstance(item, tuple):  # a close (code, reason)
                out.append({"type": "close", "code": item[0]})
                continue
            m = json.loads(item)
            if m["type"] == "joined":
                self.token, self.game, self.code, self.seat = m["token"], m["game"], m["code"], m["seat"]
            if m["type"] == "update":
                from gonzaga.net.viewcodec import view_from_json
                self.n, self.view = m["n"], view_from_json(m["view"], CONTENT)
            out.append(m)
        return out

    def error(self, got: list[dict]) -> str:
        errors = [m for m in got if m["type"] == "error"]
        assert errors, got
        return errors[0]["code"]


@pytest.fixture
def server(tmp_path):
    store = open_store(tmp_path / "data")
    srv = S.GameServer(store, CONTENT, workers=1, admission=Admission(test_seeds=True))  # the tests' own deals
    yield srv
    srv.close()
    store.close()


def two_humans(server, seed=3):
    host = Client(server)
    host.send(type="create", name="Ann", seats=[HOST, OPEN], seed=seed)
    friend = Client(server)
    friend.send(type="join", code=host.code, name="Bea")
    host.inbox()
    return host, friend


def test_a_real_token_of_another_game_is_refused(server):
    """Gap 7: game B's host token, genuine on this server, does not open a seat of game A."""
    a_host, a_friend = two_humans(server, seed=3)
    b_host, _ = two_humans(server, seed=4)
    room_a = server.rooms[a_host.game]
    before = [s.conn for s in room_a.seats]
    thief = Client(server)
    got = thief.send(type="resume", game=a_host.game, token=b_host.token)
    assert thief.error(got) == "bad_token"
    assert thief.conn.room is None and [s.conn for s in room_a.seats] == before
    assert not any(m["type"] in ("joined", "update") for m in got)
    # the token still works for its own game
    got = thief.send(type="resume", game=b_host.game, token=b_host.token)
    assert any(m["type"] == "joined" and m["game"] == b_host.game and m["seat"] == 0 for m in got)


def test_a_token_acts_only_in_its_own_game_and_seat(server):
    a_host, a_friend = two_humans(server, seed=3)
    b_host, b_friend = two_humans(server, seed=4)
    for c in (a_host, b_host):
        c.send(type="start", token=c.token)
    a_friend.inbox()
    b_friend.inbox()
    room_a, room_b = server.rooms[a_host.game], server.rooms[b_host.game]
    na, nb = room_a.n, room_b.n
    plan = next(p for p in legal_actions(a_friend.view, 1) if not p.king)
    got = a_host.send(type="act", token=a_host.token, n=na, action=plan.to_text())  # seat 1's plan, by seat 0
    assert a_host.error(got) == "not_your_seat"
    got = b_friend.send(type="act", token=b_friend.token, n=na, action=plan.to_text())
    assert room_a.n == na  # B's friend may hold seat 1, but of game B only
    assert room_b.n in (nb, nb + 1)
    got = a_friend.send(type="start", token=a_friend.token)
    assert a_friend.error(got) == "not_host"


def test_an_action_numbered_behind_the_game_is_stale(server):
    """Gap 11: ``n`` lower than the game's action count is refused, as a higher one is."""
    host, friend = two_humans(server)
    got = friend.send(type="start", token=friend.token)
    assert friend.error(got) == "not_host" and not server.rooms[host.game].started
    host.send(type="start", token=host.token)
    friend.inbox()
    room = server.rooms[host.game]
    p0 = next(p for p in legal_actions(host.view, 0) if not p.king)
    host.send(type="act", token=host.token, n=room.n, action=p0.to_text())
    friend.inbox()
    assert room.n == 2 and friend.n == 2
    p1 = next(p for p in legal_actions(friend.view, 1) if not p.king)
    for n in (0, 1, 3, 40):
        got = friend.send(type="act", token=friend.token, n=n, action=p1.to_text())
        assert friend.error(got) == "stale" and room.n == 2
    got = friend.send(type="act", token=friend.token, n=2, action=p1.to_text())
    assert room.n == 3 and any(m["type"] == "update" and m["n"] == 3 for m in got)


def test_another_seats_plan_reaches_a_client_as_planned_only(server):
    host, friend = two_humans(server)
    host.send(type="start", token=host.token)
    friend.inbox()
    p0 = next(p for p in legal_actions(host.view, 0) if not p.king)
    got = host.send(type="act", token=host.token, n=1, action=p0.to_text())
    mine = [m for m in got if m["type"] == "update"][0]
    theirs = [m for m in friend.inbox() if m["type"] == "update"][0]
    assert mine["last"] == {"kind": "plan", "seat": 0, "text": p0.to_text(), "by_ai": False}
    assert theirs["last"] == {"kind": "plan", "seat": 0, "text": None, "by_ai": False}
    assert theirs["view"]["seats"][0]["objective"] is None


def test_a_removed_friends_token_stops_working(server):
    host, friend = two_humans(server)
    got = host.send(type="set_seat", token=host.token, seat=1, kind="open")
    assert not [m for m in got if m["type"] == "error"]
    got = friend.send(type="set_seat", token=friend.token, seat=1, kind="open")
    assert friend.error(got) == "bad_token"
    late = Client(server)
    late.send(type="join", code=host.code, name="Cy")
    host.send(type="start", token=host.token)
    room = server.rooms[host.game]
    assert room.started and room.seats[1].name == "Cy"
    di = Client(server)
    got = di.send(type="join", code=host.code, name="Di")
    # a started game's code gets the answer of a wrong code (a guess learns nothing), nobody joins
    assert di.error(got) == "unknown_game" and di.conn.room is None and di.token is None
    got = host.send(type="start", token=host.token)
    assert host.error(got) == "started" and room.n == 1  # nor is it dealt again


def test_the_size_limit_counts_bytes_not_characters():
    """Gap 8: a message of few characters but many bytes ("€" is three bytes in UTF-8)."""
    room = P.MAX_CLIENT_BYTES - 40
    euros = '{"v": 2, "type": "ping", "x": "' + "€" * (room // 3 + 100) + '"}'
    assert len(euros) <= P.MAX_CLIENT_BYTES < len(euros.encode("utf-8"))
    for text in (euros, euros.encode("utf-8")):
        with pytest.raises(P.ProtocolError) as e:
            P.parse_client(text)
        assert e.value.code == "too_large"
    fits = '{"v": 2, "type": "ping", "x": "' + "€" * (room // 3) + '"}'
    assert len(fits.encode("utf-8")) <= P.MAX_CLIENT_BYTES
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(fits)
    assert e.value.code == "bad_message"  # read and refused for its extra field, not for its size
    huge = '{"v": 2, "type": "ping", "x": "' + "€" * (P.MAX_CLIENT_BYTES - 40) + '"}'  # 16 K characters, 48 KiB
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(huge)
    assert e.value.code == "too_large"


def test_an_oversized_message_is_answered_and_its_connection_closed(server):
    c = Client(server)
    got = c.send_text('{"v": 2, "type": "ping", "x": "' + "€" * (P.MAX_CLIENT_BYTES // 3 + 10) + '"}')
    assert c.error(got) == "too_large"
    assert {"type": "close", "code": 1009} in got


def test_nesting_is_bounded_at_the_limit():
    deep = '{"v": 2, "type": "ping", "x": ' + "[" * (P.MAX_DEPTH - 1) + "]" * (P.MAX_DEPTH - 1) + "}"
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(deep)
    assert e.value.code == "bad_message"  # MAX_DEPTH levels: parsed, then refused as no message
    deeper = '{"v": 2, "type": "ping", "x": ' + "[" * P.MAX_DEPTH + "]" * P.MAX_DEPTH + "}"
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(deeper)
    assert e.value.code == "too_deep"
    # as deep, but never more than five openings in a row: the levels are counted, not the run
    side = '{"v": 2, "type": "ping", "x": [[], ' + "[" * (P.MAX_DEPTH - 1) + "]" * (P.MAX_DEPTH - 1) + "]}"
    assert "[" * P.MAX_DEPTH not in side
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(side)
    assert e.value.code == "too_deep"
