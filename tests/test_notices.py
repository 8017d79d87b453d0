"""The third-party notices are generated from what a build holds (tools/notices.py, issue 46): a
component without its notice and licence text fails. First on small fake built folders made here
(fast, every system), then on the real built folder (built here with PyInstaller, or the one
``GONZAGA_BUILT_PROGRAM`` names, as tests/test_package.py does)."""
import importlib.util
import sys
from pathlib import Path

import pytest

# the packaged game is built once per run (conftest's built_program): its tests share one xdist worker
pytestmark = pytest.mark.xdist_group("package")

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("notices", ROOT / "tools" / "notices.py")
notices = sys.modules.setdefault("notices", importlib.util.module_from_spec(_spec))
if not hasattr(notices, "scan"):
    _spec.loader.exec_module(notices)

ELF = b"\x7fELF" + bytes(60)
MIT = "MIT License\n\nCopyright (c) 2026 Fake Author\n\nPermission is hereby granted, free of charge...\n"


def _file(path: Path, data: bytes = ELF) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _fake_dist(site: Path, with_licence: bool = True) -> None:
    """An installed distribution ``fakepkg`` 1.0 that owns one extension module and one vendored library."""
    info = site / "fakepkg-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.4\nName: fakepkg\nVersion: 1.0\nLicense-Expression: MIT\n")
    record = ["fakepkg/__init__.py,,", "fakepkg/_speed.cpython-311-x86_64-linux-gnu.so,,",
              "fakepkg.libs/libvendored-1a2b3c.so.1,,", "fakepkg-1.0.dist-info/METADATA,,"]
    if with_licence:
        _file(info / "licenses" / "LICENSE", MIT.encode())
        record.append("fakepkg-1.0.dist-info/licenses/LICENSE,,")
    (info / "RECORD").write_text("\n".join(record) + "\n")


@pytest.fixture
def fake(tmp_path):
    """A built folder with SDL 2, pygame's default font, a stdlib extension module and fakepkg's
    extension module, and the site folder fakepkg is installed in."""
    site = tmp_path / "site"
    _fake_dist(site)
    folder = tmp_path / "Gonzaga"
    internal = folder / "_internal"
    _file(internal / "libSDL2-2-50d19f93.0.so.0.3200.10")
    _file(internal / "pygame" / "freesansbold.ttf", b"\x00\x01\x00\x00font")
    _file(internal / "python3.11" / "lib-dynload" / "_socket.cpython-311-x86_64-linux-gnu.so")
    _file(internal / "fakepkg" / "_speed.cpython-311-x86_64-linux-gnu.so")
    _file(internal / "gonzaga.desktop", b"[Desktop Entry]\n")  # a data file: no component needed
    return folder, site


def _scan(folder, site):
    return notices.scan(folder, env=notices.environment([str(site)]))


