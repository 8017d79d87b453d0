"""The program's version: the one place a release changes (see docs/release.md).

Everything else reads it from here: ``gonzaga --version``, the window title, the ``app_version``
field of the save files, the package metadata (pyproject.toml reads this file), the Windows
version resource and the macOS bundle (build_exe.spec). The release workflow refuses a tag
``vX.Y.Z`` that differs from it. Keep the assignment a plain string literal: setuptools and the
spec read it without importing the package.
"""
__version__ = "0.2.0"

# Who holds the rights to the board game this program adapts (README, THIRD_PARTY_NOTICES.md).
NOTICE = ("Unofficial adaptation of the board game Gonzaga by Guglielmo Duccoli "
          "(daVinci Editrice, 2009); not affiliated with or endorsed by its author or publisher.")
