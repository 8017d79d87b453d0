"""Running a game server: ``run_server`` (one asyncio server until told to stop),
``ServerThread`` (that in a background thread: the desktop game's "Host online game", and
tests), and ``gonzaga serve`` (the command: its arguments, its logs, its signals).

The games themselves are ``server.py``; who may do what is ``admission.py``; the per-address
connection limit is applied at accept, before TLS, by ``gate.py``.

Logs: ``gonzaga serve`` writes them to ``DATA/gonzaga-server.log``, rotated at 5 MiB with 5
old files kept (``--log-file`` elsewhere), and warnings and errors also to stderr. The same
message (same logger, level and text before its arguments) is written at most
``RepeatFilter.BURST`` times a minute; the rest are counted and one line says how many were
left out, and only the first of a burst keeps its traceback, so that a server short of file
descriptors (whose every accept fails) cannot fill the disk with tracebacks.
"""
from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import logging.handlers
import signal
import ssl
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional, Union

from websockets.asyncio.server import serve

from ..rules.content import Content
from . import protocol as P
from . import tls as tls_mod
from .admission import Admission, Limits
from .gate import Gate, address_of
from .invite import with_pin
from .protocol import DEFAULT_PORT
from .server import AI_WORKERS, DEFAULT_HOST, GameServer, default_data_dir
from .account_store import AccountStore, SQLiteAccountStore
from .sharing import Sharing, TellingStore
from .storage import GameStore, StoreError, open_store
from . import unstored

log = logging.getLogger("gonzaga.net.server")

LOG_NAME = "gonzaga-server.log"
LOG_BYTES = 5 * 1024 * 1024
LOG_BACKUPS = 5
OPEN_TIMEOUT = 10.0  # seconds for a client's TLS handshake, and then for its WebSocket handshake
CLOSE_TIMEOUT = 2.0
WIRE_LOGGER = "gonzaga.net.websockets"  # the logger websockets writes to


@dataclass(frozen=True)
class Database:
    """A PostgreSQL database for the games instead of the SQLite file in the data folder
    (``--database``; issue 47). ``password``: from ``--database-password-file``; None lets
    libpq find it (PGPASSWORD, ~/.pgpass)."""

    url: str
    password: Optional[str] = None


def open_games_store(data_dir: Union[str, Path], accept_loss: bool = False,
                     database: Optional[Database] = None) -> GameStore:
    """SQLite in ``data_dir`` (the default, held alone), or the PostgreSQL ``database``."""
    if database is None:
        return open_store(data_dir, accept_loss)
    try:
        from .store_pg import PostgresStore  # psycopg only when a PostgreSQL database is chosen
    except ImportError as e:  # the packaged game, or an install without the "server" extra
        raise StoreError(f"this installation has no PostgreSQL client ({e.name or e}): run the server from "
                         "an install with the \"server\" extra (pip install 'gonzaga[server]'); the packaged "
                         "game keeps its games in SQLite") from None
    store = PostgresStore(database.url, password=database.password)
    log.info("the games are in the PostgreSQL database %s", store.where)
    return store


