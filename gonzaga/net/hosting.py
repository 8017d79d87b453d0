"""The server inside the desktop game, started for a host (``start_server``): on the port this data
folder's server used last, kept in the book of online games (``mygames.Book``). Apart from the
book, so that the title screen, which lists one's online games, does not load the server."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Optional, Union

from .mygames import Book
from .serve import ServerThread, TlsFiles
from .server import new_host_key
from .storage import StoreError

log = logging.getLogger(__name__)


def start_server(book: Book, data_dir: Union[str, Path], lan: bool, port: Optional[int] = None) -> ServerThread:
    """Start the server inside the game on ``port`` (else the one this data folder's server used
    last), or on a free port when that one is taken; the port is remembered. OSError when the
    server cannot start at all (``storage.StoreError`` when another server holds the folder)."""
    host = "0.0.0.0" if lan else "127.0.0.1"
    tls = TlsFiles.own(data_dir)  # made once, kept with the server's games: the invite's fingerprint stays
    preferred = port or book.last_port(data_dir)
    server = None
    if preferred:
        try:
            server = ServerThread(data_dir, host=host, port=preferred, host_key=new_host_key(),
                                  tls=tls).start()
        except StoreError:
            raise
        except OSError as e:  # the port is taken (another program, or the system still holds it)
            log.info("port %d cannot be used again (%r): a free one", preferred, e)
    if server is None:
        server = ServerThread(data_dir, host=host, port=0, host_key=new_host_key(), tls=tls).start()
    book.remember_port(data_dir, server.port)
    return server
