"""Issue 40: the first window fits the desktop's usable room, opens where it was left when that
is still on the desktop (else centred), and a remembered size from a larger screen shrinks."""
from __future__ import annotations

from gonzaga import app as A
from gonzaga.ui import window as Win


def test_first_window_fits_a_small_desktop():
    usable = (1280 - Win.DESKTOP_MARGIN[0], 720 - Win.DESKTOP_MARGIN[1])
    w, h = Win.fit_window((1600, 1000), usable)
    assert w <= 1280 and h <= 720 - 60
    x, y = Win.window_position((w, h), usable, None)
    assert x >= 0 and y >= 0 and x + w <= 1280 and y + h <= 720


def test_a_window_that_fits_is_kept_as_it_was():
    assert Win.fit_window((1600, 1000), (2544, 1350)) == (1600, 1000)
    assert Win.fit_window((1600, 1000), None) == (1600, 1000)


def test_the_window_opens_where_it_was_left_when_that_is_on_the_desktop():
    usable = (1920 - Win.DESKTOP_MARGIN[0], 1080 - Win.DESKTOP_MARGIN[1])
    assert Win.window_position((1280, 720), usable, (300, 200)) == (300, 200)
    # left on a screen that is gone (or half off this one): centred again
    assert Win.window_position((1280, 720), usable, (2500, 200)) == Win.window_position((1280, 720), usable, None)
    assert Win.window_position((1280, 720), usable, (-160, -140)) == Win.window_position((1280, 720), usable, None)


def test_the_app_opens_its_first_window_inside_the_desktop(monkeypatch, tmp_path):
    """The App asks the desktop's size; with a remembered 1600x1000 on a 1280x720 desktop the
    window opens smaller and the size and place are kept on closing."""
    from gonzaga.table import persistence
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path))
    monkeypatch.setattr(A, "desktop_usable", lambda pg: (1280 - Win.DESKTOP_MARGIN[0], 720 - Win.DESKTOP_MARGIN[1]))
    app = A.App(persistence.Settings(window=(1600, 1000)), autosave=False)
    try:
        w, h = app.size
        assert w <= 1280 and h <= 720 - 60, app.size
        assert app.min_size[1] <= h
    finally:
        app.close()
    assert tuple(persistence.load_settings().window) == (w, h)
