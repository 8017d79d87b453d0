"""Issue 47, the server's CPU per action: a landed batch releases only the connections whose
held messages it covers (``GroupCommit.hold``), in the order of the writes they wait for; every
held message still goes out once its write is durable, and never before."""
from __future__ import annotations

import asyncio
from typing import Optional

from gonzaga.net.groupcommit import GroupCommit


class FakeConn:
    """A holder as ``rooms.Conn`` is: messages held behind write numbers, released in order."""

    def __init__(self, commits: GroupCommit, name: str):
        self.commits, self.name = commits, name
        self.held: list[tuple[int, str]] = []
        self.sent: list[str] = []
        self.asked = 0  # release calls

    def put(self, after: int, msg: str) -> None:
        if not self.held:
            self.commits.hold(self, after)
        self.held.append((after, msg))

    def release(self, durable: int) -> Optional[int]:
        self.asked += 1
        while self.held and self.held[0][0] <= durable:
            self.sent.append(self.held.pop(0)[1])
        return self.held[0][0] if self.held else None


def test_a_landed_batch_asks_only_the_connections_it_releases():
    loop = asyncio.new_event_loop()
    commits = GroupCommit(object(), loop)  # type: ignore[arg-type]  # no store: the batches are told by hand
    try:
        conns = [FakeConn(commits, f"c{i}") for i in range(100)]
        for i, c in enumerate(conns):
            c.put(i + 1, f"{c.name}-a")  # each waits for its own write, 1..100
        conns[0].put(50, "c0-b")  # a later message of c0 waits for write 50
        commits._landed(3, [])
        assert [c.sent for c in conns[:4]] == [["c0-a"], ["c1-a"], ["c2-a"], []]
        assert sum(c.asked for c in conns) == 3  # not the 97 connections still waiting
        commits._landed(49, [])
        assert conns[0].sent == ["c0-a"] and conns[48].sent == ["c48-a"] and conns[49].sent == []
        assert sum(c.asked for c in conns) == 3 + 46
        commits._landed(100, [])
        assert conns[0].sent == ["c0-a", "c0-b"]
        assert all(c.sent == [f"{c.name}-a"] for c in conns[1:]) and not any(c.held for c in conns)
        assert sum(c.asked for c in conns) == 3 + 46 + 52  # c49..c99, and c0 again for its write 50
        assert commits._holders == []
    finally:
        commits.close()
        loop.close()
