"""How much of gonzaga/ mypy checks, and how strictly (issue 45): each module's status read from
pyproject.toml's ``[[tool.mypy.overrides]]`` as mypy reads them (an exact module name before a
``pkg.*`` pattern, a longer pattern before a shorter one), and the lines of each status.

    .venv/bin/python tools/typing_share.py          # a table: status, modules, lines, share
    .venv/bin/python tools/typing_share.py --list   # and each module's status

Statuses: ``strict`` (an override with ``strict = true``), ``ignored`` (``ignore_errors = true``:
read for its types, its own errors not reported), ``checked`` (every other module: checked
non-strict). Lines are the file's lines, blank and comment lines included.
"""
from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _specificity(pattern: str, module: str) -> int:
    """How closely ``pattern`` names ``module`` (-1: not at all); mypy takes the closest."""
    if pattern == module:
        return 10_000
    if pattern.endswith(".*"):
        base = pattern[:-2]
        if module == base or module.startswith(base + "."):
            return len(base)
    return -1


def status_of(module: str, overrides: list[dict]) -> str:
    best, status = -1, "checked"
    for o in overrides:
        names = o["module"] if isinstance(o["module"], list) else [o["module"]]
        for pattern in names:
            s = _specificity(pattern, module)
            if s > best:
                best = s
                status = "ignored" if o.get("ignore_errors") else "strict" if o.get("strict") else "checked"
    return status


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--list", action="store_true", help="each module's status too")
    a = p.parse_args(argv)
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["overrides"]
    rows = []
    for path in sorted((ROOT / "gonzaga").rglob("*.py")):
        module = module_name(path)
        lines = len(path.read_text(encoding="utf-8").splitlines())
        rows.append((module, status_of(module, overrides), lines))
    total = sum(n for _, _, n in rows)
    if a.list:
        for module, status, n in rows:
            print(f"{status:8} {n:6} {module}")
    print(f"{'status':8} {'modules':>7} {'lines':>7} {'share':>6}")
    for status in ("strict", "checked", "ignored"):
        mine = [n for _, s, n in rows if s == status]
        print(f"{status:8} {len(mine):7} {sum(mine):7} {100 * sum(mine) / total:5.1f}%")
    print(f"{'all':8} {len(rows):7} {total:7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
