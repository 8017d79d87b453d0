"""The AppImage (packaging/linux/build_appimage.py), its AppStream metadata and the Flatpak manifest
(issue 46). The AppDir is made from a small fake built folder here; the real built folder is
packed and run when ``GONZAGA_BUILT_PROGRAM`` names one (the release workflow's package job)."""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gonzaga.version import __version__

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("build_appimage", ROOT / "packaging" / "linux" / "build_appimage.py")
appimage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(appimage)
_fspec = importlib.util.spec_from_file_location("flatpak_sources", ROOT / "packaging" / "flatpak" / "flatpak_sources.py")
flatpak_sources = importlib.util.module_from_spec(_fspec)
_fspec.loader.exec_module(flatpak_sources)

APP_ID = appimage.APP_ID
MANIFEST = ROOT / "packaging" / "flatpak" / f"{APP_ID}.yml"
posix_only = pytest.mark.skipif(os.name == "nt", reason="an AppDir has symbolic links and a POSIX AppRun")


def read_block_yaml(text: str):
    """The block-style YAML the manifest is written in (mappings, lists, plain or quoted scalars,
    comments), read strictly: anything else is an error, so the file stays in this subset."""
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise ValueError(f"line {n}: a tab in the indentation")
        lines.append((n, len(raw) - len(raw.lstrip()), raw.strip()))

    def scalar(s, n):
        if s[:1] in "'\"":
            if len(s) < 2 or s[-1] != s[0]:
                raise ValueError(f"line {n}: an unclosed quote")
            return s[1:-1]
        if s[:1] in "{[&*!|>%@`":
            raise ValueError(f"line {n}: {s[:1]!r} is outside the subset")
        return s

    def block(i, indent):
        if lines[i][2].startswith("- "):
            out = []
            while i < len(lines) and lines[i][1] == indent and lines[i][2].startswith("- "):
                n, _, s = lines[i]
                item = s[2:]
                if re.match(r"^[A-Za-z0-9_.-]+:( |$)", item):  # a mapping inside the list
                    lines[i] = (n, indent + 2, item)
                    value, i = block(i, indent + 2)
                    out.append(value)
                else:
                    out.append(scalar(item, n))
                    i += 1
            return out, i
        out = {}
        while i < len(lines) and lines[i][1] == indent:
            n, _, s = lines[i]
            m = re.match(r"^([A-Za-z0-9_.-]+):(?: (.*))?$", s)
            if not m or m.group(1) in out:
                raise ValueError(f"line {n}: not a new 'key: value'")
            if m.group(2):
                out[m.group(1)] = scalar(m.group(2), n)
                i += 1
            elif i + 1 < len(lines) and lines[i + 1][1] > indent:
                out[m.group(1)], i = block(i + 1, lines[i + 1][1])
            elif i + 1 < len(lines) and lines[i + 1][1] == indent and lines[i + 1][2].startswith("- "):
                out[m.group(1)], i = block(i + 1, indent)
            else:
                raise ValueError(f"line {n}: {m.group(1)} has no value")
        return out, i
    value, end = block(0, lines[0][1])
    if end != len(lines):
        raise ValueError(f"line {lines[end][0]}: indentation out of place")
    return value


@pytest.fixture
def fake_dist(tmp_path):
    """A built folder whose Gonzaga program answers as the real one does, and echoes its arguments."""
    dist = tmp_path / "dist" / "Gonzaga"
    (dist / "_internal").mkdir(parents=True)
    exe = dist / "Gonzaga"
    exe.write_text("#!/bin/sh\n"
                   f'if [ "$1" = --version ]; then echo "gonzaga {__version__}"; exit 0; fi\n'
                   'if [ "$1" = --exit-after-first-frame ]; then echo "first_frame_ms=1"; exit 0; fi\n'
                   'for a in "$@"; do echo "arg:$a"; done\n')
    exe.chmod(0o755)
    return dist


