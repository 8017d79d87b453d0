"""Known vulnerabilities in the locked packages (issue 46): every package and version of the locks
(requirements/pip.txt, runtime.txt, test.txt, build.txt) asked of OSV, the open database that
pip-audit reads too.

    python tools/audit.py                    ask OSV; offline it says the audit was skipped (exit 0)
    python tools/audit.py --require-service  the same, and fail when OSV cannot be reached (CI)
    python tools/audit.py --recorded FILE    a recorded answer (JSON: "name==version" -> [ids])

Exit 1 when a locked version has a known vulnerability (each named with its OSV page): move the
lock (python3 scripts/bootstrap.py lock) or pin past it. CI also runs pip-audit over the same
locks (ci.yml's checks job); this is the one a developer runs, and the one whose logic the
tests check (tests/test_wheel_check.py). Only the standard library and ``packaging``.
"""
from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wheel_check import LOCKS, read_lock  # noqa: E402  (the one reader of the lock files)

OSV = "https://api.osv.dev/v1/querybatch"


class Offline(Exception):
    pass


def locked_versions(locks=LOCKS) -> list[str]:
    """Every "name==version" of the locks, once."""
    return sorted({f"{p.name}=={p.version}" for lock in locks for p in read_lock(lock)})


def ask_osv(pins: list[str], url: str = OSV, timeout: float = 30.0) -> dict[str, list[str]]:
    """"name==version" -> the ids of the vulnerabilities OSV knows for it."""
    queries = [{"package": {"name": pin.split("==")[0], "ecosystem": "PyPI"}, "version": pin.split("==")[1]}
               for pin in pins]
    req = urllib.request.Request(url, data=json.dumps({"queries": queries}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            results = json.load(r)["results"]
    except (urllib.error.URLError, OSError, ValueError, KeyError) as e:
        raise Offline(f"{url}: {getattr(e, 'reason', None) or e}") from None
    return {pin: sorted(v["id"] for v in res.get("vulns", [])) for pin, res in zip(pins, results)}


def report(answer: dict[str, list[str]], pins: list[str]) -> list[str]:
    """One line per locked version with known vulnerabilities."""
    return [f"{pin}: {', '.join(answer[pin])} (https://osv.dev/vulnerability/{answer[pin][0]})"
            for pin in pins if answer.get(pin)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recorded", help="a recorded answer instead of asking OSV")
    ap.add_argument("--require-service", action="store_true", help="fail when OSV cannot be reached")
    ap.add_argument("--locks", nargs="+", type=Path, help="other lock files (default: requirements/)")
    args = ap.parse_args(argv)
    pins = locked_versions(args.locks or LOCKS)
    if args.recorded:
        answer = json.loads(Path(args.recorded).read_text(encoding="utf-8"))
    else:
        try:
            answer = ask_osv(pins, OSV)
        except Offline as e:
            print(f"audit skipped: the vulnerability database cannot be reached ({e})", file=sys.stderr)
            return 2 if args.require_service else 0
    found = report(answer, pins)
    print(f"{len(pins)} locked versions audited: " + (f"{len(found)} with known vulnerabilities" if found
                                                       else "no known vulnerability"))
    for line in found:
        print("  " + line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
