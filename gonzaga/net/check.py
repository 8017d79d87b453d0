"""``gonzaga netplay-check``: real online games against a real server process, checked (issue 14).

It starts ``gonzaga serve`` on loopback (``wss://``, its certificate pinned, as it runs by
default) with a fresh data folder and one bot process per seat
(``botclient.py``): the first hosts ``--games`` games, the others join them by invite code, and
every seat plays from its own view only. About half-way the server is killed (SIGKILL) and
started again on the same port and folder; the bots come back with ``resume``. Meanwhile a
separate connection sends hostile messages, each of which must get its error (or the close the
contract asks for). Once the games are over the server must still answer a ping; then it is
stopped and its store is read back: every stored action must pass ``rules.check`` on replay, and
every view a bot received must be exactly ``view(replay(record, upto=n), seat)`` with nothing of
another seat's secrets (objective, plan before the reveal, plan text in ``last``).

``--load K`` then plays K more games at once from a few bot processes for at most ``--seconds``
and measures the server: actions a second, act-to-update latency, memory; then the same load
against a plain ``ws://`` server, for what encryption costs (``check_load.py``).

Exit 0 when everything holds, 1 when something does not (the figures say what), 2 for bad
arguments. Every child process is killed and the temporary folder removed at the end.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..rules import (ActionSyntaxError, Content, GameConfig, GameState, Plan, check, legal_actions, load_content,
                     new_game, parse_action, try_on)
from ..rules import view as seat_view
from ..rules.state import evolve
from ..rules.view import HIDDEN
from . import protocol as P
from .check_flood import flood
from .check_load import _lines, compare_plain, load
from .check_secrets import nesting_cost_us, scan, secret_strings
from .check_social import probe_names, social_probes
from .invite import connect_pinned
from .report import Parser as _Parser, UsageError, emit as _emit, silence_stdout as _silence_stdout
from .viewcodec import view_from_json
from .storage import open_store
from ..table.persistence import setup_logging

log = logging.getLogger(__name__)
_V = '{"v": ' + str(P.PROTOCOL_VERSION) + ', '  # the start of a hand-written message of this protocol

ROUNDS = 12  # random play never triggers the Last Turn early: a game is 1 + 2 * seats * 12 actions
MAX_CONNECTIONS = 2000  # the server's limit (contract: "Limits")
SERVER_START_SECONDS = 30.0
PROBE_SECONDS = 5.0
SEED_HOSTILE = 20_000  # seed offset (SEED_LOAD: check_load.py): load and hostile games never share a seed


FIGURES = ("games_completed", "actions", "server_restarts", "reconnects", "illegal_accepted", "secrets_leaked",
           "hostile_sent", "hostile_refused", "social_sent", "social_refused", "server_alive", "seconds", "load_games", "load_actions_per_s",
           "latency_ms_p50", "latency_ms_p99", "load_errors", "plain_load_actions_per_s", "plain_latency_ms_p50",
           "plain_latency_ms_p99", "tls_cost_pct", "flood_connections", "flood_connections_refused",
           "flood_connections_closed_at_accept", "flood_creates",
           "flood_creates_refused", "flood_legit_join_s", "flood_legit_first_move_s", "flood_wrong_codes_answered",
           "flood_server_rss_mb_peak")  # printed first, in this order


class CheckError(Exception):
    """The check cannot run (no server, a child that will not start): one line for the user."""


# ---------------------------------------------------------------- arguments

def _args(argv: list[str]) -> argparse.Namespace:
    p = _Parser(prog="gonzaga netplay-check")
    p.add_argument("--seats", type=int, default=2, help="seats per game, each a bot process (2-4)")
    p.add_argument("--games", type=int, default=2, help="games played by the seat processes")
    p.add_argument("--load", type=int, default=0, help="then K games at once, to measure the server")
    p.add_argument("--seconds", type=float, default=30.0, help="the load games stop after this long")
    p.add_argument("--flood", type=int, default=0,
                   help="then N connections and N creates from one address against a public server")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=300.0, help="give up (and fail) after this long")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    if not 2 <= a.seats <= 4:
        raise UsageError("gonzaga netplay-check: --seats must be 2, 3 or 4")
    if not 1 <= a.games <= 50:
        raise UsageError("gonzaga netplay-check: --games must be from 1 to 50")
    if a.load < 0 or a.seats * (a.load + a.games) + 16 > MAX_CONNECTIONS:
        raise UsageError(f"gonzaga netplay-check: --load must be from 0 to "
                         f"{(MAX_CONNECTIONS - 16) // a.seats - a.games} (one connection a seat, "
                         f"{MAX_CONNECTIONS} in all)")
    if a.flood and not 20 <= a.flood <= 5000:
        raise UsageError("gonzaga netplay-check: --flood must be 0 (none) or from 20 to 5000")
    if not 1 <= a.seconds <= 600:
        raise UsageError("gonzaga netplay-check: --seconds must be from 1 to 600")
    if not 1 <= a.seed <= 2 ** 31 - SEED_HOSTILE - 1:
        raise UsageError("gonzaga netplay-check: --seed must be from 1 to 2**31 - 20001")
    if not 10 <= a.timeout <= 3600:
        raise UsageError("gonzaga netplay-check: --timeout must be from 10 to 3600 seconds")
    return a


# ---------------------------------------------------------------- child processes

def _child_env() -> dict[str, Any]:
    """The children import this very package, wherever the check was started from."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


