"""The lab's tests: run them with ``pytest lab/tests`` (the default run collects tests/ only).

The research scripts import one another by module name, as they do when run from lab/, so
lab/ and the repository's root go on the path."""
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
LAB = Path(__file__).resolve().parent.parent
for p in (LAB, LAB.parent):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
