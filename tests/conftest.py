import os
import sys
from pathlib import Path

# scene and render tests draw headless
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# a first start speaks the system's language (gonzaga/words/system_language.py): the tests'
# games start in English wherever they run (gettext's LANGUAGE comes first on POSIX systems)
os.environ["LANGUAGE"] = "en"
os.environ["GONZAGA_NOTIFY"] = "off"  # no system notification from the tests (they pass a recording one)
sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line("markers", "rule(*ids): the spec clause ids (S1, P7, W4, D1, ...) a test checks")


import pytest  # noqa: E402  (after the SDL settings above)

PACKAGE_GROUP = "package"  # test_package.py and test_notices.py: one build, on one worker


def pytest_collection_modifyitems(config, items):
    """The package tests first: they wait minutes for one build on one worker, and collected last
    they kept that worker busy alone after every other test had finished (pytest-xdist's
    loadgroup hands out groups in the order collected). Without xdist the order does not matter."""
    first = {id(i) for i in items
             if any(m.args[:1] == (PACKAGE_GROUP,) for m in i.iter_markers("xdist_group"))}
    items[:] = [i for i in items if id(i) in first] + [i for i in items if id(i) not in first]


def _utf8_safe(text):
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(text, str) else text


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test's captured output may name a file that is not UTF-8 (a lone surrogate, as Python
    reads such a name: tests/test_hostile_files.py makes them): escaped here, so that a
    pytest-xdist worker can send its report (execnet writes UTF-8 strictly and the worker dies)."""
    outcome = yield
    report = outcome.get_result()
    report.sections = [(title, _utf8_safe(content)) for title, content in report.sections]


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    """Make the real App, headless, with a private user folder: ``make_app((w, h), speed=...,
    **settings)``. Every app made is closed afterwards, and the interface language and scale a
    test may have changed are set back."""
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    from gonzaga.table import persistence
    from gonzaga.app import App
    made = []

    def make(size=(1280, 720), speed="instant", frames=2, **settings):
        a = App(persistence.Settings(speed=speed, **settings), size=size)
        a.run_frames(frames)
        made.append(a)
        return a
    yield make
    for a in made:
        if a.running:
            a.close()
    from gonzaga.words import i18n
    from gonzaga.ui import widgets as W
    i18n.set_language("en")
    W.set_ui_scale(1.0)


@pytest.fixture(scope="session")
def built_program(tmp_path_factory):
    """The packaged game, built once per test run and shared by the package and notices tests
    (tests/test_package.py, tests/test_notices.py): the program's path. ``GONZAGA_BUILT_PROGRAM``
    names a program built elsewhere (the release workflow tests the very files it ships)."""
    import subprocess
    prebuilt = os.environ.get("GONZAGA_BUILT_PROGRAM")
    if prebuilt:
        assert Path(prebuilt).is_file(), f"GONZAGA_BUILT_PROGRAM={prebuilt} does not exist"
        return Path(prebuilt)
    pytest.importorskip("PyInstaller", reason="PyInstaller is in the dev extra; run scripts/test")
    root = Path(__file__).resolve().parent.parent
    work = tmp_path_factory.mktemp("pyi")
    dist = work / "dist"
    # PyInstaller's own cache in this build's folder: `--clean` empties the shared one, which
    # broke another build using it at the same time ("bincache may be corrupted")
    env = {**os.environ, "PYINSTALLER_CONFIG_DIR": str(work / "config")}
    p = subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                        "--distpath", str(dist), "--workpath", str(work / "build"),
                        str(root / "build_exe.spec")], capture_output=True, text=True, cwd=root, env=env)
    assert p.returncode == 0, p.stderr[-3000:]
    exe = dist / "Gonzaga" / ("Gonzaga.exe" if os.name == "nt" else "Gonzaga")
    assert exe.exists()
    return exe


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL for this test run (tests/pg_server.py), stopped at the end; a failure
    under CI when the machine has none, a skip elsewhere."""
    from pg_server import pg_server_or_skip  # only the tests that ask for PostgreSQL look for it
    server = pg_server_or_skip()
    yield server
    server.stop()


@pytest.fixture
def pg_database(pg_server):
    """A new empty database (a schema of its own) on the test run's PostgreSQL:
    ``(url without password, password)``."""
    return pg_server.new_schema(), pg_server.password
