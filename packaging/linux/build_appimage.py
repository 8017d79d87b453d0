"""The Linux AppImage, beside the tarball (issue 46).

    python packaging/linux/build_appimage.py --dist dist/Gonzaga --out out/Gonzaga-X.Y.Z-x86_64.AppImage [--smoke]

Makes an AppDir from the built folder (PyInstaller's dist/Gonzaga) and packs it as a type-2
AppImage: ``mksquashfs`` (Debian/Ubuntu package squashfs-tools) makes the SquashFS image and the
AppImage runtime (AppImage/type2-runtime, pinned below by release and SHA-256) is put before it,
which is all appimagetool does for an unsigned image without update information. The runtime
is downloaded when ``--runtime`` is not given; a wrong checksum stops the build.

The AppDir:
    AppRun                      runs usr/lib/gonzaga/Gonzaga with the arguments given
    <ID>.desktop, <ID>.png      packaging/linux/gonzaga.desktop with Icon=<ID>; assets/icon/gonzaga.png
    .DirIcon                    the icon again (file managers show it)
    usr/lib/gonzaga/            the built folder
    usr/bin/Gonzaga             a link to it
    usr/share/applications/, usr/share/icons/hicolor/256x256/apps/, usr/share/metainfo/<ID>.appdata.xml
    usr/share/doc/gonzaga/appimage-runtime/   the runtime's notice and licence texts

``--smoke`` runs the AppDir's AppRun, then the files packed in the image (unpacked with
``unsquashfs``), and the AppImage itself when this system can run it (``--appimage-extract-and-run``,
no FUSE needed), each with ``--version`` and ``--exit-after-first-frame`` under the dummy video
driver; and validates the desktop file and the metainfo when desktop-file-validate and
appstreamcli are installed. ``--appdir DIR`` keeps the AppDir there; ``--squashfs FILE`` stops
after the SquashFS image (no runtime needed: what can be made offline).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
APP_ID = "io.github.gonzaga_digital_edition.Gonzaga"
DESKTOP = HERE / "gonzaga.desktop"
METAINFO = HERE / f"{APP_ID}.metainfo.xml"
ICON = ROOT / "assets" / "icon" / "gonzaga.png"
EXE = "Gonzaga"
# AppImage/type2-runtime release 20251108, x86_64 (MIT; it links squashfuse, libfuse 3 and zstd statically)
RUNTIME_URL = "https://github.com/AppImage/type2-runtime/releases/download/20251108/runtime-x86_64"
RUNTIME_SHA256 = "2fca8b443c92510f1483a883f60061ad09b46b978b2631c807cd873a47ec260d"
# What the runtime holds, as its own LICENSE lists it (and mimalloc, which its Makefile links); the
# notices of the program itself are in usr/lib/gonzaga/_internal (tools/notices.py).
RUNTIME_NOTICE = """# The AppImage runtime

This AppImage starts with the AppImage type-2 runtime (https://github.com/AppImage/type2-runtime,
release 20251108), MIT licence (LICENSE-runtime.txt). It contains statically linked code from:

| library | licence | its licence text |
|---|---|---|
| musl libc | MIT | https://git.musl-libc.org/cgit/musl/tree/COPYRIGHT |
| libfuse 3 | GNU LGPL 2.1 | LGPL-2.1.txt; source: https://github.com/libfuse/libfuse |
| squashfuse | BSD-2-Clause | https://github.com/vasi/squashfuse/blob/master/LICENSE |
| zstd | BSD-3-Clause | https://github.com/facebook/zstd/blob/dev/LICENSE |
| zlib | Zlib | zlib.txt |
| mimalloc | MIT | https://github.com/microsoft/mimalloc/blob/master/LICENSE |
"""
RUNTIME_TEXTS = {"LICENSE-runtime.txt": "appimage-type2-runtime-MIT.txt", "LGPL-2.1.txt": "LGPL-2.1.txt",
                 "zlib.txt": "debian-zlib1g.txt"}
APPRUN = """#!/bin/sh
# The AppImage's entry point: the game in usr/lib/gonzaga, with the arguments given.
here="$(dirname "$(readlink -f "$0")")"
exec "$here/usr/lib/gonzaga/Gonzaga" "$@"
"""


class BuildError(RuntimeError):
    pass


def desktop_entry(text: str) -> str:
    """The tarball's desktop entry with the icon named by the app id (as AppImage and Flatpak want)."""
    lines = [f"Icon={APP_ID}" if line.startswith("Icon=") else line for line in text.splitlines()]
    if f"Icon={APP_ID}" not in lines:
        raise BuildError(f"{DESKTOP} has no Icon= line")
    return "\n".join(lines) + "\n"


