# Windows (PowerShell): set up .venv (first run only) and start the game; extra arguments go to
# the game, e.g.  scripts\play.ps1 --demo
# The work is done by scripts\bootstrap.py, shared with scripts/play (bash), which picks a supported
# Python (3.11 to 3.13) itself: $env:PYTHON may name one; otherwise the py launcher, else python.
# Windows' default execution policy blocks .ps1 files: use scripts\play.cmd instead, or
#   powershell -ExecutionPolicy Bypass -File scripts\play.ps1
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
