"""The packaged game (issue 6): build it with PyInstaller, then run the built program through a
whole AI game in demo mode with the dummy video driver. Slow (a minute or two): it is the proof
that what players download really runs."""
import os
import signal
import subprocess
from pathlib import Path

import pytest

# the packaged game is built once per run (conftest's built_program): its tests share one xdist worker
pytestmark = pytest.mark.xdist_group("package")

ROOT = Path(__file__).resolve().parent.parent
MAX_SIZE_MB = 80


def shipped_folder(exe: Path) -> Path:
    """What is shipped around the program: the .app on macOS (the program is in Contents/MacOS,
    its data in Contents/Resources), else the folder the program is in."""
    if exe.parent.name == "MacOS" and exe.parent.parent.name == "Contents":
        return exe.parents[2]
    return exe.parent


def terminal_program(exe: Path) -> Path:
    """The program to run from a terminal: on Windows the console launcher beside the windowed
    Gonzaga.exe (build_exe.spec), whose output a console shows and which a console's Ctrl-Break
    reaches; elsewhere the program itself."""
    console = exe.with_name("Gonzaga-console.exe")
    return console if os.name == "nt" else exe


def start_server(argv: list, env: dict) -> subprocess.Popen:
    """A server process that ``stop_gracefully`` can stop: on Windows in its own process group,
    so that a Ctrl-Break event reaches it alone."""
    flags = subprocess.CREATE_NEW_PROCESS_GROUP if os.name == "nt" else 0
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            creationflags=flags)


def stop_gracefully(proc: subprocess.Popen) -> None:
    """What an operator does to stop a server cleanly: SIGTERM on Linux and macOS (systemd, launchd,
    kill); Ctrl-Break on Windows, where ``terminate()`` is TerminateProcess(handle, 1), an exit
    code of 1 that no program chooses (``gonzaga serve`` stops cleanly on either)."""
    proc.send_signal(signal.CTRL_BREAK_EVENT if os.name == "nt" else signal.SIGTERM)


@pytest.fixture(scope="module")
def built(built_program):
    return built_program  # tests/conftest.py: built once per run


def _env(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    # keep the built program's saves and logs out of the tester's home
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return env


def test_built_program_plays_a_whole_demo_game(built, tmp_path):
    p = subprocess.run([str(built), "--demo", "--seats", "3", "--exit-after-game"], capture_output=True,
                       text=True, env=_env(tmp_path), timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "winner" in p.stdout.lower() or "winners" in p.stdout.lower(), p.stdout
    assert "Traceback" not in p.stderr


def test_built_program_runs_hard_ai_in_worker_processes(built, tmp_path):
    """The hard level thinks in worker processes: they must start inside the frozen program."""
    env = _env(tmp_path)
    env["GONZAGA_AI_ITERATIONS"] = "3"  # a short, reproducible search
    p = subprocess.run([str(built), "--demo", "--seats", "2", "--bots", "hard,greedy", "--exit-after-game"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "winner" in p.stdout.lower(), p.stdout


def test_built_program_version_and_first_frame(built, tmp_path):
    from gonzaga.version import NOTICE, __version__
    for program in dict.fromkeys([built, terminal_program(built)]):  # Windows: both EXEs
        assert program.is_file(), f"{program.name} is not beside {built.name}"
        p = subprocess.run([str(program), "--version"], capture_output=True, text=True, env=_env(tmp_path),
                           timeout=60)
        assert p.returncode == 0 and p.stdout.splitlines() == [f"gonzaga {__version__}", NOTICE], p.stdout
    p = subprocess.run([str(built), "--exit-after-first-frame"], capture_output=True, text=True,
                       env=_env(tmp_path), timeout=120)
    assert p.returncode == 0 and "first_frame_ms=" in p.stdout, p.stderr[-2000:]


def test_built_folder_size(built):
    size = sum(f.stat().st_size for f in shipped_folder(built).rglob("*") if f.is_file() and not f.is_symlink())
    assert size <= MAX_SIZE_MB * 1024 * 1024, f"{size / 1e6:.1f} MB"


def test_built_folder_carries_the_licences_and_no_gnu_readline(built):
    names = {f.name for f in shipped_folder(built).rglob("*")}
    assert {"LICENSE", "THIRD_PARTY_NOTICES.md"} <= names
    assert not any(n.startswith(("readline.", "libreadline")) for n in names)


def test_built_folder_carries_the_words_catalogs_and_the_port_mapping_module(built):
    """What the game reads or imports only when asked: the Italian catalog (read at start from
    beside gonzaga/words/catalog.py) and miniupnpc (imported when a host asks for port mapping)."""
    folder = shipped_folder(built)
    files = [f.relative_to(folder).as_posix() for f in folder.rglob("*") if f.is_file()]
    assert any(f.endswith("gonzaga/words/locale/it/LC_MESSAGES/gonzaga.po") for f in files), files[:50]
    assert any(f.rpartition("/")[2].startswith("miniupnpc") and f.endswith((".so", ".pyd")) for f in files)


def test_built_program_serves_an_online_game_with_a_search_ai(built, tmp_path):
    """``Gonzaga serve`` from the packaged program (what a host runs): it listens, a client creates
    and starts a game against a hard AI seat, which thinks in a worker process of the frozen
    program, and the operator's stop (SIGTERM; Ctrl-Break on Windows) ends it cleanly."""
    import json

    from websockets.sync.client import connect

    from gonzaga.net import protocol as P
    from gonzaga.net.viewcodec import view_from_json
    from gonzaga.rules import legal_actions, load_content
    env = _env(tmp_path)
    env["GONZAGA_AI_ITERATIONS"] = "2"  # a short search (the server seats shipped levels only, no budget)
    proc = start_server([str(terminal_program(built)), "serve", "--port", "0", "--data", str(tmp_path / "srv")], env)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving on wss://"), (line, proc.stderr.read() if proc.poll() is not None else "")
        from gonzaga.net.invite import split_pin
        from gonzaga.net.tls import client_context
        url, pin = split_pin(line.split()[-1])  # the packaged game makes its certificate
        content = load_content()
        with connect(url, open_timeout=10, max_size=P.MAX_SERVER_BYTES, ssl=client_context(pin)) as ws:
            def send(**msg):
                ws.send(json.dumps({"v": P.PROTOCOL_VERSION, **msg}))

            def until(kind):
                for _ in range(200):
                    m = json.loads(ws.recv(timeout=60))
                    if m["type"] == kind:
                        return m
                    assert m["type"] != "error", m
                raise AssertionError(f"no {kind}")
            # the server deals every game itself (no chosen seed) and seats shipped levels only
            send(type="create", name="Ann", seats=[{"kind": "host", "colour": "red"},
                                                   {"kind": "ai", "colour": "blue", "bot": "hard"}])
            token = until("joined")["token"]
            send(type="start", token=token)
            u = until("update")
            for _ in range(40):  # plan and place until the AI has placed a fief at least once
                v = view_from_json(u["view"], content)
                if any(p.seat == 1 for p in v.pieces):
                    break
                if 0 in v.to_act():
                    send(type="act", token=token, n=u["n"], action=legal_actions(v, 0)[0].to_text())
                u = until("update")
            assert any(p.seat == 1 for p in view_from_json(u["view"], content).pieces)
        stop_gracefully(proc)
        assert proc.wait(timeout=30) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