def make_appdir(dist: Path, appdir: Path) -> Path:
    """Lay out the AppDir from the built folder ``dist`` (which holds the Gonzaga program)."""
    if not (dist / EXE).is_file():
        raise BuildError(f"{dist} holds no {EXE} program: build it first (python3 scripts/bootstrap.py build)")
    if appdir.exists():
        shutil.rmtree(appdir)
    lib = appdir / "usr" / "lib" / "gonzaga"
    shutil.copytree(dist, lib, symlinks=True)
    (appdir / "usr" / "bin").mkdir(parents=True)
    os.symlink("../lib/gonzaga/" + EXE, appdir / "usr" / "bin" / EXE)
    entry = desktop_entry(DESKTOP.read_text(encoding="utf-8"))
    for d in (appdir, appdir / "usr" / "share" / "applications"):
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{APP_ID}.desktop").write_text(entry, encoding="utf-8")
    icons = appdir / "usr" / "share" / "icons" / "hicolor" / "256x256" / "apps"
    icons.mkdir(parents=True)
    shutil.copyfile(ICON, icons / f"{APP_ID}.png")
    shutil.copyfile(ICON, appdir / f"{APP_ID}.png")
    os.symlink(f"{APP_ID}.png", appdir / ".DirIcon")
    meta = appdir / "usr" / "share" / "metainfo"
    meta.mkdir(parents=True)
    shutil.copyfile(METAINFO, meta / f"{APP_ID}.appdata.xml")  # the name appimagetool and AppImageHub look for
    notes = appdir / "usr" / "share" / "doc" / "gonzaga" / "appimage-runtime"
    notes.mkdir(parents=True)
    (notes / "NOTICE.md").write_text(RUNTIME_NOTICE, encoding="utf-8")
    for name, text in RUNTIME_TEXTS.items():
        shutil.copyfile(ROOT / "licenses" / "texts" / text, notes / name)
    apprun = appdir / "AppRun"
    apprun.write_text(APPRUN, encoding="utf-8")
    apprun.chmod(0o755)
    return appdir


def make_squashfs(appdir: Path, image: Path) -> Path:
    mksquashfs = shutil.which("mksquashfs")
    if mksquashfs is None:
        raise BuildError("mksquashfs is missing: install squashfs-tools (apt-get install squashfs-tools)")
    image.parent.mkdir(parents=True, exist_ok=True)
    image.unlink(missing_ok=True)
    # zstd, as appimagetool 1.9 packs; -root-owned so no build user's ids leak into the image
    subprocess.run([mksquashfs, str(appdir), str(image), "-root-owned", "-noappend", "-comp", "zstd",
                    "-quiet", "-no-progress"], check=True, stdout=subprocess.DEVNULL)
    return image


def fetch_runtime(cache: Path) -> Path:
    """The pinned type-2 runtime, downloaded once into ``cache`` and checked against its SHA-256."""
    target = cache / f"runtime-x86_64-{RUNTIME_SHA256[:12]}"
    if not target.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        try:
            with urllib.request.urlopen(RUNTIME_URL, timeout=60) as r:
                data = r.read()
        except OSError as e:
            raise BuildError(f"could not download the AppImage runtime ({RUNTIME_URL}): {e}; "
                             "give one with --runtime, or make only the image with --squashfs") from e
        target.write_bytes(data)
    return target


def check_runtime(runtime: Path) -> bytes:
    data = runtime.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != RUNTIME_SHA256:
        raise BuildError(f"{runtime}: SHA-256 {digest}, not the pinned {RUNTIME_SHA256} ({RUNTIME_URL})")
    return data


