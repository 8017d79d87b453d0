"""``netplay-check``'s probes of the messages of a real online game (issue 39): ``chat``,
``emote``, ``resign``, ``rematch`` and ``watch`` malformed (a field missing, of the wrong type,
too long, an unknown emote, a stray field), the same with a token nobody holds, the
server-to-client messages (``history``, ``said``, ``watching``, ``lobby``, ``update`` with a
turn timer's ``turn_left``) sent by a client, and,
with a token of a game of its own: a line of invisible characters, a rematch before the end, a
spectator who tries to speak. Each must get its error code (the contract's), never a crash or
silence; the server must keep answering.

``social_probes(url, connect, reply, judge)`` takes the check's connection helpers (check.py)
so that this module and the check do not import each other."""
from __future__ import annotations

import json
import secrets
from typing import Any, Awaitable, Callable

from websockets.exceptions import ConnectionClosed

from . import protocol as P
from .cleantext import MAX_CHAT


def _frame(**fields: Any) -> str:
    return json.dumps({"v": P.PROTOCOL_VERSION, **fields})


def malformed_frames(bogus_token: str, unused_code: str) -> list[tuple[str, str, str]]:
    """(probe name, frame, the error expected) sent on a fresh connection each."""
    long_text = "x" * (4 * MAX_CHAT + 1)
    return [
        ("chat without a token", _frame(type="chat", text="hello"), "bad_message"),
        ("chat with no text", _frame(type="chat", token=bogus_token, text=""), "bad_message"),
        ("chat too long", _frame(type="chat", token=bogus_token, text=long_text), "bad_message"),
        ("chat text not a string", _frame(type="chat", token=bogus_token, text=["hi"]), "bad_message"),
        ("emote not offered", _frame(type="emote", token=bogus_token, emote="rude"), "bad_message"),
        ("emote missing", _frame(type="emote", token=bogus_token), "bad_message"),
        ("resign with a stray field", _frame(type="resign", token=bogus_token, seat=1), "bad_message"),
        ("resign token not a string", _frame(type="resign", token=12345), "bad_message"),
        ("rematch without a token", _frame(type="rematch"), "bad_message"),
        ("watch a malformed code", _frame(type="watch", code="ab"), "bad_message"),
        ("watch with a seat", _frame(type="watch", code=unused_code, seat=0), "bad_message"),
        ("history from a client", _frame(type="history", game="0" * 16, n=0, lines=[]), "bad_message"),
        ("said from a client", _frame(type="said", game="0" * 16, seat=0, name="x", text="hi"), "bad_message"),
        ("watching from a client", _frame(type="watching", game="0" * 16, code=unused_code, map={}),
         "bad_message"),
        ("lobby from a client", _frame(type="lobby", game="0" * 16, code=unused_code, seats=[]), "bad_message"),
        ("update with a time left from a client", _frame(type="update", game="0" * 16, n=1, seat=0, view={},
                                                         seats=[], turn_left=30), "bad_message"),
        ("update with a negative time left", _frame(type="update", game="0" * 16, n=1, seat=0, view={},
                                                    seats=[], turn_left=-5), "bad_message"),
        # well formed, but nobody holds the token or the code: the same answers as for ``act``/``join``
        ("chat with a bad token", P.encode(P.Chat(token=bogus_token, text="hello")), "bad_token"),
        ("emote with a bad token", P.encode(P.Emote(token=bogus_token, emote="hello")), "bad_token"),
        ("resign with a bad token", P.encode(P.Resign(token=bogus_token)), "bad_token"),
        ("rematch with a bad token", P.encode(P.Rematch(token=bogus_token)), "bad_token"),
        ("watch an unknown code", P.encode(P.Watch(code=unused_code)), "unknown_game"),
    ]


OWN_GAME = ("chat of invisible characters only", "rematch before the end", "a spectator's chat")


def probe_names() -> set[str]:
    """The names of this module's probes (the check counts them apart: ``social_sent``)."""
    return {name for name, _f, _e in malformed_frames("x" * 32, "ZZZZZZ")} | set(OWN_GAME) | {"social"}


async def social_probes(url: str, unused_code: str, probe: Callable[..., Awaitable[dict[str, Any]]],
                        connect: Callable[..., Any], reply: Callable[..., Any], judge: Callable[..., Any],
                        log_line: Callable[..., Any]) -> list[dict[str, Any]]:
    """Every probe above, then the ones that need a game of its own (``OWN_GAME``)."""
    bogus = secrets.token_urlsafe(24)
    out = [await probe(url, name, frame, expect) for name, frame, expect in malformed_frames(bogus, unused_code)]
    out += await _own_game(url, connect, reply, judge, log_line)
    return out


async def _own_game(url: str, connect: Any, reply: Any, judge: Any, log_line: Any) -> list[dict[str, Any]]:
    ws = await connect(url)
    watcher = None
    try:
        await ws.send(P.encode(P.Create(name="Mallory", seats=[
            P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="ai", colour="blue", bot="easy")])))
        token = code = game = None
        for _ in range(10):
            r = await reply(ws)
            if not r or "closed" in r:
                break
            log_line({"game": game, "seat": 0, "msg": r})
            if r.get("type") == "joined":
                token, code, game = r["token"], r["code"], r["game"]
                break
        if token is None:
            return [{"probe": n, "refused": False, "got": "the probes' game was not created"} for n in OWN_GAME]
        out = []
        for name, msg, expect in ((OWN_GAME[0], P.Chat(token=token, text="\u200b\u202e\u2066\u00ad"), "bad_message"),
                                  (OWN_GAME[1], P.Rematch(token=token), "not_over")):
            try:
                await ws.send(P.encode(msg))
            except ConnectionClosed:
                pass
            r = await _answer(ws, reply)
            log_line({"game": game, "seat": 0, "msg": r})
            out.append(judge(name, r, expect, False))
        # a spectator has no token: what it says can only be a chat with a token it does not hold
        watcher = await connect(url)
        await watcher.send(P.encode(P.Watch(code=str(code))))
        r = await reply(watcher)
        if r.get("type") != "watching":
            out.append({"probe": OWN_GAME[2], "refused": False, "got": f"watch answered {r.get('type') or r}"})
            return out
        await watcher.send(P.encode(P.Chat(token=secrets.token_urlsafe(24), text="I am the host")))
        r = await _answer(watcher, reply)
        out.append(judge(OWN_GAME[2], r, "bad_token", False))
        return out
    finally:
        await ws.close()
        if watcher is not None:
            await watcher.close()


async def _answer(ws: Any, reply: Any) -> dict[str, Any]:
    """The next error or close, past the lobby and chat messages the game sends meanwhile."""
    for _ in range(10):
        r: dict[str, Any] = await reply(ws)
        if not r or "closed" in r or r.get("type") == "error":
            return r
    return {}
