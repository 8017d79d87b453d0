# Windows (PowerShell): set up .venv (first run only) and start the game; extra arguments go to
# the game, e.g.  scripts\play.ps1 --demo
# The work is done by scripts\bootstrap.py, shared with scripts/play (bash). $env:PYTHON may name
# the Python 3.11+ to use; otherwise the py launcher, else python on the PATH.
$ErrorActionPreference = "Stop"
$bootstrap = Join-Path $PSScriptRoot "bootstrap.py"
if ($env:PYTHON) {
    & $env:PYTHON $bootstrap play @args
} elseif (Get-Command py -ErrorAction SilentlyContinue) {
    & py -3 $bootstrap play @args
} else {
    & python $bootstrap play @args
}
exit $LASTEXITCODE
