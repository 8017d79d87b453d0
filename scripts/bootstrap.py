"""Set up ``.venv`` from the lock files and run the game, the tests or the build, on Linux, macOS
and Windows alike. ``scripts/play``, ``scripts/test`` (bash) and ``scripts/play.ps1``,
``scripts/test.ps1`` (PowerShell) all call this file:

    python3 scripts/bootstrap.py play [game options]      e.g. --demo
    python3 scripts/bootstrap.py test [pytest options]
    python3 scripts/bootstrap.py setup runtime|test|build  only set up .venv
    python3 scripts/bootstrap.py build [pyinstaller options]  the packaged game (build_exe.spec)

Supported Pythons: 3.11 to 3.13 (SUPPORTED). 3.14 is not yet: miniupnpc has no wheel for it, so
pip would need a C compiler. A Python outside the range that runs this script looks for a
supported one (``py -3.13`` ... on Windows, ``python3.13`` ... elsewhere) and hands over to it.

The first run creates ``.venv`` with that Python, upgrades pip inside it from
requirements/pip.txt (hash-pinned: the pip a Python ships may be old), installs the locked
packages with their hashes (``pip install --require-hashes -r requirements/<kind>.txt``), then
the game itself without its dependencies and without build isolation, so nothing unpinned is
downloaded. Later runs reinstall only when a lock file or pyproject.toml changed. A half-made
``.venv`` (no python in it, a python that does not start or is outside the range, no pip: what
Debian's ``python3 -m venv`` leaves when python3-venv is missing) is said so and made again. The
lock files are made by ``python3 scripts/bootstrap.py lock`` (docs/release.md).

Only the standard library here, and nothing newer than Python 3.6 before the version check, so
that an old Python gets a clear message instead of a syntax error.
"""
import hashlib
import os
import shutil
import subprocess
import sys

# the Pythons the locks install on (every locked package has a wheel for them), oldest and newest
SUPPORTED = ((3, 11), (3, 13))
MIN_PYTHON, MAX_PYTHON = SUPPORTED
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
REQ = os.path.join(ROOT, "requirements")
# what each kind of set-up installs; a set-up of a later kind in the tuple also serves the
# earlier ones (its lock holds all of the runtime's packages at the same versions)
KINDS = ("runtime", "test", "build")
SERVES = {"runtime": ("runtime", "test", "build"), "test": ("test",), "build": ("build",)}
LOCK_INPUTS = {"runtime": [], "test": ["--extra", "dev"], "build": ["--extra", "package"]}


def venv_python(venv=VENV, os_name=None):
    """The virtual environment's python: ``Scripts\\python.exe`` on Windows, ``bin/python``
    elsewhere."""
    if (os_name or os.name) == "nt":
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python")


def lock_file(kind):
    return os.path.join(REQ, kind + ".txt")


class SetupError(Exception):
    """Setting up .venv failed in a way the user can act on; the message says how."""


def install_commands(py, kind):
    """The pip commands that install a kind of environment into the venv whose python is ``py``:
    pip itself from its lock; the locked packages, checked against their hashes; then the game,
    which brings no dependency of its own and builds with the locked setuptools."""
    pip = [py, "-m", "pip", "install", "--disable-pip-version-check", "--quiet"]
    return [pip + ["--require-hashes", "-r", lock_file("pip")],
            pip + ["--require-hashes", "-r", lock_file(kind)],
            pip + ["--no-deps", "--no-build-isolation", "--editable", ROOT]]


def fingerprint(kind):
    """What an installed environment was made from: its lock file and pyproject.toml."""
    h = hashlib.sha256()
    for path in (lock_file("pip"), lock_file(kind), os.path.join(ROOT, "pyproject.toml")):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def stamp_path(kind, venv=VENV):
    return os.path.join(venv, ".installed-" + kind)


def is_current(kind, venv=VENV):
    """True when ``venv`` already holds an up-to-date environment that serves ``kind``."""
    for have in SERVES[kind]:
        try:
            with open(stamp_path(have, venv)) as f:
                if f.read().strip() == fingerprint(have):
                    return True
        except OSError:
            continue
    return False


def _dotted(v):
    return ".".join(map(str, v))


