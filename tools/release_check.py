"""Check a built game (build_exe.spec's output) and print its figures, here and in the release
workflow (.github/workflows/release.yml) on every system:

    python tools/release_check.py [--dist dist] [--json]
    python tools/release_check.py --sha256 FILE...     writes FILE.sha256 beside each (sha256sum's format)
    python tools/release_check.py --sizes OUT FIGURES.json...   the release notes' table of sizes

It finds the program (dist/Gonzaga/Gonzaga, Gonzaga.exe, or dist/Gonzaga.app on macOS), checks
that ``--version`` prints the version of gonzaga/version.py, that LICENSE and
THIRD_PARTY_NOTICES.md are inside, then plays a whole 3-seat demo game with the frozen program
(SDL's dummy drivers, a scratch data folder) and starts it to its first frame. Prints the size
of the folder (MB), the first frame (ms) and the demo's wall time (s). Exit status 1 when a
check fails, with one line saying which.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def project_version() -> str:
    tree = ast.parse((ROOT / "gonzaga" / "version.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__version__" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("gonzaga/version.py has no __version__")


def find_program(dist: Path) -> tuple[Path, Path]:
    """(the executable, the folder that is shipped)."""
    app = dist / "Gonzaga.app"
    if sys.platform == "darwin" and app.is_dir():
        return app / "Contents" / "MacOS" / "Gonzaga", app
    exe = dist / "Gonzaga" / ("Gonzaga.exe" if os.name == "nt" else "Gonzaga")
    return exe, exe.parent


def folder_mb(folder: Path) -> float:
    # symlinks (PyInstaller links some libraries twice) count once, as in the archive
    return round(sum(f.lstat().st_size for f in folder.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6, 1)


def run(cmd: list[str], env: dict, timeout: int) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def check(dist: Path) -> dict:
    exe, folder = find_program(dist)
    if not exe.exists():
        raise RuntimeError(f"no built program at {exe}: build it first (python scripts/bootstrap.py build)")
    for name in ("LICENSE", "THIRD_PARTY_NOTICES.md"):
        if not any(folder.rglob(name)):
            raise RuntimeError(f"{name} is not inside {folder}")
    scratch = tempfile.mkdtemp(prefix="gonzaga-release-check-")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=scratch)
    version = project_version()
    p = run([str(exe), "--version"], env, 120)
    if p.returncode != 0 or p.stdout.splitlines()[:1] != [f"gonzaga {version}"]:
        raise RuntimeError(f"--version printed {p.stdout.strip()!r} (exit {p.returncode}), expected gonzaga {version}")
    t0 = time.perf_counter()
    p = run([str(exe), "--demo", "--seats", "3", "--exit-after-game"], env, 900)
    demo_s = round(time.perf_counter() - t0, 1)
    if p.returncode != 0 or "winner" not in p.stdout.lower() or "Traceback" in p.stderr:
        raise RuntimeError(f"the demo game failed (exit {p.returncode}): {(p.stderr or p.stdout).strip()[-500:]}")
    frames = []
    for _ in range(3):  # the best of three: the first start also fills the system's file cache
        p = run([str(exe), "--exit-after-first-frame"], env, 300)
        ms = [line.split("=", 1)[1] for line in p.stdout.splitlines() if line.startswith("first_frame_ms=")]
        if p.returncode != 0 or not ms:
            raise RuntimeError(f"--exit-after-first-frame failed (exit {p.returncode}): {p.stderr.strip()[-500:]}")
        frames.append(float(ms[0].split()[0]))
    return {"version": version, "platform": sys.platform, "program": str(exe), "size_mb": folder_mb(folder),
            "first_frame_ms": min(frames), "demo_game_s": demo_s}


def write_checksum(path: Path) -> str:
    """Write ``<path>.sha256`` as ``sha256sum`` writes it ("<hex>  <name>") and return that line."""
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    line = f"{h.hexdigest()}  {path.name}"
    Path(str(path) + ".sha256").write_text(line + "\n", encoding="utf-8", newline="\n")
    return line


def sizes_table(out: Path, figures: list[Path]) -> str:
    """Markdown for the release notes: each download's size, and each build's folder and first
    frame as ``--json`` measured them (the figures the README points to, never typed by hand)."""
    lines = ["", "### Sizes (measured by the release check)", "", "| download | MB |", "|---|---|"]
    for f in sorted(out.iterdir()):
        if f.is_file() and not f.name.endswith((".sha256", ".txt")):
            lines.append(f"| {f.name} | {f.stat().st_size / 1e6:.1f} |")
    lines += ["", "| built program | folder MB | first frame ms | demo game s |", "|---|---|---|---|"]
    for path in sorted(figures):
        d = json.loads(path.read_text(encoding="utf-8"))
        lines.append(f"| {path.stem} | {d['size_mb']} | {d['first_frame_ms']} | {d['demo_game_s']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", default=str(ROOT / "dist"), help="PyInstaller's output folder (default: dist)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--sha256", nargs="+", metavar="FILE", help="only write FILE.sha256 beside each FILE")
    ap.add_argument("--sizes", nargs="+", metavar="PATH", help="OUT FIGURES.json...: print the sizes table")
    a = ap.parse_args(argv)
    if a.sizes:
        print(sizes_table(Path(a.sizes[0]), [Path(p) for p in a.sizes[1:]]), end="")
        return 0
    if a.sha256:
        for name in a.sha256:
            print(write_checksum(Path(name)))
        return 0
    try:
        out = check(Path(a.dist))
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
        print(f"release_check: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