# Windows has neither SIGKILL nor a SIGTERM a program can catch: os.kill with SIGTERM there is
# TerminateProcess (a kill), and the operator's clean stop is Ctrl-Break, sent to the child's own
# process group (``spawn`` starts every child in one), which ``gonzaga serve`` stops cleanly on.
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)
STOP = getattr(signal, "CTRL_BREAK_EVENT", signal.SIGTERM)
_OWN_GROUP: dict[str, Any] = {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)} if os.name == "nt" else {}


def signal_child(proc: asyncio.subprocess.Process, sig: int) -> None:
    """Signal a child by its pid unless it is known to have ended. (``Popen.send_signal`` polls
    first, which reaps the child behind asyncio's watcher and loses its exit status.)"""
    if proc.returncode is None:
        try:
            os.kill(proc.pid, sig)
        except ProcessLookupError:
            pass


class Children:
    """Every process the check starts, so that the end (or a failure) kills each one."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.procs: list[asyncio.subprocess.Process] = []

    async def spawn(self, args: list[str], name: str, stdin: bool = False) -> asyncio.subprocess.Process:
        err = open(self.folder / f"{name}.stderr", "ab")
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, *args, stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=err, env=_child_env(), limit=2 ** 24, **_OWN_GROUP)
        finally:
            err.close()
        self.procs.append(proc)
        return proc

    async def kill_all(self) -> None:
        for p in self.procs:
            signal_child(p, KILL)
        for p in self.procs:
            try:
                await asyncio.wait_for(p.wait(), 5)
            except asyncio.TimeoutError:
                log.warning("process %s did not end after SIGKILL", p.pid)

    def log_errors(self, prefix: str) -> list[str]:
        """The ERROR, CRITICAL and traceback lines in the logs of the children named ``prefix...``."""
        out = []
        for path in sorted(self.folder.glob(f"{prefix}*.stderr")):
            with open(path, encoding="utf-8", errors="replace") as f:
                out += [line.strip() for line in f if " ERROR " in line or " CRITICAL " in line
                        or line.startswith("Traceback")]
        return out

    def tail(self, name: str, lines: int = 3) -> str:
        """The last lines a child wrote on stderr (its log), for a failure message."""
        try:
            text = (self.folder / f"{name}.stderr").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return " | ".join(text.strip().splitlines()[-lines:])


class ServerProcess:
    """``gonzaga serve`` as a child process on loopback."""

    def __init__(self, children: Children, data: Path, tls: bool = True, public: bool = False,
                 name: str = "server"):
        self.children, self.data, self.tls = children, data, tls  # tls: wss://, as gonzaga serve runs
        self.public = public  # the per-address limits and log level of a public server (the flood)
        self.name = name
        self.pin: Optional[str] = None
        self.proc: Optional[asyncio.subprocess.Process] = None
        self.port = 0
        self.starts = 0

    @property
    def url(self) -> str:
        return f"wss://127.0.0.1:{self.port}#{self.pin}" if self.tls else f"ws://127.0.0.1:{self.port}"

    async def start(self, port: int = 0) -> None:
        """Start it and read the port from its one line; a port still held is tried again."""
        for attempt in range(10):
            self.starts += 1
            # every seat and the load come from 127.0.0.1; debug: the secrets scan reads every log line
            limits = [] if self.public else ["--no-address-limits", "--log-level", "debug"]
            self.proc = await self.children.spawn(
                ["-m", "gonzaga", "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(self.data)]
                + limits + ([] if self.tls else ["--no-tls"]), f"{self.name}-{self.starts}")
            try:
                assert self.proc.stdout is not None  # spawned with a pipe
                line = await asyncio.wait_for(self.proc.stdout.readline(), SERVER_START_SECONDS)
            except asyncio.TimeoutError:
                line = b""
            m = re.fullmatch(r"serving on wss?://127\.0\.0\.1:(\d+)(?:#([a-z2-7]{52}))?",
                             line.decode("utf-8", "replace").strip())
            if m and bool(m.group(2)) == self.tls:
                self.port, self.pin = int(m.group(1)), m.group(2)
                return
            await self.kill()
            if port == 0 or attempt == 9:
                break
            await asyncio.sleep(0.2)  # the port of a killed server may take a moment to be free
        raise CheckError(f"the server did not start: {self.children.tail(f'{self.name}-{self.starts}') or 'no output'}")

    def stderr_files(self) -> list[Path]:
        return [self.children.folder / f"{self.name}-{k}.stderr" for k in range(1, self.starts + 1)]

    async def kill(self) -> None:
        if self.proc:
            signal_child(self.proc, KILL)
            await self.proc.wait()

    async def stop(self) -> Optional[int]:
        """SIGTERM, as an operator would; its exit status (None if it had to be killed)."""
        if self.proc is None or self.proc.returncode is not None:
            return None if self.proc is None else self.proc.returncode
        signal_child(self.proc, STOP)
        try:
            return await asyncio.wait_for(self.proc.wait(), 10)
        except asyncio.TimeoutError:
            await self.kill()
            return None

    def cpu_seconds(self) -> Optional[float]:
        """The server's CPU time so far (Linux), None where it cannot be read."""
        try:
            assert self.proc is not None
            with open(f"/proc/{self.proc.pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError, AttributeError):
            return None

    def rss_kb(self) -> Optional[int]:
        """The server's resident memory (Linux), None where it cannot be read."""
        try:
            assert self.proc is not None
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except (OSError, ValueError, AttributeError):
            return None
        return None


# ---------------------------------------------------------------- talking to the server directly

async def _connect(url: str) -> Any:
    return await connect_pinned(url, max_size=P.MAX_SERVER_BYTES, open_timeout=PROBE_SECONDS, ping_interval=None,
                         close_timeout=1)


async def _reply(ws: Any, seconds: float = PROBE_SECONDS) -> dict[str, Any]:
    """The next message as a dict: ``{"closed": code}`` when the connection ends, ``{}`` on silence."""
    try:
        text = await asyncio.wait_for(ws.recv(), seconds)
    except ConnectionClosed as e:
        return {"closed": e.rcvd.code if e.rcvd else None}
    except asyncio.TimeoutError:
        return {}
    try:
        obj = json.loads(text)
        return obj if isinstance(obj, dict) else {"bad": str(text)[:80]}
    except ValueError:
        return {"bad": str(text)[:80]}


async def ping(url: str) -> bool:
    """True when the server answers a ping with a pong."""
    try:
        ws = await _connect(url)
    except (OSError, InvalidHandshake, asyncio.TimeoutError):
        return False
    try:
        await ws.send(P.encode(P.Ping()))
        return (await _reply(ws)).get("type") == "pong"
    except ConnectionClosed:
        return False
    finally:
        await ws.close()


async def _probe(url: str, name: str, frame: str, expect: str, close_ok: bool = False) -> dict[str, Any]:
    """Send one hostile frame on a fresh connection: refused when its error (or a close) comes."""
    try:
        ws = await _connect(url)
    except (OSError, InvalidHandshake, asyncio.TimeoutError) as e:
        return {"probe": name, "refused": False, "got": f"cannot connect: {e}"}
    try:
        try:
            await ws.send(frame)
        except ConnectionClosed:
            pass
        r = await _reply(ws)
    finally:
        await ws.close()
    return _judge(name, r, expect, close_ok)


def _judge(name: str, r: dict[str, Any], expect: str, close_ok: bool, rule: Optional[str] = None) -> dict[str, Any]:
    if r.get("type") == "error":
        got = str(r.get("code")) + (f" {r.get('rule')}" if r.get("rule") else "")
        return {"probe": name, "refused": r.get("code") == expect and r.get("rule") == rule, "got": got}
    if "closed" in r:
        return {"probe": name, "refused": close_ok, "got": f"close {r['closed']}"}
    return {"probe": name, "refused": False, "got": r.get("type") or ("silence" if not r else "garbage")}


async def hostile_batch(url: str, game_id: str, codes: set[str], content: Content, seed: int,
                        log_line: Callable[..., Any]) -> list[dict[str, Any]]:
    """The hostile messages of the check, each with whether the server refused it as it should."""
    unused = next(c for c in ("ZZZZZZ", "YYYYYY", "XXXXXX", "WWWWWW") if c not in codes)
    bogus = secrets.token_urlsafe(24)
    out = [
        await _probe(url, "malformed JSON", _V + '"type": ', "bad_json"),
        await _probe(url, "wrong version", json.dumps({"v": 99, "type": "ping"}), "bad_version"),
        await _probe(url, "oversized", json.dumps({"v": P.PROTOCOL_VERSION, "type": "ping", "pad": "x" * (P.MAX_CLIENT_BYTES + 1)}),
                     "too_large", close_ok=True),
        await _probe(url, "deeply nested", _V + '"type": "ping", "x": ' + "[" * 200 + "]" * 200 + "}", "too_deep"),
        await _probe(url, "no such message", json.dumps({"v": P.PROTOCOL_VERSION, "type": "fly"}), "bad_message"),
        await _probe(url, "unknown invite code", P.encode(P.Join(code=unused, name="Mallory")), "unknown_game"),
        await _probe(url, "unknown game", P.encode(P.Resume(game=secrets.token_hex(8), token=bogus)), "unknown_game"),
        await _probe(url, "bad token", P.encode(P.Resume(game=game_id, token=bogus)), "bad_token"),
        await _probe(url, "act with a bad token", P.encode(P.Act(token=bogus, n=1, action="donate 0")), "bad_token"),
        await _probe(url, "a client-chosen seed", P.encode(P.Create(name="Mallory", seed=seed, seats=[
            P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="open", colour="blue")])), "not_allowed"),
        await _probe(url, "a pinned AI budget", P.encode(P.Create(name="Mallory", seats=[
            P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="ai", colour="blue", bot="expert@999999")])),
            "not_allowed"),
        await _probe(url, "an AI level not offered", P.encode(P.Create(name="Mallory", seats=[
            P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="ai", colour="blue", bot="random")])),
            "not_allowed"),
    ]
    try:
        out += await _own_game_probes(url, content, seed, log_line)
    except (OSError, InvalidHandshake, asyncio.TimeoutError) as e:
        out.append({"probe": "own game", "refused": False, "got": f"cannot connect: {e}"})
    except (KeyError, TypeError, IndexError, ValueError) as e:  # an answer that is not the protocol's
        out.append({"probe": "own game", "refused": False, "got": f"a malformed answer ({type(e).__name__})"})
    try:  # chat, emote, resign, rematch, watch, and the server's messages sent by a client (issue 39)
        out += await social_probes(url, unused, _probe, _connect, _reply, _judge, log_line)
    except (OSError, InvalidHandshake, asyncio.TimeoutError) as e:
        out.append({"probe": "social", "refused": False, "got": f"cannot connect: {e}"})
    except (KeyError, TypeError, IndexError, ValueError) as e:
        out.append({"probe": "social", "refused": False, "got": f"a malformed answer ({type(e).__name__})"})
    try:
        out.append(await _flood(url))
    except (OSError, InvalidHandshake, asyncio.TimeoutError) as e:
        out.append({"probe": "flood", "refused": False, "got": f"cannot connect: {e}"})
    return out