async def run_server(data_dir: Union[str, Path], host: str, port: int, stop: asyncio.Event,
                     ready: Callable[[int, GameServer], None], *, content: Optional[Content] = None,
                     workers: int = AI_WORKERS, admission: Optional[Admission] = None,
                     accept_loss: bool = False, tls: Optional[ssl.SSLContext] = None,
                     database: Optional[Database] = None, accounts: bool = False) -> None:
    """Open the store (``database``, else SQLite in ``data_dir``), load the games, listen
    (``wss://`` with ``tls``, else ``ws://``); ``ready(port, server)`` once listening; return
    after ``stop`` is set, with every connection and the database closed. With a ``database``
    the process shares its games with the others of that database (``sharing.py``).
    ``accounts``: players may register and sign in (``account_desk.py``; their own database in
    the data folder)."""
    # websockets logs every frame at debug (issue 47's profile: 7 records an action, a fifth of the
    # server's CPU under netplay-check, which runs at debug), with the first 75 bytes of each
    # message, a seat's own view among them: the server's debug log keeps its own lines only
    wire = logging.getLogger(WIRE_LOGGER)
    wire.setLevel(max(logging.INFO, wire.getEffectiveLevel()))
    store = open_games_store(data_dir, accept_loss, database)
    shared: Any = None
    account_store: Optional[AccountStore] = None
    try:
        if database is not None:  # several processes may share it: leases, news, accounts (sharing.py)
            shared = _Shared(store)
            account_store = shared.accounts() if accounts else None
        elif accounts:
            account_store = SQLiteAccountStore.in_folder(data_dir)
    except BaseException:
        store.close()
        raise
    server = GameServer(shared.store if shared else store, content, workers, admission, account_store)
    tick: Optional[asyncio.Task[None]] = None
    try:
        server.loop = asyncio.get_running_loop()
        # the event loop never waits on the disk (groupcommit.py); with several processes each
        # batch checks every game's lease epoch in its transaction (store_pg.append_fenced)
        unstored.group_commits(server)
        if shared is not None:
            shared.begin(server, stop)
            tick = asyncio.create_task(server.sharing.run(stop))  # type: ignore[union-attr]
        else:
            server.load()
        # no ssl here: the gate admits each TCP connection by its address first, then starts TLS
        gate = server.gate = Gate(server.admission, tls, handshake_timeout=OPEN_TIMEOUT,
                                  shutdown_timeout=CLOSE_TIMEOUT)
        async with serve(server.handler, host, port, max_size=P.MAX_CLIENT_BYTES, compression=COMPRESSION,
                         open_timeout=OPEN_TIMEOUT, close_timeout=CLOSE_TIMEOUT,
                         create_connection=gate.connection_class(),
                         logger=wire) as ws_server:
            real_port = next(iter(ws_server.sockets)).getsockname()[1]
            server.start_ai()
            ready(real_port, server)
            await stop.wait()
            server.stopping = True
            if server.admission.host_key:  # a host's own server: its guests are told the host closed the game
                await _say_goodbye(server, P.CLOSE_HOST_STOPPED)
            ws_server.close(close_connections=True)
            gate.close()
            try:
                await asyncio.wait_for(ws_server.wait_closed(), 3.0)
            except asyncio.TimeoutError:
                log.warning("some connections did not close in time")
    finally:
        if tick is not None:
            tick.cancel()
        if server.commits is not None:
            server.commits.close()  # every queued action committed (or refused) before the store closes
        server.close()
        server.accounts.close()
        if shared is not None:
            shared.end()
        store.close()
        if account_store is not None:
            account_store.close()


class _Shared:
    """A PostgreSQL store's leases and listener (``leases_pg.py``; ``sharing.py`` for the server's
    side): every process of a database serves, each game run by one of them at a time."""

    def __init__(self, store: GameStore):
        from .leases_pg import GameLeases  # psycopg only when a PostgreSQL database is chosen
        self.leases = GameLeases(store)  # type: ignore[arg-type]  # a PostgresStore: database is set
        self.store = TellingStore(store, self.leases)
        self.inner = store
        self.listener: Any = None

    def accounts(self) -> AccountStore:
        """The accounts in the same database (every process shares them)."""
        from .account_store_pg import PostgresAccountStore  # psycopg only when a PostgreSQL database is chosen
        return PostgresAccountStore(self.inner)  # type: ignore[arg-type]  # a PostgresStore: database is set

    def begin(self, server: GameServer, stop: asyncio.Event) -> None:
        """Listen for the other processes' news, then take the games nobody runs."""
        from .leases_pg import Listener  # psycopg only when a PostgreSQL database is chosen
        sharing = server.sharing = Sharing(server, self.leases)
        loop = asyncio.get_running_loop()

        def hand(fn: Callable[..., None], *args: Any) -> None:
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:  # the loop has ended
                pass
        self.listener = Listener(self.inner, self.leases.channel, lambda p: hand(sharing.on_news, p),  # type: ignore[arg-type]
                                 lambda: hand(sharing.on_gap)).start()
        sharing.listener = self.listener
        n = sharing.start()
        log.info("process %s: %d games taken over at start", self.leases.process, n)

    def end(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        self.leases.release()


async def _say_goodbye(server: GameServer, reason: str) -> None:
    """Close every connection with ``reason`` (a word the client reads, not a sentence), waiting
    a moment for the closing handshakes."""
    conns = list(server.conns)
    for c in conns:
        c.close(1001, reason)  # going away
    deadline = asyncio.get_running_loop().time() + CLOSE_TIMEOUT
    while any(not c.dead for c in conns) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)


# No per-message deflate (issue 47): a client that offers it (websockets' own clients, every
# version of the game) is answered without it and both sides send plain frames, as RFC 7692
# allows. Deflating (level 1) took 0.1 ms of the loop's CPU a message, 3.2 KB of JSON on
# average to 1.1 KB: about a sixth of the server's CPU per action over wss (docs/server.md),
# for bandwidth that a game does not need (a few KB per action); and a server that never
# inflates has no deflate bomb to guard against (a compressed frame is closed 1002).
COMPRESSION = None


