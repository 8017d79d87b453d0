"""build_exe.spec's platform branches (issue 41), without building: the spec is run as PyInstaller
runs it, with ``sys.platform`` faked and PyInstaller's classes (Analysis, PYZ, EXE, COLLECT,
BUNDLE) replaced by fakes that record what they were given. tests/test_package.py builds it for
real on the system the tests run on."""
import struct
import sys
from pathlib import Path

import pytest

from gonzaga.version import __version__

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "build_exe.spec"


class _Recorder:
    """A fake PyInstaller target class: every instance is recorded with its arguments."""
    made: list

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs
        self.made.append(self)


def run_spec(platform: str, monkeypatch, workpath: Path) -> dict:
    calls = {}

    def fake(name):
        cls = type(name, (_Recorder,), {"made": []})
        calls[name] = cls.made
        return cls

    Analysis = fake("Analysis")
    orig_init = Analysis.__init__

    def analysis_init(self, *args, **kwargs):
        orig_init(self, *args, **kwargs)
        # what a real Analysis collects, with pygame's docs that the spec must drop
        self.scripts, self.pure, self.binaries = ["launch"], ["gonzaga"], []
        self.datas = [(d, s, "DATA") for s, d in kwargs["datas"]] + [("pygame/docs/index.html", "x", "DATA"),
                                                                     ("pygame/freesansbold.ttf", "y", "DATA")]

    Analysis.__init__ = analysis_init
    ns = {"SPECPATH": str(ROOT), "workpath": str(workpath), "__name__": "__main__", "__file__": str(SPEC),
          "Analysis": Analysis, "PYZ": fake("PYZ"), "EXE": fake("EXE"), "COLLECT": fake("COLLECT"),
          "BUNDLE": fake("BUNDLE")}
    monkeypatch.setattr(sys, "platform", platform)
    exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), ns)
    monkeypatch.undo()
    ns["calls"] = calls
    return ns


def _dests(ns) -> dict:
    (a,) = ns["calls"]["Analysis"]
    return {Path(src).name: dest for src, dest in a.kwargs["datas"]}


@pytest.mark.parametrize("platform", ["linux", "win32", "darwin"])
def test_every_build_carries_the_game_data_and_the_licences(platform, monkeypatch, tmp_path):
    ns = run_spec(platform, monkeypatch, tmp_path)
    (a,) = ns["calls"]["Analysis"]
    for src, _dest in a.kwargs["datas"]:
        assert Path(src).exists(), src
    dests = _dests(ns)
    assert dests["LICENSE"] == "." and dests["THIRD_PARTY_NOTICES.md"] == "."
    assert {"map", "fonts", "icon", "sounds"} <= set(dests)
    assert ns["VERSION"] == __version__
    # pygame's docs are dropped, its default font kept
    assert [d[0] for d in a.datas if d[0].startswith("pygame/")] == ["pygame/freesansbold.ttf"]
    exe, *others = ns["calls"]["EXE"]
    assert exe.kwargs["name"] == "Gonzaga" and exe.kwargs["console"] is False
    (coll,) = ns["calls"]["COLLECT"]
    assert coll.args[0] is exe
    # Windows: a console launcher beside the windowed program, in the same folder (issue 46)
    if platform == "win32":
        (console,) = others
        assert console.kwargs["name"] == "Gonzaga-console" and console.kwargs["console"] is True
        assert coll.args[1] is console and console.kwargs["icon"] == exe.kwargs["icon"]
    else:
        assert others == []


def test_linux_branch_strips_and_ships_the_desktop_entry(monkeypatch, tmp_path):
    ns = run_spec("linux", monkeypatch, tmp_path)
    (exe,) = ns["calls"]["EXE"]
    assert exe.kwargs["strip"] is True and "icon" not in exe.kwargs and "version" not in exe.kwargs
    assert _dests(ns)["gonzaga.desktop"] == "."
    assert ns["calls"]["BUNDLE"] == []
    desktop = (ROOT / "packaging" / "linux" / "gonzaga.desktop").read_text(encoding="utf-8").splitlines()
    assert desktop[0] == "[Desktop Entry]"
    keys = dict(line.split("=", 1) for line in desktop[1:] if "=" in line)
    assert keys["Type"] == "Application" and keys["Exec"] == "Gonzaga" and keys["Icon"] == "gonzaga"
    assert keys["Categories"].endswith(";") and "Game" in keys["Categories"].split(";")