async def _own_game_probes(url: str, content: Content, seed: int, log_line: Callable[..., Any]) -> list[dict[str, Any]]:
    """With a valid token of a game of its own (host + a server AI): another seat's action (the
    seat number stolen), an illegal action, a stale one. The game does not change."""
    names = ("stolen seat number", "illegal action with a valid token", "stale action number")
    ws = await _connect(url)
    try:
        await ws.send(P.encode(P.Create(name="Mallory", seats=[
            P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="ai", colour="blue", bot="easy")])))
        token = game = None
        update = None
        for _ in range(20):  # joined, lobby, then (once started) the snapshot and the AI's plan
            r = await _reply(ws)
            if not r or "closed" in r:
                break
            log_line({"game": game, "seat": 0, "msg": r})
            if r.get("type") == "joined":
                token, game = r["token"], r["game"]
                await ws.send(P.encode(P.Start(token=token)))
            elif r.get("type") == "update":
                update = r
                if r["view"]["seats"][1]["plan"] is not None:  # the AI has planned: n no longer moves
                    break
        if update is None or update["view"]["seats"][1]["plan"] is None:
            return [{"probe": n, "refused": False, "got": "the hostile game did not start"} for n in names]
        n = update["n"]
        mine = legal_actions(view_from_json(update["view"], content), 0)[0]
        assert isinstance(mine, Plan) and token is not None  # the plan phase, after joined
        other = Plan(1, mine.region, mine.action, mine.king)
        out = []
        for name, action, at, expect, rule in ((names[0], other.to_text(), n, "not_your_seat", "R5"),
                                               (names[1], "donate 0", n, "illegal", "R2"),  # no donation in the plan phase
                                               (names[2], mine.to_text(), n + 5, "stale", None)):
            try:
                await ws.send(P.encode(P.Act(token=token, n=at, action=action)))
            except ConnectionClosed:
                pass
            r = await _reply(ws)
            log_line({"game": game, "seat": 0, "msg": r})
            out.append(_judge(name, r, expect, close_ok=False, rule=rule))
        return out
    finally:
        await ws.close()


