"""Entry script for the packaged game (PyInstaller needs a script, not a package's __main__)."""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # worker processes re-enter here when frozen
    from gonzaga.__main__ import main
    sys.exit(main())
