# Windows (PowerShell): set up .venv with the test tools (first run only), then run the whole
# test suite, headless; extra arguments go to pytest, e.g.  scripts\test.ps1 tests\test_cli.py
# The work is done by scripts\bootstrap.py, shared with scripts/test (bash). $env:PYTHON may name
# the Python 3.11+ to use; otherwise the py launcher, else python on the PATH.
$ErrorActionPreference = "Stop"
$bootstrap = Join-Path $PSScriptRoot "bootstrap.py"
if ($env:PYTHON) {
    & $env:PYTHON $bootstrap test @args
} elseif (Get-Command py -ErrorAction SilentlyContinue) {
    & py -3 $bootstrap test @args
} else {
    & python $bootstrap test @args
}
exit $LASTEXITCODE
