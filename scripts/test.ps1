# Windows (PowerShell): set up .venv with the test tools (first run only), then run the whole
# test suite, headless; extra arguments go to pytest, e.g.  scripts\test.ps1 tests\test_cli.py
# The work is done by scripts\bootstrap.py, shared with scripts/test (bash), which picks a supported
# Python (3.11 to 3.13) itself: $env:PYTHON may name one; otherwise the py launcher, else python.
# Windows' default execution policy blocks .ps1 files: use scripts\test.cmd instead, or
#   powershell -ExecutionPolicy Bypass -File scripts\test.ps1
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
