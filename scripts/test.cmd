@echo off
rem Windows (cmd.exe, or a double-click): set up .venv (first run only) and run the whole test suite, headless
rem extra arguments go to pytest, e.g.  scripts\test.cmd tests\test_cli.py
rem Needs no PowerShell, so no execution policy is involved. The work is done by scripts\bootstrap.py,
rem which picks a supported Python (3.11 to 3.13) itself. %%PYTHON%% may name one; otherwise the py
rem launcher, else python on the PATH.
setlocal
if defined PYTHON goto with_python
where py >nul 2>nul
if errorlevel 1 goto with_path
py -3 "%~dp0bootstrap.py" test %*
exit /b %ERRORLEVEL%
:with_python
"%PYTHON%" "%~dp0bootstrap.py" test %*
exit /b %ERRORLEVEL%
:with_path
python "%~dp0bootstrap.py" test %*
exit /b %ERRORLEVEL%
