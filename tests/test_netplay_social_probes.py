"""Issue 39: ``netplay-check``'s hostile section sends every new message type malformed (chat,
emote, resign, rematch, watch, and the server's own messages from a client) and each must get
its error, against a real server on loopback (``wss://``, pinned)."""
from __future__ import annotations

import asyncio

from gonzaga.net import check
from gonzaga.net.check_social import OWN_GAME, malformed_frames, social_probes
from gonzaga.net.serve import ServerThread


def run_probes(url: str) -> list[dict]:
    return asyncio.run(social_probes(url, "ZZZZZZ", check._probe, check._connect, check._reply, check._judge,
                                     lambda line: None))


def test_every_new_message_type_malformed_is_refused_cleanly(tmp_path):
    srv = ServerThread(tmp_path / "server").start()
    try:
        probes = run_probes(srv.url)
        assert asyncio.run(check.ping(srv.url))  # still up
    finally:
        srv.stop()
    assert len(probes) == len(malformed_frames("x" * 32, "ZZZZZZ")) + len(OWN_GAME) >= 25
    assert [p for p in probes if not p["refused"]] == []
    sent = {p["probe"].split()[0] for p in probes}
    assert {"chat", "emote", "resign", "rematch", "watch", "history", "said", "watching", "lobby"} <= sent


def test_a_probe_the_server_answers_otherwise_is_not_counted_refused():
    r = check._judge("emote not offered", {"type": "said"}, "bad_message", False)
    assert not r["refused"] and r["got"] == "said"
    assert not check._judge("rematch before the end", {}, "not_over", False)["refused"]  # silence
