"""The server's debug log holds its own lines, not websockets' frame by frame trace (issue 47:
seven records an action, a fifth of the server's CPU under ``netplay-check``, which runs the
server at debug; and each frame line quotes the start of a message, a seat's own view among
them)."""
from __future__ import annotations

import logging

import pytest
from websockets.sync.client import connect


from gonzaga.net.serve import ServerThread

pytestmark = pytest.mark.rule("E-net")
WIRE = "gonzaga.net.websockets"  # the logger serve.py gives websockets


def test_debug_log_has_no_websocket_frames(tmp_path, caplog):
    wire = logging.getLogger(WIRE)
    level = wire.level
    caplog.set_level(logging.DEBUG)  # the root logger at debug, as `gonzaga serve --log-level debug`
    srv = ServerThread(tmp_path / "server").start()
    try:
        with connect(srv.url) as ws:
            ws.send('{"v": 2, "type": "nonsense"}')
            answer = ws.recv(timeout=10)
        assert '"error"' in str(answer)  # the frames went both ways
    finally:
        srv.stop()
        wire.setLevel(level)
    frames = [r for r in caplog.records if r.name.startswith(WIRE) and r.levelno < logging.INFO]
    assert frames == []
