"""A pytest plugin that makes this POSIX machine look like Windows before the suite is collected
(tests/test_portable.py loads it with ``-p portable_windows``): ``sys.platform`` is "win32",
``os.name`` is "nt", and what Windows' Python does not have is gone: the POSIX-only signals, the
os functions for FIFOs, forks and user ids, and the modules fcntl, resource, pwd, grp, termios.
A test module that touches any of them while it is imported or collected (a parametrize over
``signal.SIGKILL``, say) then fails here as it would on a Windows runner.

What it cannot fake: the Windows-only modules (msvcrt, winreg, ctypes.windll) are still missing,
as they are on any POSIX system, so code that imports them at module level for Windows fails
here too; none does (they are imported where they are used, tests/test_floors.py's LAZY_OUTSIDE)."""
import importlib
import os
import pathlib
import signal
import sys

import pytest

# present in Windows' signal module: SIGABRT SIGFPE SIGILL SIGINT SIGSEGV SIGTERM SIGBREAK and the
# CTRL_* events; every other SIG* name below is POSIX only
WINDOWS_SIGNALS = {"SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIGBREAK"}
POSIX_SIGNAL_FUNCTIONS = ("alarm", "pause", "setitimer", "getitimer", "siginterrupt", "pthread_kill",
                          "pthread_sigmask", "sigpending", "sigwait", "sigwaitinfo", "sigtimedwait")
POSIX_OS_FUNCTIONS = ("mkfifo", "mknod", "fork", "forkpty", "getuid", "geteuid", "getgid", "getegid",
                      "setuid", "setgid", "getpwuid", "killpg", "getpgid", "setsid", "setpgrp", "chown",
                      "lchown", "fchown", "getloadavg", "sysconf", "statvfs", "fstatvfs", "sync",
                      "wait", "wait3", "wait4", "waitpid", "WNOHANG", "geteuid", "nice", "uname",
                      "pipe2", "posix_spawn", "sched_getaffinity", "getrlimit")
POSIX_MODULES = ("fcntl", "resource", "pwd", "grp", "termios", "tty", "pty", "posix")
# imported before the pretence: modules that choose their platform's implementation while they
# are imported (asyncio's event loop, multiprocessing's spawning, pygame's DLL folder). The
# pretence is for the game's and the tests' own code; these run on Windows in their Windows form.
REAL_FIRST = ("asyncio", "asyncio.unix_events", "multiprocessing", "multiprocessing.connection",
              "multiprocessing.context", "multiprocessing.popen_spawn_posix", "multiprocessing.reduction",
              "multiprocessing.resource_tracker", "multiprocessing.util", "multiprocessing.pool",
              "multiprocessing.queues", "multiprocessing.synchronize", "multiprocessing.managers",
              "concurrent.futures", "concurrent.futures.process", "concurrent.futures.thread",
              "subprocess", "selectors", "socket", "ssl", "shutil", "tempfile", "uuid", "platform",
              "ctypes", "ctypes.util", "sqlite3", "logging.handlers", "mimetypes", "locale", "getpass",
              "zipfile", "urllib.request", "webbrowser", "sysconfig", "importlib.metadata",
              "pygame", "pygame.freetype", "websockets.sync.client", "websockets.asyncio.server",
              "platformdirs", "pydantic")


def _pretend_windows():
    for name in REAL_FIRST:
        try:
            importlib.import_module(name)
        except (ImportError, AttributeError, OSError):
            pass  # an optional one, or one of another system; the suite says so itself if it needs it
    if os.name != "nt":  # Path() picks WindowsPath when os.name is "nt", and it cannot be made here
        pathlib.WindowsPath = pathlib.PosixPath
    sys.platform = "win32"
    os.name = "nt"
    for name in list(vars(signal)):
        if (name.startswith("SIG") and not name.startswith("SIG_") and name not in WINDOWS_SIGNALS) \
                or name in POSIX_SIGNAL_FUNCTIONS:
            delattr(signal, name)
    signal.SIGBREAK = 21
    signal.CTRL_C_EVENT, signal.CTRL_BREAK_EVENT = 0, 1
    for name in POSIX_OS_FUNCTIONS:
        if hasattr(os, name):
            delattr(os, name)
    for name in POSIX_MODULES:
        sys.modules[name] = None  # `import fcntl` now raises ImportError, as on Windows


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # after pytest's own start-up (which looks at sys.platform itself), before conftest.py
    _pretend_windows()
