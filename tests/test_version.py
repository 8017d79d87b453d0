"""One version, from gonzaga/version.py (issue 41): the command line, the save files' writer
field, the package metadata's source, the changelog."""
import re
import tomllib
from pathlib import Path

from gonzaga.table import persistence
from gonzaga.app import main
from gonzaga.version import NOTICE, __version__

ROOT = Path(__file__).resolve().parent.parent


def test_version_prints_the_version_file_and_the_notice(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"gonzaga {__version__}", NOTICE]
    assert "Guglielmo Duccoli" in NOTICE and "daVinci Editrice" in NOTICE and "Unofficial" in NOTICE


def test_saves_name_the_version_that_wrote_them():
    assert persistence.app_version() == __version__


def test_pyproject_reads_the_version_file_and_names_the_licence():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" in meta["project"]["dynamic"] and "version" not in meta["project"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gonzaga.version.__version__"}
    assert meta["project"]["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_changelog_has_a_section_for_this_version():
    assert re.match(r"\d+\.\d+\.\d+$", __version__)
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d\d-\d\d$",
                     (ROOT / "CHANGELOG.md").read_text(), re.M)
