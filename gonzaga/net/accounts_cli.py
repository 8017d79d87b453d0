"""``gonzaga accounts``: the operator's commands on a server's accounts (issue 47), on the data
folder a ``gonzaga serve`` uses (while it runs, too: the accounts' SQLite file takes both).

    gonzaga accounts [--data DIR] list
    gonzaga accounts [--data DIR] reset-password NAME [--random]
    gonzaga accounts [--data DIR] ban NAME | unban NAME
    gonzaga accounts figures [--hashes N]

``reset-password`` reads the new password twice from the terminal (not shown), or one line from
standard input when that is not a terminal, or makes a random one and prints it (``--random``);
every session of the account ends (its computers must sign in again). ``ban`` ends every
session too, and a running server drops the account's connections within ``RECHECK`` seconds.
``figures`` measures what a sign-in costs and how many guesses the limits let through.
"""
from __future__ import annotations

import argparse
import getpass
import json
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Optional

try:  # POSIX only (the figures' peak memory; elsewhere it is not given)
    import resource as _resource
    resource: Optional[ModuleType] = _resource
except ImportError:  # Windows
    resource = None

from ..table.persistence import data_dir
from . import accounts as A
from .account_desk import RECHECK
from .account_store import AccountStore, SQLiteAccountStore
from .serve import _database as serve_database, open_games_store
from .report import silence_stdout
from .storage import StoreError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gonzaga accounts", description="Manage the accounts of a game server.")
    p.add_argument("--data", default=None,
                   help="the server's data folder (default: the user data folder's 'server', as gonzaga serve)")
    p.add_argument("--database", default=None, metavar="URL",
                   help="the server's PostgreSQL database (as gonzaga serve --database): its accounts")
    p.add_argument("--database-password-file", default=None, metavar="FILE",
                   help="a file holding the --database password (its first line)")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every account: name, banned, sessions")
    r = sub.add_parser("reset-password", help="set a new password (every session of the account ends)")
    r.add_argument("name")
    r.add_argument("--random", action="store_true", help="make a random password and print it")
    b = sub.add_parser("ban", help="the account can no longer sign in (every session ends)")
    b.add_argument("name")
    u = sub.add_parser("unban", help="the account may sign in again")
    u.add_argument("name")
    f = sub.add_parser("figures", help="measure a sign-in's hash and the guesses the limits allow")
    f.add_argument("--hashes", type=int, default=20, help="hashes to time (default: 20)")
    f.add_argument("--json", action="store_true", help="print JSON")
    return p


class _Usage(Exception):
    pass


def _open(args: argparse.Namespace, folder: Path) -> AccountStore:
    """The accounts of the server's data folder (SQLite), or of its ``--database`` (PostgreSQL)."""
    if args.database is None and args.database_password_file is None:
        return SQLiteAccountStore.in_folder(folder)
    args.standby = args.accept_loss = False  # what serve's check reads
    database, problem = serve_database(args)
    if problem or database is None:
        raise _Usage(problem or "--database-password-file goes with --database")
    from .account_store_pg import PostgresAccountStore  # psycopg only when a PostgreSQL database is chosen
    games = open_games_store(folder, database=database)
    store = PostgresAccountStore(games)  # type: ignore[arg-type]  # a PostgresStore: database is set
    store.close = games.close  # type: ignore[method-assign]  # its connections are the games store's
    return store