def _shown(path):
    """A path as the user reads it: relative to the project when it can be (not across Windows
    drives)."""
    try:
        return os.path.relpath(path, ROOT)
    except ValueError:
        return path


def check_python(version=None):
    """None when this Python is a supported one, else the message for the user."""
    version = tuple(version or sys.version_info[:3])
    if MIN_PYTHON <= version[:2] <= MAX_PYTHON:
        return None
    if version[:2] < MIN_PYTHON:
        why = "it is too old"
    else:
        why = "the game's packages have no ready-made build for it yet (one of them would need a C compiler)"
    return ("Gonzaga needs Python %s to %s; this is %s, and %s. Install Python %s from python.org or your "
            "package manager, or set PYTHON to one" % (_dotted(MIN_PYTHON), _dotted(MAX_PYTHON), _dotted(version),
                                                       why, _dotted(MAX_PYTHON)))


def python_version(cmd):
    """(major, minor) of the Python that ``cmd`` (a list) starts, or None if it does not start."""
    try:
        out = subprocess.run(cmd + ["-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True,
                             timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.stdout.split()
    return (int(parts[0]), int(parts[1])) if out.returncode == 0 and len(parts) == 2 else None


def python_candidates(os_name=None):
    """Commands that may start a supported Python, newest first: the py launcher's versions on
    Windows (``py -3`` alone picks the newest installed, maybe too new), python3.X elsewhere."""
    versions = [(3, m) for m in range(MAX_PYTHON[1], MIN_PYTHON[1] - 1, -1)]
    if (os_name or os.name) == "nt":
        return [["py", "-%d.%d" % v] for v in versions]
    return [["python%d.%d" % v] for v in versions]


def find_supported_python(os_name=None, version_of=python_version):
    """The command of the newest supported Python installed, or None."""
    for cmd in python_candidates(os_name):
        v = version_of(cmd)
        if v is not None and MIN_PYTHON <= v <= MAX_PYTHON:
            return cmd
    return None


def venv_problem(venv=VENV, version_of=python_version):
    """None when ``venv`` has a python of a supported version with pip in it, else what is wrong
    (for the message before it is made again)."""
    py = venv_python(venv)
    if not os.path.exists(py):
        return "it has no %s" % py[len(venv):].lstrip("\\/")
    v = version_of([py])
    if v is None:
        return "its python does not start (the Python it was made with may be gone)"
    if not MIN_PYTHON <= v <= MAX_PYTHON:
        return "it was made with Python %s, outside %s to %s" % (_dotted(v), _dotted(MIN_PYTHON), _dotted(MAX_PYTHON))
    if subprocess.call([py, "-m", "pip", "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
        return "it has no pip (what python -m venv leaves when the system's venv support is incomplete)"
    return None


def make_venv(venv):
    """A new venv with pip in it, or SetupError saying how to get one (the half-made one removed,
    so that the next run does not stumble on it)."""
    try:
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    except subprocess.CalledProcessError:
        pass  # said below
    problem = venv_problem(venv)
    if problem:
        shutil.rmtree(venv, ignore_errors=True)
        hint = ("on Debian and Ubuntu: sudo apt install python%d.%d-venv" % sys.version_info[:2]
                if sys.platform.startswith("linux") else "reinstall Python from python.org")
        raise SetupError("could not make a working %s with %s: %s. Install Python's venv support (%s), then "
                         "run this again" % (_shown(venv), sys.executable, problem, hint))


def ensure(kind, venv=None):
    """Create the venv if needed (again if it is half-made) and install ``kind`` into it unless it
    is current; returns the venv's python."""
    venv = venv or VENV
    py = venv_python(venv)
    current = os.path.exists(py) and is_current(kind, venv)
    if os.path.exists(venv) and not current:  # about to install: first make sure the venv works
        problem = venv_problem(venv)
        if problem:
            print("%s is half-made: %s. Making it again..." % (_shown(venv), problem), file=sys.stderr)
            shutil.rmtree(venv)
            make_venv(venv)
    if not os.path.exists(venv):
        print("setting up %s (first run only)..." % _shown(venv), file=sys.stderr)
        make_venv(venv)
    if not current:
        for cmd in install_commands(py, kind):
            subprocess.check_call(cmd)
        for old in KINDS:  # another kind's packages may have been replaced by these
            if os.path.exists(stamp_path(old, venv)):
                os.remove(stamp_path(old, venv))
        with open(stamp_path(kind, venv), "w") as f:
            f.write(fingerprint(kind) + "\n")
    return py


def test_env(base=None):
    """The tests' environment: headless (no window, no sound device)."""
    env = dict(os.environ if base is None else base)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    return env


def parallel_args(args):
    """pytest-xdist's options for the whole suite: one worker per core (CI has two), the package
    tests kept on one worker (``xdist_group``: the packaged game is built once). None when the
    caller chose (``-n``, ``--numprocesses``, ``-p no:xdist``) or runs one test by its id
    (``file::test``: starting workers would only add time)."""
    chose = any(a in ("no:xdist", "-pno:xdist") or a.startswith(("-n", "--numprocesses")) for a in args)
    one = any("::" in a for a in args)
    return [] if chose or one else ["-n", "auto", "--dist", "loadgroup"]


def command(action, args, py):
    """(argv, env) of what ``action`` runs with the venv's python ``py``."""
    if action == "play":
        return [py, "-m", "gonzaga"] + args, None
    if action == "test":
        return [py, "-m", "pytest"] + parallel_args(args) + args, test_env()
    if action == "build":
        return [py, "-m", "PyInstaller", "--noconfirm", "--clean"] + args + [os.path.join(ROOT, "build_exe.spec")], None
    raise ValueError(action)


def lock_commands(uv):
    """The commands that refresh the lock files (hashes of every platform's wheels)."""
    out = [[uv, "pip", "compile", "requirements/pip.in", "--universal", "--python-version", "%d.%d" % MIN_PYTHON,
            "--generate-hashes", "--upgrade", "--quiet", "-o", "requirements/pip.txt"]]
    for kind in KINDS:
        out.append([uv, "pip", "compile", "pyproject.toml", "requirements/backend.in"] + LOCK_INPUTS[kind]
                   + ["--universal", "--python-version", "%d.%d" % MIN_PYTHON, "--generate-hashes",
                      "--upgrade", "--quiet", "-o", "requirements/%s.txt" % kind])
    return out


def main(argv):
    usage = "usage: bootstrap.py play|test|build [options] | setup runtime|test|build | lock"
    if not argv or argv[0] not in ("play", "test", "build", "setup", "lock"):
        print(usage, file=sys.stderr)
        return 2
    problem = check_python()
    if problem:
        other = None if os.environ.get("GONZAGA_BOOTSTRAP_HANDED_OVER") else find_supported_python()
        if other is None:
            print(problem, file=sys.stderr)
            return 2
        print("this is Python %s, outside %s to %s: using %s" % (_dotted(sys.version_info[:3]), _dotted(MIN_PYTHON),
                                                                 _dotted(MAX_PYTHON), " ".join(other)), file=sys.stderr)
        env = dict(os.environ, GONZAGA_BOOTSTRAP_HANDED_OVER="1")  # no second hand-over: no loop
        return subprocess.call(other + [os.path.abspath(__file__)] + argv, env=env)
    action, rest = argv[0], argv[1:]
    try:
        if action == "lock":  # needs uv in the venv or on PATH: pip install uv
            uv = os.path.join(os.path.dirname(venv_python()), "uv" + (".exe" if os.name == "nt" else ""))
            uv = uv if os.path.exists(uv) else "uv"
            for cmd in lock_commands(uv):
                subprocess.check_call(cmd, cwd=ROOT)
            return 0
        if action == "setup":
            if len(rest) != 1 or rest[0] not in KINDS:
                print(usage, file=sys.stderr)
                return 2
            ensure(rest[0])
            return 0
        py = ensure({"play": "runtime", "test": "test", "build": "build"}[action])
    except subprocess.CalledProcessError as e:
        print("setting up failed (%s exited with %s); see the messages above" % (e.cmd[0], e.returncode),
              file=sys.stderr)
        return 1
    except SetupError as e:
        print("setting up failed: %s" % e, file=sys.stderr)
        return 1
    cmd, env = command(action, rest, py)
    try:
        return subprocess.call(cmd, cwd=ROOT, env=env)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