async def _flood(url: str, count: int = 200) -> dict[str, Any]:
    """200 pings at once: the server answers ``flood`` (and may close), and stays up."""
    ws = await _connect(url)
    flood = closed = False
    try:
        try:
            for _ in range(count):
                await ws.send(P.encode(P.Ping()))
        except ConnectionClosed:
            closed = True
        for _ in range(count + 10):  # one answer a ping at most, then the close
            r = await _reply(ws, 2.0)
            if not r or "closed" in r:
                closed = closed or "closed" in r
                break
            flood = flood or (r.get("type") == "error" and r.get("code") == "flood")
    finally:
        await ws.close()
    return {"probe": f"flood of {count} pings", "refused": flood or closed,
            "got": "flood" if flood else ("close" if closed else "no flood error")}


# ---------------------------------------------------------------- verifying against the store

@dataclass
class Replayed:
    """A stored game replayed: the states after 0..k actions, the action texts, and how many
    stored actions ``rules.check`` refuses (the first refused one ends the replay; it and every
    later one count, as they cannot be judged)."""

    states: list[GameState] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    illegal: int = 0
    finished: bool = False


def replay_stored(data: Path, content: Content) -> dict[str, Replayed]:
    """Every game in the server's store (opened with its own module once it has stopped), replayed."""
    store = open_store(data)
    try:
        games = store.load_games()
    finally:
        store.close()
    return {g.id: replay_texts(g.config, g.seed, g.actions, content) for g in games}


