import os
import sys
from pathlib import Path

# scene and render tests draw headless
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line("markers", "rule(*ids): the spec clause ids (S1, P7, W4, D1, ...) a test checks")
