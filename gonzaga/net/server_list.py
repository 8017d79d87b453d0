"""The game servers a player has saved (issue 50): "Play on a server" lists them.

``servers.json`` in the user data folder keeps each server's address as ``typed.parse_address``
writes it (``wss://host:port``, with ``#<fingerprint>`` when the server's certificate is pinned;
without one it is checked by the system's certificate authorities), newest first. As with the
book of online games (``mygames.py``): read fresh for every change, validated with pydantic,
written atomically; a damaged file is moved aside and reported once (``ServerList.problem``),
never a crash.

``server_address`` reads what a player pastes: an address, a whole invite (its code is dropped),
or the line ``gonzaga serve`` prints (``serving on wss://...``). Pure Python (no pygame).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Optional, Union
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..table import persistence
from ..words import i18n
from .invite import split_invite
from .jsonfile import read_model
from .typed import parse_address

log = logging.getLogger(__name__)

FILE_NAME = "servers.json"
FORMAT = "gonzaga-servers"
MAX_BYTES = 64 * 1024
MAX_SERVERS = 20
ANY_HOST = ("0.0.0.0", "[::]", "::")  # what a server listening on every address prints


class SavedServer(BaseModel):
    """One saved server: its address (checked as a typed one is)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    address: str = Field(min_length=6, max_length=200)

    @field_validator("address")
    @classmethod
    def _an_address(cls, v: str) -> str:
        url, why = parse_address(v)
        if url != v:
            raise ValueError(why or "not written as the game writes an address")
        return v


class ServersFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: str = Field(default=FORMAT, pattern=f"^{FORMAT}$")
    version: int = Field(default=1, ge=1, le=1)
    servers: list[SavedServer] = Field(default_factory=list, max_length=MAX_SERVERS)


def default_path() -> Path:
    return persistence.data_dir() / FILE_NAME


def server_address(text: str) -> tuple[Optional[str], str]:
    """(the server's address, "") from what a player pastes: an address, an invite (its code is
    left out) or ``gonzaga serve``'s line "serving on wss://..."; else (None, why, in words)."""
    words = text.split()
    if not words:
        return None, i18n.t("online.bad_address_empty")
    s = next((w for w in reversed(words) if "://" in w), text.strip())  # the address in a line of words
    base, code = split_invite(s)
    url, why = parse_address(base)
    if url is None:
        return None, why
    host = urlsplit(url.partition("#")[0]).netloc.rpartition(":")[0]
    if host in ANY_HOST:  # the server listens everywhere: its players need one of its real addresses
        return None, i18n.t("servers.any_host", address=host)
    return url, ""


class ServerList:
    """The file of saved servers (its path fixed when made)."""

    def __init__(self, path: Optional[Union[str, Path]] = None):
        self.path = Path(path) if path is not None else default_path()
        self.problem: Optional[persistence.SaveError] = None  # a damaged file, moved aside (report it once)

    def read(self) -> ServersFile:
        """The saved servers; none when there is no file or it is damaged (then moved aside,
        ``problem`` set)."""
        if not os.path.lexists(self.path):
            return ServersFile()
        book, message = read_model(self.path, ServersFile, MAX_BYTES, "servers.bad_field")
        if book is not None:
            return book
        log.warning("damaged %s: %s", self.path, message)
        problem = persistence.SaveError(message, self.path)
        problem.moved_to = persistence.move_aside(self.path)
        problem.move_failed = problem.moved_to is None
        self.problem = problem
        return ServersFile()

    def take_problem(self) -> Optional[persistence.SaveError]:
        """The damaged file's report, once."""
        p, self.problem = self.problem, None
        return p

    def addresses(self) -> list[str]:
        return [s.address for s in self.read().servers]

    def _write(self, f: ServersFile) -> Optional[str]:
        """None when written, else why not (in words; logged)."""
        try:
            persistence.atomic_write_bytes(self.path, f.model_dump_json(indent=1).encode("utf-8"))
        except OSError as e:
            log.warning("could not write %s: %s", self.path, e)
            return i18n.t("servers.not_saved", reason=e.strerror or str(e))
        return None

    def add(self, text: str) -> tuple[Optional[str], str]:
        """Save the server ``text`` names (first in the list): (its address, "") or (None, why)."""
        url, why = server_address(text)
        if url is None:
            return None, why
        f = self.read()
        base = url.partition("#")[0]
        kept = [s for s in f.servers if s.address.partition("#")[0] != base]  # a new fingerprint replaces the old
        if len(kept) >= MAX_SERVERS:
            return None, i18n.t("servers.full", n=MAX_SERVERS)
        f.servers = [SavedServer(address=url)] + kept
        problem = self._write(f)
        return (None, problem) if problem else (url, "")

    def remove(self, address: str) -> Optional[str]:
        """Forget ``address``: None when done, else why not (in words)."""
        f = self.read()
        f.servers = [s for s in f.servers if s.address != address]
        return self._write(f)