def replay_texts(config: dict[str, Any], seed: int, texts: list[str], content: Content) -> Replayed:
    """One game from its stored config and action texts, each action checked before it is applied."""
    out = Replayed(texts=list(texts))
    try:
        out.states.append(new_game(GameConfig.from_json(config), content))
    except ValueError:
        out.illegal = max(1, len(texts))
        return out
    for k, t in enumerate(texts):
        try:
            a = parse_action(t)
        except (ActionSyntaxError, ValueError):
            a = None
        if a is None or check(out.states[-1], a) is not None:
            out.illegal = len(texts) - k
            return out
        out.states.append(try_on(out.states[-1], a))
    out.finished = out.states[-1].phase == "over"
    return out


def leaks(line: dict[str, Any], game: Optional[Replayed], content: Content) -> list[str]:
    """What is wrong with one received message (``{"game", "seat", "msg"}`` as a bot logged it, the
    seat being the one the bot holds): the secrets it gives away, and how its view differs from
    ``view(replay(record, upto=n), seat)``. Empty for a message that is not an update."""
    msg, seat, gid = line.get("msg") or {}, line.get("seat"), line.get("game")
    if msg.get("type") != "update":
        return []
    problems = []
    v, last = msg.get("view") or {}, msg.get("last")
    if msg.get("seat") != seat or msg.get("game") != gid:
        problems.append(f"an update for seat {msg.get('seat')} of game {msg.get('game')} "
                        f"reached seat {seat} of game {gid}")
    phase = v.get("phase")
    for j, s in enumerate(v.get("seats") or []):
        if j == seat or not isinstance(s, dict):
            continue
        if s.get("objective") is not None and phase != "over":  # the contract: a game over shows all
            problems.append(f"seat {j}'s objective")
        plan = s.get("plan")
        if phase == "plan" and isinstance(plan, dict) and plan.get("region") != HIDDEN:
            problems.append(f"seat {j}'s plan before the reveal")
    if isinstance(last, dict):
        if last.get("kind") == "plan" and last.get("seat") != seat and last.get("text") is not None:
            problems.append(f"seat {last.get('seat')}'s plan text")
        if last.get("kind") == "setup" and last.get("text") is not None:
            problems.append("the setup's text (every deck and objective)")
    n = msg.get("n")
    if game is None or type(n) is not int or not 1 <= n < len(game.states) or type(seat) is not int:
        return problems + [f"an update after {n} actions, which the store does not hold"]
    try:
        got = view_from_json(v, content)
    except ValueError as e:
        return problems + [str(e)[:160]]
    truth = game.states[n]
    if phase == "over":
        got = evolve(got, seats=tuple(
            evolve(s, objective=None) if i != seat and s.objective == truth.seats[i].objective else s
            for i, s in enumerate(got.seats)))
    if got != seat_view(truth, seat):
        problems.append(f"the view after {n} actions is not view(state, {seat})")
    if isinstance(last, dict) and last.get("text") is not None and last["text"] != game.texts[n - 1]:
        problems.append(f"last.text {str(last['text'])[:60]!r} is not action {n} of the record")
    return problems


