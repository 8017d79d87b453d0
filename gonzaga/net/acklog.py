"""What the server has acknowledged, kept beside its database, so that a start never quietly has
less (issue 39).

SQLite ignores a write-ahead log frame that does not verify, and everything after it, without a
word: a damaged or deleted ``-wal`` file, or a database put back from an older copy, would give
a server that starts with fewer actions than its players were told of. So the server also keeps
``gonzaga-server.acks``: one short line per game created, action stored or lobby deleted
(``GAME N CRC``: the game has N actions, or ``-`` when deleted), appended and fsynced after the
database commit and before anyone is told. At start the store compares: a game with fewer
actions in the database than acknowledged is a loss, reported with the files' names.

``scan_wal`` checks the ``-wal`` file itself (its header and every frame of its current
generation, by SQLite's own checksums) before SQLite opens it, so that damage is reported even
when nothing acknowledged was lost.
"""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import Optional

from ..table.persistence import fsync_dir

ACKS_NAME = "gonzaga-server.acks"
DELETED = -1
WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums of little- or big-endian words


def _line(game_id: str, n: int) -> bytes:
    body = f"{game_id} {'-' if n == DELETED else n}"
    return f"{body} {zlib.crc32(body.encode()):08x}\n".encode()


class AckLog:
    """The append-only file of acknowledged action counts (see the module docstring)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd: Optional[int] = None

    def open(self) -> None:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def record(self, game_id: str, n: int) -> None:
        """Game ``game_id`` now has ``n`` actions (DELETED: it was deleted); on disk on return."""
        if self._fd is None:
            raise OSError(f"{self.path} is not open")
        os.write(self._fd, _line(game_id, n))
        os.fsync(self._fd)

    def record_many(self, counts: list[tuple[str, int]]) -> None:
        """Several games' counts in one write and one fsync (a batch of grouped commits)."""
        if not counts:
            return
        if self._fd is None:
            raise OSError(f"{self.path} is not open")
        os.write(self._fd, b"".join(_line(g, n) for g, n in counts))
        os.fsync(self._fd)

    def read(self) -> tuple[dict[str, int], int]:
        """The last count of every game (deleted games left out), and how many lines are damaged
        (a line cut short at the very end, by a crash during its write, is not damage: it was
        never acknowledged)."""
        counts: dict[str, int] = {}
        bad = 0
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return counts, 0
        lines = data.split(b"\n")
        tail = lines.pop()  # b"" when the file ends with a newline, else a cut last line
        for raw in lines:
            parts = raw.split(b" ")
            if len(parts) != 3:
                bad += 1
                continue
            body = parts[0] + b" " + parts[1]
            try:
                ok = int(parts[2], 16) == zlib.crc32(body)
            except ValueError:
                ok = False
            if not ok:
                bad += 1
                continue
            gid, n = parts[0].decode("ascii", "replace"), parts[1]
            if n == b"-":
                counts.pop(gid, None)
            else:
                counts[gid] = int(n)
        del tail
        return counts, bad

    def rewrite(self, counts: dict[str, int]) -> None:
        """Replace the file by one line per game (atomically), e.g. at start, to keep it short."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(b"".join(_line(g, n) for g, n in sorted(counts.items())))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fsync_dir(self.path.parent)
        if self._fd is not None:  # the old file is gone: append to the new one
            os.close(self._fd)
            self.open()

    def close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


def _checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    m = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & m
        s1 = (s1 + words[i + 1] + s0) & m
    return s0, s1


def wal_frames(path: Path) -> tuple[int, int, Optional[str]]:
    """The write-ahead log at ``path``: (page size, frames of its current generation that verify,
    what is damaged or None). A missing or empty file is (0, 0, None)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return 0, 0, None
    if not data:
        return 0, 0, None
    if len(data) < 32:
        return 0, 0, f"{path} is cut short ({len(data)} bytes, not even its header)"
    magic, _version, page, _ckpt, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:32])
    if magic not in WAL_MAGIC or page < 512 or page > 65536 or page & (page - 1):
        return 0, 0, f"{path} has a damaged header"
    big = bool(magic & 1)
    if _checksum(data[:24], 0, 0, big) != (c1, c2):
        return page, 0, f"{path} has a damaged header (its checksum does not verify)"
    s0, s1 = c1, c2
    off, frames, size = 32, 0, 24 + page
    while off + 24 <= len(data):
        _pg, _commit, f1, f2, k1, k2 = struct.unpack(">6I", data[off:off + 24])
        if (f1, f2) != (salt1, salt2):
            break  # a frame of an earlier generation: the log's live part ends here
        if off + size > len(data):
            return page, frames, f"{path} ends inside frame {frames + 1}"
        s0, s1 = _checksum(data[off:off + 8], s0, s1, big)
        s0, s1 = _checksum(data[off + 24:off + size], s0, s1, big)
        if (s0, s1) != (k1, k2):
            return page, frames, f"frame {frames + 1} of {path} does not verify ({frames} frames before it do)"
        frames += 1
        off += size
    return page, frames, None