def test_windows_branch_has_the_icon_and_a_version_resource(monkeypatch, tmp_path):
    ns = run_spec("win32", monkeypatch, tmp_path)
    exe = ns["calls"]["EXE"][0]
    assert exe.kwargs["icon"].endswith("gonzaga.ico") and Path(exe.kwargs["icon"]).exists()
    assert exe.kwargs["strip"] is False
    version_file = Path(exe.kwargs["version"])
    assert version_file.parent == tmp_path  # written into PyInstaller's work folder, not the tree
    text = version_file.read_text(encoding="utf-8")
    nums = tuple(int(x) for x in __version__.split(".")[:3]) + (0,)
    assert f"filevers={nums}" in text and f"prodvers={nums}" in text
    assert f"StringStruct('ProductVersion', '{__version__}')" in text
    assert "Unofficial adaptation" in text
    assert "gonzaga.desktop" not in _dests(ns) and ns["calls"]["BUNDLE"] == []
    # the text is the VSVersionInfo format PyInstaller evaluates on Windows: a Python expression
    names = {"VSVersionInfo", "FixedFileInfo", "StringFileInfo", "StringTable", "StringStruct",
             "VarFileInfo", "VarStruct"}
    made = eval(text, {n: (lambda name: lambda *a, **k: (name, a, k))(n) for n in names})
    assert made[0] == "VSVersionInfo"


def test_version_tuple_drops_a_pre_release_suffix(monkeypatch, tmp_path):
    ns = run_spec("linux", monkeypatch, tmp_path)
    assert ns["version_tuple"]("1.2.3rc1") == (1, 2, 3, 0)
    assert ns["version_tuple"]("2.0") == (2, 0, 0, 0)


def test_macos_branch_makes_a_bundle_with_the_icns_and_the_version(monkeypatch, tmp_path):
    ns = run_spec("darwin", monkeypatch, tmp_path)
    (exe,) = ns["calls"]["EXE"]
    (coll,) = ns["calls"]["COLLECT"]
    (app,) = ns["calls"]["BUNDLE"]
    assert app.args[0] is coll and app.kwargs["name"] == "Gonzaga.app"
    assert exe.kwargs["icon"] == app.kwargs["icon"] and app.kwargs["icon"].endswith("gonzaga.icns")
    assert exe.kwargs["strip"] is False  # stripping would break the signature
    plist = app.kwargs["info_plist"]
    assert app.kwargs["version"] == plist["CFBundleShortVersionString"] == plist["CFBundleVersion"] == __version__
    assert plist["NSHighResolutionCapable"] is True
    # the promise wheel_check.py checks every macOS wheel against (miniupnpc's need 13.0)
    assert plist["LSMinimumSystemVersion"] == "13.0" == ns["MACOS_MINIMUM"]
    assert "gonzaga.desktop" not in _dests(ns)


def test_icns_holds_pngs_of_the_sizes_its_entry_types_name():
    """assets/icon/gonzaga.icns, made by tools/make_icon.py --icns: an 'icns' header with the
    file's length, then entries whose PNG has the size Apple's type code stands for."""
    data = (ROOT / "assets" / "icon" / "gonzaga.icns").read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    sizes = {"icp4": 16, "icp5": 32, "icp6": 64, "ic07": 128, "ic08": 256, "ic09": 512, "ic10": 1024,
             "ic11": 32, "ic12": 64, "ic13": 256, "ic14": 512}
    seen, at = set(), 8
    while at < len(data):
        kind, length = data[at:at + 4].decode("ascii"), struct.unpack(">I", data[at + 4:at + 8])[0]
        png = data[at + 8:at + length]
        assert png[:8] == b"\x89PNG\r\n\x1a\n", kind
        w, h = struct.unpack(">II", png[16:24])
        assert w == h == sizes[kind], (kind, w)
        seen.add(kind)
        at += length
    assert at == len(data) and seen == set(sizes)