@posix_only
def test_the_appdir_holds_what_appimage_tools_and_desktops_look_for(fake_dist, tmp_path):
    appdir = appimage.make_appdir(fake_dist, tmp_path / "Gonzaga.AppDir")
    assert (appdir / "AppRun").read_text().startswith("#!/bin/sh")
    assert (appdir / "usr" / "lib" / "gonzaga" / "Gonzaga").is_file()
    for f in (f"{APP_ID}.desktop", f"usr/share/applications/{APP_ID}.desktop", f"{APP_ID}.png",
              f"usr/share/icons/hicolor/256x256/apps/{APP_ID}.png", f"usr/share/metainfo/{APP_ID}.appdata.xml"):
        assert (appdir / f).is_file(), f
    notes = appdir / "usr/share/doc/gonzaga/appimage-runtime"
    assert "libfuse 3 | GNU LGPL 2.1" in (notes / "NOTICE.md").read_text()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (notes / "LGPL-2.1.txt").read_text()
    assert "Copyright (c) 2004-23 probonopd" in (notes / "LICENSE-runtime.txt").read_text()
    entry = (appdir / f"{APP_ID}.desktop").read_text()
    assert f"Icon={APP_ID}\n" in entry and "Exec=Gonzaga\n" in entry
    assert os.readlink(appdir / ".DirIcon") == f"{APP_ID}.png"
    assert (appdir / "usr" / "bin" / "Gonzaga").resolve() == (appdir / "usr/lib/gonzaga/Gonzaga").resolve()
    assert os.access(appdir / "AppRun", os.X_OK)


def test_a_folder_without_the_program_is_refused(tmp_path):
    with pytest.raises(appimage.BuildError, match="holds no Gonzaga program"):
        appimage.make_appdir(tmp_path, tmp_path / "x.AppDir")