def test_fake_build_every_component_has_its_notice_and_licence_text(fake, tmp_path):
    folder, site = fake
    report = _scan(folder, site)
    assert report.problems == []
    assert set(report.components) == {"sdl2", "freefont", "cpython", "fakepkg"}
    assert len(report.complete) == len(report.components) == 4
    out = tmp_path / "out"
    out.mkdir()
    notices.write(report, folder.name, out)
    text = (out / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    for c in report.components.values():
        assert c.name in text and c.licence in text
        for name, src in c.texts:
            assert f"licenses/{name}" in text
            assert (out / "licenses" / name).read_bytes() == src.read_bytes()
    assert (out / "licenses" / "fakepkg" / "LICENSE").read_text() == MIT
    # components of the table that the folder does not hold are not listed
    text = text[text.index("## Components of this build"):]
    assert "pycparser" not in text and "FluidSynth" not in text and "OpenSSL" not in text


def test_a_library_nobody_claims_is_named(fake):
    folder, site = fake
    _file(folder / "_internal" / "libmystery.so.1")
    report = _scan(folder, site)
    assert len(report.problems) == 1 and report.problems[0].startswith("_internal/libmystery.so.1: a shared library")


def test_a_library_vendored_in_a_distribution_needs_its_own_entry(fake):
    """fakepkg's RECORD lists fakepkg.libs/libvendored…, but fakepkg's licence does not cover it."""
    folder, site = fake
    _file(folder / "_internal" / "fakepkg.libs" / "libvendored-1a2b3c.so.1")
    assert [p.split(":")[0] for p in _scan(folder, site).problems] == ["_internal/fakepkg.libs/libvendored-1a2b3c.so.1"]


def test_a_font_without_an_entry_is_named(fake):
    folder, site = fake
    _file(folder / "_internal" / "assets" / "fonts" / "Mystery-Regular.ttf", b"\x00\x01\x00\x00")
    assert [p.split(":")[0] for p in _scan(folder, site).problems] == ["_internal/assets/fonts/Mystery-Regular.ttf"]


def test_a_distribution_without_a_licence_file_is_named(fake, tmp_path):
    folder, _ = fake
    bare = tmp_path / "bare-site"
    _fake_dist(bare, with_licence=False)
    report = _scan(folder, bare)
    assert any(p.startswith("distribution fakepkg 1.0: its dist-info has no licence file") for p in report.problems)
    assert len(report.complete) == len(report.components) - 1


def test_the_command_writes_into_the_folder_and_exits_1_on_a_missing_notice(tmp_path, capsys):
    folder = tmp_path / "Gonzaga"
    _file(folder / "_internal" / "libSDL2_ttf-2-e69aa315.0.so.0.2400.0")
    assert notices.main(["--dist", str(folder)]) == 0
    assert "components: 1 found, 1 with notice and licence text" in capsys.readouterr().out
    assert (folder / "_internal" / "licenses" / "debian-libsdl2-ttf-2.0-0.txt").is_file()
    assert "SDL_ttf 2" in (folder / "_internal" / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    _file(folder / "_internal" / "SDL3.dll", b"MZ" + bytes(60))
    assert notices.main(["--dist", str(folder), "--check"]) == 1
    assert "SDL3.dll" in capsys.readouterr().err


# File names of the Windows and macOS builds, as CPython's and pygame-ce's build scripts name them
# (the real names are checked by the release workflow's builds; these keep the table's patterns honest).
WINDOWS = ["Gonzaga.exe", "_internal/python311.dll", "_internal/VCRUNTIME140.dll", "_internal/VCRUNTIME140_1.dll",
           "_internal/libcrypto-3.dll", "_internal/libssl-3.dll", "_internal/libffi-8.dll", "_internal/sqlite3.dll",
           "_internal/_ssl.pyd", "_internal/_decimal.pyd", "_internal/pyexpat.pyd", "_internal/select.pyd",
           "_internal/pygame/SDL2.dll", "_internal/pygame/SDL2_image.dll", "_internal/pygame/SDL2_mixer.dll",
           "_internal/pygame/SDL2_ttf.dll", "_internal/pygame/libfreetype-6.dll", "_internal/pygame/portmidi.dll",
           "_internal/pygame/libpng16-16.dll", "_internal/pygame/zlib1.dll", "_internal/pygame/libogg-0.dll",
           "_internal/pygame/libopus-0.dll", "_internal/pygame/libopusfile-0.dll", "_internal/pygame/libmpg123-0.dll",
           "_internal/pygame/libwebp-7.dll", "_internal/pygame/libtiff-5.dll", "_internal/pygame/libjpeg-62.dll",
           "_internal/pygame/libgcc_s_seh-1.dll", "_internal/pygame/libwinpthread-1.dll"]
MACOS = ["Contents/MacOS/Gonzaga", "Contents/Frameworks/Python", "Contents/Frameworks/libssl.3.dylib",
         "Contents/Frameworks/libcrypto.3.dylib", "Contents/Frameworks/python3.11/lib-dynload/_ssl.cpython-311-darwin.so",
         "Contents/Frameworks/pygame/.dylibs/libSDL2-2.0.0.dylib", "Contents/Frameworks/pygame/.dylibs/libSDL2_mixer-2.0.0.dylib",
         "Contents/Frameworks/pygame/.dylibs/libfreetype.6.dylib", "Contents/Frameworks/pygame/.dylibs/libportmidi.dylib",
         "Contents/Frameworks/pygame/.dylibs/libpng16.16.dylib", "Contents/Frameworks/pygame/.dylibs/libz.1.dylib"]


@pytest.mark.parametrize("names,magic", [(WINDOWS, b"MZ" + bytes(62)), (MACOS, b"\xcf\xfa\xed\xfe" + bytes(60))],
                         ids=["windows", "macos"])
def test_windows_and_macos_libraries_are_known_to_the_table(tmp_path, names, magic):
    folder = tmp_path / "Gonzaga"
    for name in names:
        _file(folder / name, magic)
    report = notices.scan(folder)  # this environment: PyInstaller (the launcher's licence) is installed
    assert report.problems == []
    assert {"cpython", "openssl", "sdl2", "sdl2-mixer", "freetype", "portmidi", "pyinstaller-bootloader"} <= set(
        report.components)


def test_the_table_is_valid_and_its_mistakes_name_the_file_and_the_field(tmp_path):
    table = notices.load_table()
    assert {"sdl2", "freefont", "openssl", "pygame-ce", "portmidi", "mpdecimal", "zlib-ng"} <= {
        c.id for c in table.component}
    bad = tmp_path / "components.toml"
    bad.write_text('stdlib_component = "x"\n[[component]]\nid = "x"\nname = "X"\nurl = "u"\ntexts = ["repo:LICENSE"]\n')
    with pytest.raises(notices.TableError, match=r"components\.toml: component 1 \(id 'x'\), field licence"):
        notices.load_table(bad)
    bad.write_text('stdlib_component = "x"\n[[component]]\nid = "x"\nname = "X"\nurl = "u"\nlicence = "MIT"\n'
                   'texts = ["http://example.org/LICENSE"]\n')
    with pytest.raises(notices.TableError, match=r"component 1 \(id 'x'\), field texts"):
        notices.load_table(bad)
    bad.write_text('stdlib_component = "x"\n[[component]]\nid = "x"\nname = "X"\nurl = "u"\nlicence = "MIT"\n'
                   'texts = ["repo:licenses/texts/no-such-file.txt"]\n')
    with pytest.raises(notices.TableError, match=r"component 'x', field texts: licenses/texts/no-such-file.txt"):
        notices.load_table(bad)


@pytest.fixture(scope="module")
def built_folder(built_program):
    return built_program.parent  # tests/conftest.py: the one build of the run


def test_the_built_folder_carries_a_notice_and_licence_text_for_every_component(built_folder):
    """What build_exe.spec wrote into the real build: every component found has its row in
    THIRD_PARTY_NOTICES.md and its licence texts in licenses/ beside it."""
    report = notices.scan(built_folder)
    assert report.problems == []
    out = notices.default_out(built_folder)
    text = (out / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    for c in report.components.values():
        assert c.name in text, c.id
        for name, _ in c.texts:
            assert (out / "licenses" / name).stat().st_size > 0, name
    assert len(report.complete) == len(report.components) >= 40
    assert {"pygame-ce", "sdl2", "sdl2-mixer", "freefont", "cpython", "openssl"} <= set(report.components)
    assert "pycparser" not in text