def pack(runtime: bytes, image: Path, out: Path) -> Path:
    """runtime + SquashFS image = the AppImage."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        f.write(runtime)
        with image.open("rb") as src:
            shutil.copyfileobj(src, f)
    out.chmod(0o755)
    return out


def _env(home: Path) -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", APPIMAGE_EXTRACT_AND_RUN="1")
    for var in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[var] = str(home / var.lower())  # keep the smoke run's saves and logs out of the user's home
    return env


def run_checks(program: list[str], home: Path, expect_version: str) -> list[str]:
    """``--version`` and ``--exit-after-first-frame`` of ``program``; returns what it printed."""
    env = _env(home)
    p = subprocess.run(program + ["--version"], capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0 or p.stdout.splitlines()[:1] != [f"gonzaga {expect_version}"]:
        raise BuildError(f"{' '.join(program)} --version: exit {p.returncode}, {p.stdout!r} {p.stderr[-1500:]}")
    f = subprocess.run(program + ["--exit-after-first-frame"], capture_output=True, text=True, env=env, timeout=180)
    if f.returncode != 0 or "first_frame_ms=" not in f.stdout:
        raise BuildError(f"{' '.join(program)} --exit-after-first-frame: exit {f.returncode}, {f.stderr[-1500:]}")
    frame = next(w for w in f.stdout.split() if w.startswith("first_frame_ms="))
    return [p.stdout.splitlines()[0], frame]


def validate_metadata(appdir: Path) -> list[str]:
    """desktop-file-validate and appstreamcli validate, where installed; a finding stops the build."""
    done = []
    tools = [("desktop-file-validate", [str(appdir / f"{APP_ID}.desktop")]),
             ("appstreamcli", ["validate", "--no-net", str(appdir / "usr/share/metainfo" / f"{APP_ID}.appdata.xml")])]
    for tool, args in tools:
        path = shutil.which(tool)
        if path is None:
            done.append(f"{tool}: not installed, skipped")
            continue
        p = subprocess.run([path] + args, capture_output=True, text=True)
        note = ""
        if p.returncode != 0 and tool == "desktop-file-validate" and "Version=1.5" in Path(args[0]).read_text():
            # desktop-file-utils before 0.27 (Debian 12) knows the spec only up to 1.4: check the rest
            older = appdir.parent / "version-1.4-check.desktop"
            older.write_text(Path(args[0]).read_text().replace("Version=1.5", "Version=1.4"))
            p = subprocess.run([path, str(older)], capture_output=True, text=True)
            older.unlink()
            note = " (with Version=1.4: this validator predates the spec's 1.5)"
        if p.returncode != 0:
            raise BuildError(f"{tool} {' '.join(args)}:\n{p.stdout}{p.stderr}")
        done.append(f"{tool}: passed{note}")
    return done


def smoke(appdir: Path, image: Path | None, appimage: Path | None, version: str) -> list[str]:
    report = validate_metadata(appdir)
    with tempfile.TemporaryDirectory(prefix="gonzaga-appimage-") as tmp:
        t = Path(tmp)
        report.append("AppDir/AppRun: " + ", ".join(run_checks([str(appdir / "AppRun")], t / "a", version)))
        if image is not None and shutil.which("unsquashfs"):
            unpacked = t / "unpacked"
            subprocess.run(["unsquashfs", "-q", "-n", "-d", str(unpacked), str(image)], check=True,
                           stdout=subprocess.DEVNULL)
            report.append("image, unpacked: " + ", ".join(run_checks([str(unpacked / "AppRun")], t / "b", version)))
        if appimage is not None:
            report.append("AppImage: " + ", ".join(run_checks([str(appimage)], t / "c", version)))
    return report


def read_version() -> str:
    ns: dict = {}
    exec((ROOT / "gonzaga" / "version.py").read_text(encoding="utf-8"), ns)
    return ns["__version__"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", required=True, type=Path, help="the built folder (dist/Gonzaga)")
    ap.add_argument("--out", type=Path, help="the AppImage to write")
    ap.add_argument("--squashfs", type=Path, help="write only the SquashFS image here (no runtime needed)")
    ap.add_argument("--appdir", type=Path, help="keep the AppDir here (default: a temporary folder)")
    ap.add_argument("--runtime", type=Path, help="the type-2 runtime file (default: download the pinned one)")
    ap.add_argument("--smoke", action="store_true", help="run what was made headless, and validate its metadata")
    args = ap.parse_args(argv)
    if not (args.out or args.squashfs):
        ap.error("give --out (the AppImage) or --squashfs (the image alone)")
    with tempfile.TemporaryDirectory(prefix="gonzaga-appdir-") as tmp:
        try:
            appdir = make_appdir(args.dist, args.appdir or Path(tmp) / "Gonzaga.AppDir")
            image = make_squashfs(appdir, args.squashfs or Path(tmp) / "image.squashfs")
            appimage = None
            if args.out:
                runtime = args.runtime or fetch_runtime(Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                                                        / "gonzaga-build")
                appimage = pack(check_runtime(runtime), image, args.out)
            made = appimage or image
            print(f"{made}: {made.stat().st_size / 1e6:.1f} MB (AppDir {_size(appdir) / 1e6:.1f} MB)")
            if args.smoke:
                for line in smoke(appdir, image, appimage, read_version()):
                    print(f"smoke: {line}")
        except (BuildError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            print(f"build_appimage: {e}", file=sys.stderr)
            return 1
    return 0


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


if __name__ == "__main__":
    sys.exit(main())