def main(argv: Optional[list[str]] = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "figures":
        try:
            return _figures(args.hashes, args.json)
        except BrokenPipeError:  # the reader went away (| head): stop quietly, no traceback
            silence_stdout()
            return 0
    folder = Path(args.data) if args.data else data_dir() / "server"
    try:
        store = _open(args, folder)
    except StoreError as e:
        print(f"gonzaga accounts: {e}", file=sys.stderr)
        return 1
    except _Usage as e:
        print(f"gonzaga accounts: {e}", file=sys.stderr)
        return 2
    try:
        if args.command == "list":
            for acc in store.accounts(100_000):
                mark = "  banned" if acc.banned else ""
                print(f"{acc.name}\t{len(store.sessions(acc.id))} sessions{mark}")
            return 0
        found = store.by_name(args.name)
        if found is None:
            print(f"gonzaga accounts: no account is named {args.name!r}", file=sys.stderr)
            return 1
        acc = found
        if args.command == "reset-password":
            password = A.new_token()[:16] if args.random else _read_password()
            if password is None:
                return 1
            store.set_password(acc.id, A.hash_password(password))
            ended = store.drop_sessions(acc.id)
            print(f"the password of {acc.name} is set; sessions ended: {ended}")
            if args.random:
                print(password)
        elif args.command == "ban":
            store.set_banned(acc.id, True)
            ended = store.drop_sessions(acc.id)
            print(f"{acc.name} is banned; sessions ended: {ended} (a running server lets go within {RECHECK:.0f} s)")
        else:
            store.set_banned(acc.id, False)
            print(f"{acc.name} may sign in again")
        return 0
    except StoreError as e:
        print(f"gonzaga accounts: {e}", file=sys.stderr)
        return 1
    finally:
        store.close()


def _read_password() -> Optional[str]:
    if sys.stdin.isatty():
        first = getpass.getpass("new password: ")
        if getpass.getpass("again: ") != first:
            print("gonzaga accounts: the two passwords differ; nothing changed", file=sys.stderr)
            return None
    else:
        first = sys.stdin.readline().rstrip("\r\n")
    why = A.password_problem(first)
    if why is not None:
        print(f"gonzaga accounts: a password has {A.MIN_PASSWORD} to {A.MAX_PASSWORD} characters; nothing changed",
              file=sys.stderr)
        return None
    return first


# ---------------------------------------------------------------- figures

def guesses_allowed(hours: float, addresses: int, one_account: bool = True) -> dict[str, int]:
    """Wrong passwords the limits let through in ``hours`` from ``addresses`` addresses each
    guessing as fast as it is let, against one account (or each guess another account: the
    per-address limit alone), on a simulated clock with the desk's own rules (``Attempts`` per
    address, ``account_wait`` per account)."""
    now = [0.0]
    attempts = A.Attempts(lambda: now[0])
    fails, last_fail, through = 0, 0.0, 0
    end = hours * 3600.0
    while now[0] < end:
        soonest = end
        for i in range(addresses):
            address = f"10.0.{i // 250}.{i % 250}"
            wait = attempts.check_sign_in(address, None)
            if wait is not None:
                soonest = min(soonest, now[0] + wait.seconds)
                continue
            left = last_fail + A.account_wait(fails) - now[0] if one_account else 0.0
            if left > 0:
                soonest = min(soonest, now[0] + left)
                break
            attempts.failed(address, None)
            fails, last_fail, through = fails + 1, now[0], through + 1
            soonest = now[0]
        now[0] = max(soonest, now[0] + 0.001)
    return {"hours": int(hours), "addresses": addresses, "guesses": through}


def _peak_mib() -> Optional[float]:
    """This process's peak resident memory (POSIX; None elsewhere)."""
    if resource is None:
        return None
    peak = float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return peak / 2 ** 20 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB on Linux


def _figures(hashes: int, as_json: bool) -> int:
    times, cpu = [], []
    before = _peak_mib()
    stored = A.hash_password("correct horse battery")
    after = _peak_mib()
    for _ in range(max(1, hashes)):
        t, c = time.perf_counter(), time.process_time()
        A.verify_password("correct horse battery", stored)
        times.append((time.perf_counter() - t) * 1000.0)
        cpu.append((time.process_time() - c) * 1000.0)
    out = {
        "scrypt": {"n": A.SCRYPT_N, "r": A.SCRYPT_R, "p": A.SCRYPT_P},
        "hash_ms_median": round(statistics.median(times), 1),
        "hash_cpu_ms_median": round(statistics.median(cpu), 1),  # what it costs a core, whatever the load
        "hash_ms_max": round(max(times), 1),
        "hash_mib": 128 * A.SCRYPT_R * A.SCRYPT_N / 2 ** 20,
        "first_hash_peak_rss_growth_mib": None if before is None or after is None else round(after - before, 1),
        "per_address": guesses_allowed(1, 1, one_account=False),
        "per_account_from_1000_addresses": guesses_allowed(1, 1000),
        "per_account_24h_from_1000_addresses": guesses_allowed(24, 1000),
    }
    if as_json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"scrypt n={A.SCRYPT_N} r={A.SCRYPT_R} p={A.SCRYPT_P}: {out['hash_mib']:.0f} MiB a hash, "
          f"{out['hash_ms_median']} ms median ({out['hash_cpu_ms_median']} ms of CPU), {out['hash_ms_max']} ms max "
          f"({len(times)} hashes); "
          f"peak memory grew {out['first_hash_peak_rss_growth_mib']} MiB at the first hash")
    for key in ("per_address", "per_account_from_1000_addresses", "per_account_24h_from_1000_addresses"):
        g = out[key]
        assert isinstance(g, dict)
        print(f"{key}: {g['guesses']} wrong passwords in {g['hours']} h from {g['addresses']} address(es)")
    return 0