def seat_tokens(lines: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    """Each token the server handed out (in ``joined``), with the game and seat it is for."""
    return {m["token"]: (m.get("game"), m.get("seat")) for m in (line.get("msg") or {} for line in lines)
            if m.get("type") == "joined" and isinstance(m.get("token"), str)}


def foreign_tokens(line: dict[str, Any], tokens: dict[str, tuple[Any, ...]]) -> list[str]:
    """Another seat's token in a received message: whoever holds it could play that seat."""
    msg = line.get("msg") or {}
    mine = (msg.get("game"), msg.get("seat")) if msg.get("type") == "joined" else (line.get("game"), line.get("seat"))
    text = json.dumps(msg)
    return [f"the token of seat {who[1]} of game {who[0]}" for tok, who in tokens.items()
            if who != mine and tok in text]


def read_jsonl(path: Path, limit: int = 2_000_000) -> list[dict[str, Any]]:
    """The lines a bot logged (a cut last line, from a killed bot, is skipped)."""
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for k, line in enumerate(f):
                if k >= limit:
                    break
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
    except FileNotFoundError:
        pass
    return out


# ---------------------------------------------------------------- the run

def _bot_args(url: str, role: str, a: argparse.Namespace, folder: Path, index: int) -> list[str]:
    return ["-m", "gonzaga.net.botclient", "--url", url, "--role", role, "--games", str(a.games),
            "--seats", str(a.seats), "--seed", str(a.seed), "--index", str(index), "--timeout", str(a.timeout),
            "--log", str(folder / f"bot-{index}.jsonl")]


async def run_check(a: argparse.Namespace) -> dict[str, Any]:
    """Everything the command does; the figures, with ``problems`` naming whatever failed."""
    t0 = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="gonzaga-netcheck-"))
    children = Children(folder)
    res: dict[str, Any] = {"games_completed": 0, "actions": 0, "server_restarts": 0, "reconnects": 0,
                 "illegal_accepted": 0, "secrets_leaked": 0, "hostile_sent": 0, "hostile_refused": 0,
                 "social_sent": 0, "social_refused": 0,
                 "server_alive": False}
    problems: list[str] = []
    try:
        async with asyncio.timeout(a.timeout):
            await _run(a, folder, children, res, problems)
    except TimeoutError:
        problems.append(f"the check did not end within {a.timeout:g} s")
    finally:
        await children.kill_all()
        shutil.rmtree(folder, ignore_errors=True)
    res["seconds"] = round(time.monotonic() - t0, 1)
    res["problems"] = problems
    first = [k for k in FIGURES if k in res]
    return {**{k: res[k] for k in first}, **{k: v for k, v in res.items() if k not in first}}


