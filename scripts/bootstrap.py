"""Set up ``.venv`` from the lock files and run the game, the tests or the build, on Linux, macOS
and Windows alike. ``scripts/play``, ``scripts/test`` (bash) and ``scripts/play.ps1``,
``scripts/test.ps1`` (PowerShell) all call this file:

    python3 scripts/bootstrap.py play [game options]      e.g. --demo
    python3 scripts/bootstrap.py test [pytest options]
    python3 scripts/bootstrap.py setup runtime|test|build  only set up .venv
    python3 scripts/bootstrap.py build [pyinstaller options]  the packaged game (build_exe.spec)

The first run creates ``.venv`` with the Python that runs this script (3.11 or newer) and
installs the locked packages with their hashes (``pip install --require-hashes -r
requirements/<kind>.txt``), then the game itself without its dependencies and without build
isolation, so nothing unpinned is downloaded. Later runs reinstall only when the lock file or
pyproject.toml changed. The lock files are made by ``python3 scripts/bootstrap.py lock``
(docs/release.md).

Only the standard library here, and nothing newer than Python 3.6 before the version check, so
that an old Python gets a clear message instead of a syntax error.
"""
import hashlib
import os
import subprocess
import sys

MIN_PYTHON = (3, 11)
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


def install_commands(py, kind):
    """The two pip commands that install a kind of environment into the venv whose python is
    ``py``: the locked packages, checked against their hashes; then the game, which brings no
    dependency of its own and builds with the locked setuptools."""
    pip = [py, "-m", "pip", "install", "--disable-pip-version-check", "--quiet"]
    return [pip + ["--require-hashes", "-r", lock_file(kind)],
            pip + ["--no-deps", "--no-build-isolation", "--editable", ROOT]]


def fingerprint(kind):
    """What an installed environment was made from: its lock file and pyproject.toml."""
    h = hashlib.sha256()
    for path in (lock_file(kind), os.path.join(ROOT, "pyproject.toml")):
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


def check_python(version=None):
    """None when this Python is new enough, else the message for the user."""
    version = tuple(version or sys.version_info[:3])
    if version[:2] < MIN_PYTHON:
        return ("Gonzaga needs Python %d.%d or newer (this is %s); install it from python.org "
                "or your package manager, or set PYTHON to it" % (MIN_PYTHON + (".".join(map(str, version)),)))
    return None


def ensure(kind, venv=VENV):
    """Create the venv if needed and install ``kind`` into it unless it is current; returns the
    venv's python."""
    py = venv_python(venv)
    if not os.path.exists(py):
        print("setting up %s (first run only)..." % os.path.relpath(venv, ROOT), file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    if not is_current(kind, venv):
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


def command(action, args, py):
    """(argv, env) of what ``action`` runs with the venv's python ``py``."""
    if action == "play":
        return [py, "-m", "gonzaga"] + args, None
    if action == "test":
        return [py, "-m", "pytest"] + args, test_env()
    if action == "build":
        return [py, "-m", "PyInstaller", "--noconfirm", "--clean"] + args + [os.path.join(ROOT, "build_exe.spec")], None
    raise ValueError(action)


def lock_commands(uv):
    """The commands that refresh the lock files (hashes of every platform's wheels)."""
    out = []
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
        print(problem, file=sys.stderr)
        return 2
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
    cmd, env = command(action, rest, py)
    try:
        return subprocess.call(cmd, cwd=ROOT, env=env)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
