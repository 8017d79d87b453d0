import os
import sys
from pathlib import Path

# scene and render tests draw headless
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line("markers", "rule(*ids): the spec clause ids (S1, P7, W4, D1, ...) a test checks")


import pytest  # noqa: E402  (after the SDL settings above)


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    """Make the real App, headless, with a private user folder: ``make_app((w, h), speed=...,
    **settings)``. Every app made is closed afterwards, and the interface language and scale a
    test may have changed are set back."""
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    from gonzaga.table import persistence
    from gonzaga.app import App
    made = []

    def make(size=(1280, 720), speed="instant", frames=2, **settings):
        a = App(persistence.Settings(speed=speed, **settings), size=size)
        a.run_frames(frames)
        made.append(a)
        return a
    yield make
    for a in made:
        if a.running:
            a.close()
    from gonzaga.words import i18n
    from gonzaga.ui import widgets as W
    i18n.set_language("en")
    W.set_ui_scale(1.0)