async def _run(a: argparse.Namespace, folder: Path, children: Children, res: dict[str, Any], problems: list[str]) -> None:
    content = load_content()
    server = ServerProcess(children, folder / "data")
    await server.start()
    idle = server.rss_kb()
    res["server_rss_mb_idle"] = round(idle / 1024, 1) if idle else None
    hostile_log = open(folder / "hostile.jsonl", "w", encoding="utf-8")
    try:
        main_games, bots = await _play(a, folder, children, server, content, res, problems,
                                       lambda obj: hostile_log.write(json.dumps(obj) + "\n"))
    finally:
        hostile_log.close()
    if a.load:
        await load(a, children, server, res, problems)
        await compare_plain(a, children, ServerProcess(children, folder / "plain", tls=False, name="plain-server"),
                            res, problems)
    if a.flood:
        await flood(a, ServerProcess(children, folder / "flood", public=True, name="flood-server"), content,
                    res, problems)
    res["server_alive"] = await ping(server.url)
    status = await server.stop()
    if status != 0:
        problems.append(f"the server did not end cleanly on SIGTERM (status {status})")
    bad = children.log_errors("server-") + children.log_errors("plain-server-") + children.log_errors("flood-server-")
    res["server_log_errors"] = len(bad)
    if bad:
        problems.append(f"the server logged {len(bad)} error(s), first: {bad[0][:200]}")
    # the store is read with the server's own module once the server has stopped
    games = replay_stored(server.data, content)
    res["illegal_accepted"] = sum(g.illegal for g in games.values())
    res["games_completed"] = sum(1 for gid in main_games if gid in games and games[gid].finished)
    res["actions"] = sum(len(games[gid].texts) for gid in main_games if gid in games)
    checked = leaked = 0
    examples: list[str] = []
    lines = [line for path in [*(folder / f"bot-{i}.jsonl" for i in range(len(bots))), folder / "hostile.jsonl"]
             for line in read_jsonl(path)]
    tokens = seat_tokens(lines)
    for line in lines:
        found = foreign_tokens(line, tokens)
        if (line.get("msg") or {}).get("type") == "update":
            checked += 1
            found += leaks(line, games.get(str(line.get("game"))), content)
        if found:
            leaked += 1
            examples += found[: max(0, 3 - len(examples))]
    res["secrets_leaked"] = leaked
    res["views_checked"] = checked
    if examples:
        problems.append("views: " + "; ".join(examples))
    for name, want in (("games_completed", a.games), ("illegal_accepted", 0), ("secrets_leaked", 0),
                       ("server_restarts", 1), ("hostile_refused", res["hostile_sent"]), ("server_alive", True)):
        if res[name] != want:
            problems.append(f"{name} is {res[name]}, not {want}")
    if checked == 0:
        problems.append("no view was received, so none was checked")
    hidden = secret_strings(server.data)
    res["secrets_scanned_files"], res["secrets_scanned_bytes"], found = scan(folder, hidden)
    res["secrets_in_messages_or_logs"] = len(found)
    if found:
        problems.append("the hidden setup was seen: " + "; ".join(found[:3]))
    elif len(hidden) < 2 * a.games:
        problems.append("the secrets scan found no seeds or setups in the store to look for")
    cost = nesting_cost_us()
    res["nesting_check_us_16k"] = max(cost.values())
    res["nesting_check_us_by_shape"] = cost


