"""Entry script for the packaged game (PyInstaller needs a script, not a package's __main__)."""
import multiprocessing
import sys

if __name__ == "__main__":
    # A windowed build on Windows has no console: give print() somewhere harmless to go.
    import os
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    multiprocessing.freeze_support()  # worker processes re-enter here when frozen
    from gonzaga.__main__ import main
    sys.exit(main())