@posix_only
def test_apprun_runs_the_program_with_the_arguments_given_from_anywhere(fake_dist, tmp_path):
    appdir = appimage.make_appdir(fake_dist, tmp_path / "Gonzaga.AppDir")
    link = tmp_path / "elsewhere" / "gonzaga"
    link.parent.mkdir()
    link.symlink_to(appdir / "AppRun")  # how an AppImage's runtime or a menu entry may call it
    p = subprocess.run([str(link), "two words", "--seats=3"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.splitlines() == ["arg:two words", "arg:--seats=3"], p.stderr
    assert appimage.run_checks([str(appdir / "AppRun")], tmp_path / "home", __version__) == [
        f"gonzaga {__version__}", "first_frame_ms=1"]
    with pytest.raises(appimage.BuildError, match="--version"):
        appimage.run_checks([str(appdir / "AppRun")], tmp_path / "home", "9.9.9")


def test_the_runtime_is_checked_against_its_pinned_sha256_and_put_before_the_image(tmp_path):
    wrong = tmp_path / "runtime"
    wrong.write_bytes(b"\x7fELF not the runtime")
    with pytest.raises(appimage.BuildError, match="not the pinned"):
        appimage.check_runtime(wrong)
    assert re.fullmatch(r"[0-9a-f]{64}", appimage.RUNTIME_SHA256)
    assert re.fullmatch(r"https://github\.com/AppImage/type2-runtime/releases/download/\d{8}/runtime-x86_64",
                        appimage.RUNTIME_URL)  # a dated release, never "continuous"
    image = tmp_path / "image.squashfs"
    image.write_bytes(b"hsqs" + bytes(100))
    out = appimage.pack(b"RUNTIME", image, tmp_path / "out" / "Gonzaga.AppImage")
    assert out.read_bytes() == b"RUNTIME" + b"hsqs" + bytes(100)
    if os.name != "nt":
        assert os.access(out, os.X_OK)


@posix_only
@pytest.mark.skipif(not (shutil.which("mksquashfs") and shutil.which("unsquashfs")), reason="squashfs-tools missing")
def test_the_squashfs_image_unpacks_to_a_running_appdir(fake_dist, tmp_path):
    appdir = appimage.make_appdir(fake_dist, tmp_path / "Gonzaga.AppDir")
    image = appimage.make_squashfs(appdir, tmp_path / "image.squashfs")
    assert image.read_bytes()[:4] == b"hsqs"  # SquashFS's magic, little-endian
    report = appimage.smoke(appdir, image, None, __version__)
    assert f"image, unpacked: gonzaga {__version__}, first_frame_ms=1" in report


def test_the_metainfo_is_complete_and_names_the_current_version():
    root = ET.parse(appimage.METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == f"{APP_ID}.desktop"
    for tag in ("name", "summary", "metadata_license", "project_license", "description", "content_rating"):
        assert root.find(tag) is not None, tag
    releases = [r.get("version") for r in root.find("releases")]
    assert releases[0] == __version__, "add the new version to the metainfo's <releases>"
    desktop = appimage.DESKTOP.read_text()
    categories = re.search(r"^Categories=(.*)$", desktop, re.M).group(1).strip(";").split(";")
    assert [c.text for c in root.find("categories")] == categories


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstreamcli is not installed (Debian: appstream)")
def test_appstreamcli_validates_the_metainfo():
    p = subprocess.run(["appstreamcli", "validate", "--no-net", str(appimage.METAINFO)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_flatpak_manifest_and_its_ids_agree_with_the_metainfo_and_the_desktop_entry():
    manifest = read_block_yaml(MANIFEST.read_text(encoding="utf-8"))
    assert manifest["app-id"] == APP_ID == MANIFEST.stem
    assert manifest["runtime"] == "org.freedesktop.Platform" and manifest["sdk"] == "org.freedesktop.Sdk"
    assert manifest["command"] == "gonzaga"  # pyproject.toml's console script
    assert 'gonzaga = "gonzaga.__main__:main"' in (ROOT / "pyproject.toml").read_text()
    assert {"--share=network", "--socket=wayland", "--socket=fallback-x11", "--socket=pulseaudio",
            "--device=dri"} <= set(manifest["finish-args"])
    deps_file, game = manifest["modules"]
    assert (MANIFEST.parent / deps_file).is_file()
    commands = "\n".join(game["build-commands"])
    for installed in ("share/applications/${FLATPAK_ID}.desktop", "share/metainfo/${FLATPAK_ID}.metainfo.xml",
                      "share/icons/hicolor/256x256/apps/${FLATPAK_ID}.png"):
        assert installed in commands
    for path in re.findall(r"install -Dm644 (\S+) ", commands):
        assert (ROOT / path.replace("${FLATPAK_ID}", APP_ID)).is_file(), path
    assert (MANIFEST.parent / game["sources"][0]["path"]).resolve() == ROOT


def test_the_block_yaml_reader_is_strict():
    assert read_block_yaml("a: 1\nb:\n  - x\n  - c: 2\n    d: '3'\ne:\n- y\n") == {
        "a": "1", "b": ["x", {"c": "2", "d": "3"}], "e": ["y"]}
    for bad in ("a: 1\na: 2\n", "a: {b: 1}\n", "a:\n", "a: 'x\n", "a: 1\n  b: 2\n"):
        with pytest.raises(ValueError):
            read_block_yaml(bad)


def test_the_flatpak_python_module_installs_exactly_the_locked_files():
    module = json.loads((MANIFEST.parent / "python3-dependencies.json").read_text(encoding="utf-8"))
    pins = flatpak_sources.locked()
    lock_hashes = {h for _, hashes in pins.values() for h in hashes}
    names = set(module["build-commands"][0].split("--no-build-isolation ")[1].split())
    for source in module["sources"]:
        assert source["sha256"] in lock_hashes, source["url"]
        b = source["url"].split("/packages/")[1].split("/")
        assert len(b[0]) == len(b[1]) == 2 and len(b[2]) == 60  # PyPI's BLAKE2b-256 path
    wanted = {n for n in pins if n not in flatpak_sources.SKIP} | flatpak_sources.BUILD_ONLY
    assert names == wanted
    files = {s["url"].rsplit("/", 1)[1].split("-")[0].lower().replace("_", "-") for s in module["sources"]}
    assert files == wanted


@pytest.fixture(scope="module")
def real_dist():
    prebuilt = os.environ.get("GONZAGA_BUILT_PROGRAM")
    if not prebuilt or not sys.platform.startswith("linux"):
        pytest.skip("GONZAGA_BUILT_PROGRAM names no Linux build (the release workflow's package job sets it)")
    return Path(prebuilt).parent


@pytest.mark.skipif(not (shutil.which("mksquashfs") and shutil.which("unsquashfs")), reason="squashfs-tools missing")
def test_the_real_build_as_appdir_and_image_starts_headless(real_dist, tmp_path):
    appdir = appimage.make_appdir(real_dist, tmp_path / "Gonzaga.AppDir")
    image = appimage.make_squashfs(appdir, tmp_path / "image.squashfs")
    report = appimage.smoke(appdir, image, None, __version__)
    assert any(r.startswith(f"AppDir/AppRun: gonzaga {__version__}, first_frame_ms=") for r in report), report
    assert any(r.startswith(f"image, unpacked: gonzaga {__version__}, first_frame_ms=") for r in report), report