def _url(host: str, port: int, pin: Optional[str] = None, scheme: str = "ws") -> str:
    """The address to give clients: ``wss://host:port#<fingerprint>`` for an encrypted server."""
    url = f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"
    return with_pin(url, pin)


class TlsFiles:
    """A server's certificate and key files, and the fingerprint clients pin."""

    def __init__(self, cert: Union[str, Path], key: Union[str, Path]):
        self.cert, self.key = Path(cert), Path(key)
        self.pin = tls_mod.file_fingerprint(self.cert)

    @classmethod
    def own(cls, folder: Union[str, Path]) -> "TlsFiles":
        """The self-signed pair in ``folder``, made the first time (``tls.ensure_cert``)."""
        return cls(*tls_mod.ensure_cert(folder))

    def context(self) -> ssl.SSLContext:
        return tls_mod.server_context(self.cert, self.key)


class ServerThread:
    """The server in a background thread with its own event loop (the desktop game's "Host online
    game", and tests).

    ``host_key``: a host's own server, which creates games only for a ``create`` carrying this
    key (the desktop passes ``new_host_key()`` and its ``Table.host`` sends it); guests only
    join. ``test_seeds`` and ``any_level`` are for the project's tests: a client-chosen seed
    deals the setup, and any AI level (``greedy``, pinned budgets) may be seated. ``tls``: the
    certificate to speak ``wss://`` with (the desktop host's own, ``TlsFiles.own``); without it
    the server speaks ``ws://`` (tests that are not about the transport)."""

    def __init__(self, data_dir: Union[str, Path], host: str = DEFAULT_HOST, port: int = 0, *,
                 content: Optional[Content] = None, workers: int = AI_WORKERS, host_key: Optional[str] = None,
                 test_seeds: bool = False, any_level: bool = False, limits: Optional[Limits] = None,
                 tls: Optional[TlsFiles] = None, accounts: bool = False, database: Optional[Database] = None):
        self.tls = tls
        self.database = database  # PostgreSQL, shared with other processes (tests run two servers on one)
        self.accounts = accounts  # players may register and sign in (a community server; tests)
        self.portmap = None  # the router's forwarding of this port, when the host asked (portmap.PortMapping)
        self.on_stop: list[Callable[[], None]] = []  # called once the server has stopped (e.g. portmap.remove)
        self.host_key = host_key
        self.admission = Admission(limits, host_key=host_key, test_seeds=test_seeds, any_level=any_level)
        self.data_dir = Path(data_dir)
        self.host = host
        self.port = port
        self.content = content
        self.workers = workers
        self.server: Optional[GameServer] = None
        self._thread: Optional[threading.Thread] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._ready = threading.Event()
        self._error: Optional[BaseException] = None

    @property
    def url(self) -> str:
        """The address clients open, with the certificate's fingerprint when encrypted."""
        return _url(self.host, self.port, self.tls.pin, "wss") if self.tls else _url(self.host, self.port)

    def url_at(self, host: str) -> str:
        """The same server's address as seen at ``host`` (the computer's address on its network)."""
        return _url(host, self.port, self.tls.pin, "wss") if self.tls else _url(host, self.port)

    def start(self, timeout: float = 30.0) -> "ServerThread":
        """Returns once the server listens; OSError when it cannot."""
        self._thread = threading.Thread(target=self._run, name="gonzaga-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError("the server did not start in time")
        if self._error is not None:
            err = self._error
            if isinstance(err, OSError):
                raise err
            raise OSError(f"the server cannot start: {err}") from err
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as e:  # reported by start()
            if not self._ready.is_set():
                self._error = e
            else:
                log.exception("the server thread failed")
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()

        def ready(port: int, server: GameServer) -> None:
            self.port = port
            self.server = server
            self._ready.set()
        await run_server(self.data_dir, self.host, self.port, self._stop, ready,
                         content=self.content, workers=self.workers, admission=self.admission,
                         tls=self.tls.context() if self.tls else None, accounts=self.accounts,
                         database=self.database)

    def stop(self, timeout: float = 5.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop has already ended
                pass
        if self._thread is not None:
            self._thread.join(timeout)
        calls, self.on_stop = self.on_stop, []
        for call in calls:
            try:
                call()
            except Exception:  # a clean-up must not keep the game from leaving
                log.exception("after the server stopped")

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ---------------------------------------------------------------- logs

class RepeatFilter(logging.Filter):
    """At most BURST records a minute of each message; the rest counted, and said once."""

    BURST = 5
    WINDOW = 60.0
    KEYS = 1000  # distinct messages remembered at once

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.clock = clock
        self._seen: dict[tuple[str, int, str], list[float]] = {}  # key: [window start, written, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg)[:200])
        now = self.clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= self.WINDOW:
            left_out = entry[2] if entry else 0
            if len(self._seen) >= self.KEYS:
                self._seen.clear()
            self._seen[key] = [now, 1, 0]
            if left_out:
                record.msg = f"{record.msg} [{left_out} more like this were left out in the last minute]"
            return True
        if entry[1] < self.BURST:
            entry[1] += 1
            record.exc_info = record.exc_text = None  # one traceback a burst is enough
            return True
        entry[2] += 1
        return False


def setup_logs(level: str, log_file: Path) -> None:
    """The rotating log file (every record at ``level``) and stderr (warnings and errors), both
    through one RepeatFilter."""
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    repeat = RepeatFilter()
    root = logging.getLogger()
    root.setLevel(getattr(logging, level.upper()))
    for h in list(root.handlers):
        root.removeHandler(h)
    log_file.parent.mkdir(parents=True, exist_ok=True)
    rotating = logging.handlers.RotatingFileHandler(log_file, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS,
                                                    encoding="utf-8")
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(logging.WARNING)
    for h in (rotating, err):
        h.setFormatter(fmt)
        h.addFilter(repeat)
        root.addHandler(h)


# ---------------------------------------------------------------- gonzaga serve

class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise _UsageError(f"{self.prog}: {message}")


def _port(text: str) -> int:
    try:
        p = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= p <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (found {p})")
    return p


def parser() -> argparse.ArgumentParser:
    """``gonzaga serve``'s arguments (its ``error`` raises instead of exiting; the deployment
    files' command lines are checked with it: tests/test_server_deployment.py)."""
    p = _Parser(prog="gonzaga serve", description="Run the online game server.")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free one)")
    p.add_argument("--data", default=None, help="folder for the game database (default: the user data folder's 'server')")
    p.add_argument("--log-level", default="info", type=str.lower,
                   choices=["debug", "info", "warning", "error"], help="how much to write in the log file")
    p.add_argument("--log-file", default=None, help=f"the log file, rotated (default: DATA/{LOG_NAME})")
    p.add_argument("--no-address-limits", action="store_true",
                   help="no per-address limits (behind a proxy that has its own, or to measure from one address)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help="a TLS reverse proxy in front (e.g. 127.0.0.1): its connections are not limited "
                        "per address, and each player's address is the one it sends in X-Forwarded-For")
    p.add_argument("--database", default=None, metavar="URL",
                   help="keep the games in PostgreSQL (postgresql://user@host:port/dbname) instead of "
                        "DATA's SQLite file; the password from PGPASSWORD or --database-password-file")
    p.add_argument("--database-password-file", default=None, metavar="FILE",
                   help="a file holding the --database password (its first line)")
    p.add_argument("--standby", action="store_true",
                   help="no longer needed: every process of a --database serves, and takes over the games "
                        "of one that stops (kept so that older command lines still start)")
    p.add_argument("--accept-loss", action="store_true",
                   help="start even though the database has fewer actions than were acknowledged (copies are kept)")
    p.add_argument("--cert", default=None,
                   help="the certificate (PEM) to speak wss:// with (default: DATA/gonzaga-cert.pem, made once)")
    p.add_argument("--key", default=None, help="the private key (PEM) of --cert")
    p.add_argument("--no-tls", action="store_true",
                   help="speak plain ws:// (only behind a trusted TLS proxy on this machine or network)")
    p.add_argument("--no-accounts", action="store_true",
                   help="players cannot register nor sign in (invite games only, as a desktop host)")
    p.add_argument("--test-seeds", action="store_true",
                   help="for the project's own tests only: accept a client's seed, which then deals the setup")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    """``gonzaga serve``: run the server until SIGTERM or SIGINT; the exit status."""
    p = parser()
    try:
        args = p.parse_args(sys.argv[1:] if argv is None else argv)
    except _UsageError as e:
        print(str(e), file=sys.stderr)
        return 2
    data = Path(args.data) if args.data else default_data_dir()
    if (args.cert is None) != (args.key is None):
        print("gonzaga serve: --cert and --key go together", file=sys.stderr)
        return 2
    if args.no_tls and args.cert:
        print("gonzaga serve: --no-tls and --cert contradict each other", file=sys.stderr)
        return 2
    database, problem = _database(args)
    if problem:
        print(f"gonzaga serve: {problem}", file=sys.stderr)
        return 2
    try:
        setup_logs(args.log_level, Path(args.log_file) if args.log_file else data / LOG_NAME)
    except OSError as e:
        print(f"gonzaga serve: cannot write the log file: {e.strerror or e}", file=sys.stderr)
        return 1
    admission = Admission(Limits.unlimited() if args.no_address_limits else Limits(), test_seeds=args.test_seeds)
    try:
        admission.proxies = frozenset(address_of((a, 0)) for a in args.trusted_proxy
                                      if ipaddress.ip_address(a.strip("[]")))
    except ValueError as e:
        print(f"gonzaga serve: --trusted-proxy takes an IP address: {e}", file=sys.stderr)
        return 2
    try:
        files = None if args.no_tls else TlsFiles(args.cert, args.key) if args.cert else TlsFiles.own(data)
    except tls_mod.CertError as e:
        print(f"gonzaga serve: {e}", file=sys.stderr)
        return 1
    try:
        return asyncio.run(_serve_main(args.host, args.port, data, admission, args.accept_loss, files, database,
                                       not args.no_accounts))
    except KeyboardInterrupt:  # a second Ctrl-C, or a platform without signal handlers
        return 0
    except (StoreError, tls_mod.CertError) as e:
        print(f"gonzaga serve: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"gonzaga serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1


_PG_SCHEMES = ("postgresql://", "postgres://")


def _database(args: argparse.Namespace) -> tuple[Optional[Database], Optional[str]]:
    """``--database`` and its password file: the choice, or why not (never echoing a password)."""
    if args.database is None:
        if args.database_password_file or args.standby:
            return None, f"{'--standby' if args.standby else '--database-password-file'} goes with --database"
        return None, None
    url = args.database
    if not url.startswith(_PG_SCHEMES):
        return None, "--database takes a PostgreSQL address: postgresql://user@host:port/dbname"
    if args.accept_loss:
        return None, "--accept-loss is for the SQLite file; PostgreSQL keeps what it acknowledged"
    if _url_has_password(url):
        return None, ("--database must not carry the password (every user of this machine can read a "
                      "command line): put it in PGPASSWORD or a --database-password-file")
    password = None
    if args.database_password_file:
        try:
            lines = Path(args.database_password_file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else type(e).__name__
            return None, f"cannot read the password file {args.database_password_file}: {reason}"
        password = lines[0] if lines else ""
        if not password:
            return None, f"the password file {args.database_password_file} is empty"
    if args.standby:
        print("gonzaga serve: --standby is no longer needed: every process of a database serves and takes "
              "over the games of one that stops", file=sys.stderr)
    return Database(url, password), None


def _url_has_password(url: str) -> bool:
    """``user:password@`` in a postgresql:// address, or ``password=`` in its query."""
    rest = url.split("://", 1)[1]
    netloc, query = rest.split("/", 1)[0].split("?", 1)[0], rest.partition("?")[2]
    return ":" in netloc.rpartition("@")[0] or any(p.split("=", 1)[0].lower() == "password"
                                                   for p in query.split("&") if p)


async def _serve_main(host: str, port: int, data: Path, admission: Admission, accept_loss: bool,
                      files: Optional[TlsFiles], database: Optional[Database] = None,
                      accounts: bool = True) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows: Ctrl-C raises KeyboardInterrupt
            pass
    if hasattr(signal, "SIGBREAK"):  # Windows: Ctrl-Break, what a console or a parent sends to stop a server
        signal.signal(signal.SIGBREAK, lambda *_: loop.call_soon_threadsafe(stop.set))

    def ready(real_port: int, server: GameServer) -> None:  # the store's warnings are logged (stderr too)
        print(f"serving on {_url(host, real_port, files.pin, 'wss') if files else _url(host, real_port)}", flush=True)
    if files is None:
        log.warning("speaking plain ws:// (--no-tls): only behind a trusted TLS proxy")
    await run_server(data, host, port, stop, ready, admission=admission, accept_loss=accept_loss,
                     tls=files.context() if files else None, database=database, accounts=accounts)
    log.info("stopped")
    return 0