async def _play(a: argparse.Namespace, folder: Path, children: Children, server: Any, content: Content,
                res: dict[str, Any], problems: list[str], hostile_log: Any) -> tuple[list[Any], list[Any]]:
    """The seat processes' games, with the server restart and the hostile batch half-way."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    bots, readers = [], []
    for i in range(a.seats):
        proc = await children.spawn(_bot_args(server.url, "host" if i == 0 else "guest", a, folder, i),
                                    f"bot-{i}", stdin=i > 0)
        bots.append(proc)
        readers.append(asyncio.ensure_future(_lines(proc, i, queue)))
    per_game = 1 + 2 * a.seats * ROUNDS
    restart_at = a.games * per_game // 2
    progress = [0] * a.games
    main_games: list[Any] = []
    codes: set[str] = set()
    done: dict[int, Any] = {}
    hostile = None
    for _ in range(50 * a.games * per_game + 1000):  # bounded: a few lines per action at most
        if len(done) == len(bots):
            break
        idx, ev = await queue.get()
        kind = ev.get("ev")
        if kind == "created":
            main_games.append(ev["game"])
            codes.add(ev["code"])
            line = (json.dumps({"g": ev["g"], "code": ev["code"]}) + "\n").encode()
            for b in bots[1:]:
                try:
                    assert b.stdin is not None  # guests are spawned with a pipe
                    b.stdin.write(line)
                    await b.stdin.drain()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # that guest has ended: its own done line (or eof) says why
            if len(main_games) == a.games:
                _close_stdin(bots[1:])
        elif kind == "progress":
            progress[ev["g"]] = max(progress[ev["g"]], ev["n"])
            if not res["server_restarts"] and (sum(progress) >= restart_at or ev["phase"] == "over"):
                # half-way: the server dies without warning and comes back on the same port and folder
                await server.kill()
                await server.start(server.port)
                res["server_restarts"] += 1
                hostile = asyncio.ensure_future(_meanwhile(progress, hostile_batch(
                    server.url, main_games[0], codes, content, a.seed + SEED_HOSTILE, hostile_log)))
        elif kind == "done":
            done[idx] = ev
        elif kind == "eof" and idx not in done:
            done[idx] = {"failures": [f"bot {idx} ended without its figures: {children.tail(f'bot-{idx}')}"]}
        if idx == 0 and kind in ("done", "eof"):
            _close_stdin(bots[1:])  # no more invite codes: a guest still waiting for one stops
    else:
        problems.append("the seat processes sent more lines than any game needs")
    if hostile is None:
        problems.append("the games ended before the server could be restarted")
        hostile = asyncio.ensure_future(_meanwhile(progress, hostile_batch(
            server.url, main_games[0] if main_games else "0" * 16, codes, content, a.seed + SEED_HOSTILE, hostile_log)))
    probes, res["actions_during_hostile"] = await hostile
    res["hostile_sent"] = len(probes)
    res["hostile_refused"] = sum(p["refused"] for p in probes)
    social = [p for p in probes if p["probe"] in probe_names()]  # issue 39's message types, counted apart
    res["social_sent"], res["social_refused"] = len(social), sum(p["refused"] for p in social)
    res["hostile_answers"] = {p["probe"]: p["got"] for p in probes}
    problems += [f"hostile {p['probe']}: got {p['got']}" for p in probes if not p["refused"]]
    for i, d in sorted(done.items()):
        res["reconnects"] += d.get("reconnects", 0)
        problems += [f"bot {i}: {f}" for f in d.get("failures", [])]
        if d.get("refused"):
            problems.append(f"bot {i}: the server refused {d['refused']} action(s) that its view said were legal")
        if d.get("invalid"):
            problems.append(f"bot {i}: {d['invalid']} server message(s) the protocol refuses")
        unexpected = {k: v for k, v in (d.get("errors") or {}).items() if k != "stale"}
        if unexpected:
            problems.append(f"bot {i}: errors {unexpected}")
    return main_games, bots


async def _meanwhile(progress: list[int], work: Awaitable[Any]) -> tuple[Any, int]:
    """``work``'s result, and how many actions the games made while it ran."""
    before = sum(progress)
    out = await work
    return out, sum(progress) - before


def _close_stdin(procs: Any) -> None:
    for p in procs:
        if p.stdin is not None and not p.stdin.is_closing():
            p.stdin.close()


def main(argv: list[str]) -> int:
    """``gonzaga netplay-check``: 0 when every figure holds, 1 when one does not, 2 for bad arguments."""
    try:
        a = _args(argv)
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return 2
    log_file = setup_logging()
    try:
        res = asyncio.run(run_check(a))
    except CheckError as e:
        print(f"gonzaga netplay-check: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # the log file has the traceback; the user gets one line
        log.exception("netplay-check failed")
        print(f"gonzaga netplay-check: failed ({type(e).__name__}: {e}; details in {log_file})", file=sys.stderr)
        return 1
    try:
        _emit(res, a.json)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (| head): no traceback
        _silence_stdout()
    return 0 if not res["problems"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
