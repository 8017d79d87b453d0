"""The desktop game: window, main loop, scene stack, command-line options.

``App.step()`` runs one frame (events -> top scene, update, draw, flip); tests post
pygame events and call ``step``/``run_frames`` to drive the real loop headless.
"""
from __future__ import annotations

import argparse
import io
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import pygame

from . import START
from .ai import bot_names
from .ai.roster import demo_levels
from .cli_common import TOOL_COMMANDS, UsageError
from .render.game_sizes import map_aspect, map_first_scale
from .rules import ContentError, load_content
from .scenes.base import SceneStack, help_corner
from .scenes.catalog import scene_registry
from .table import finished as finished_games, in_progress, persistence
from .table.seats import SeatSpec
from .ui import keys, widgets as W
from .ui.audio import Audio
from .ui.notify import Notifier, Off, SystemNotifier
from .ui.speech import Speech
from .ui.speech.narrator import Narrator
from .version import NOTICE, __version__
from .ui.window import NoDisplay, check_display, desktop_usable, fit_window, set_window_icon, show_fatal, window_position
from .words import catalog, i18n

if TYPE_CHECKING:  # imported when first needed (websockets and the protocol: not before the first frames)
    from .table.session import Session
    from .net.mygames_poll import TurnWatch

WATCH_AFTER_FRAMES = 120  # My games' watch starts after the first two seconds (its imports cost a frame)
log = logging.getLogger(__name__)

MIN_SIZE = (1024, 680)
class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, exit 2 (not argparse's usage block)
        raise UsageError(message)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = _Parser(prog="gonzaga", add_help=True, description="Gonzaga, digital edition",
                epilog=f"tools: gonzaga {' | '.join(TOOL_COMMANDS)} (each has --help)")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    p.add_argument("--demo", action="store_true", help="AI seats play a whole game on screen")
    p.add_argument("--seats", type=int, default=4, help="seats in the demo (2-4)")
    p.add_argument("--seed", type=int, default=None, help="seed of the demo game")
    p.add_argument("--bots", default=None, metavar="B1,B2,...",
                   help="the demo's AI levels, one per seat (default: medium and easy)")
    p.add_argument("--speed", choices=("slow", "normal", "fast", "instant"), default=None,
                   help="AI speed (default: the setting; instant with --exit-after-game)")
    p.add_argument("--exit-after-game", action="store_true", help="print the final scores and exit")
    p.add_argument("--exit-after-first-frame", action="store_true", help="draw the title, print first_frame_ms, exit")
    p.add_argument("--screenshot", metavar="OUT.png", default=None, help="save the last frame before exiting")
    p.add_argument("--size", metavar="WxH", default=None, help="window size, e.g. 1600x1000")
    p.add_argument("--load", metavar="SAVE.json", default=None, help="open a saved game")
    p.add_argument("--watch", metavar="FILE", default=None, help="watch a saved game move by move (replay viewer)")
    p.add_argument("--lang", choices=catalog.codes(), default=None, help="interface language")
    a = p.parse_args(argv)
    if a.watch and (a.load or a.demo):
        raise UsageError("--watch opens the replay viewer: it cannot be combined with --load or --demo")
    if not 2 <= a.seats <= 4:
        raise UsageError(f"--seats must be 2, 3 or 4 (got {a.seats})")
    if a.bots is not None:
        a.bots = [b.strip() for b in a.bots.split(",") if b.strip()]
        unknown = [b for b in a.bots if b not in bot_names()]
        if unknown:
            raise UsageError(f"--bots: unknown bot {unknown[0]!r} (known: {', '.join(bot_names())})")
        if len(a.bots) != a.seats:
            raise UsageError(f"--bots names {len(a.bots)} bot(s) for {a.seats} seats")
    if a.size:
        try:
            w, h = (int(x) for x in a.size.lower().split("x"))
            if w < 320 or h < 240:
                raise ValueError
            a.size = (w, h)
        except ValueError:
            raise UsageError(f"--size must look like 1600x1000 (got {a.size!r})") from None
    return a


def _start_time() -> float:
    return START  # the package's first import (gonzaga/__init__.py)


class App:
    """The window and its loop. Holds the settings, the worker and the current session."""

    def __init__(self, settings: Optional[persistence.Settings] = None, *, size=None, demo: bool = False,
                 demo_seats: int = 4, demo_bots: Optional[list[str]] = None, seed: Optional[int] = None,
                 speed: Optional[str] = None,
                 exit_after_game: bool = False, exit_after_first_frame: bool = False,
                 screenshot: Optional[str] = None, load: Optional[str] = None, autosave: bool = True,
                 watch: Optional[str] = None):
        self.pg = pygame
        self.settings = settings or persistence.Settings()
        i18n.set_language(self.settings.language)
        self.speed = speed or self.settings.speed
        self.exit_after_game = exit_after_game
        self.exit_after_first_frame = exit_after_first_frame
        self.screenshot_out = screenshot
        self.autosave_enabled = autosave and not demo
        self.demo = demo
        check_display(pygame)  # the mixer starts later, on the second frame (audio.py)
        pygame.font.init()
        self.version = persistence.app_version()
        pygame.display.set_caption(f"Gonzaga {self.version}")
        set_window_icon(pygame)  # before the window opens: the game's own icon, not pygame's snake
        usable = desktop_usable(pygame)
        # the first window fits the desktop (a remembered size from a larger screen shrinks too);
        # a size asked for on the command line is opened as asked
        self.windowed_size = tuple(size) if size else fit_window(self.settings.window, usable)
        self.min_size = MIN_SIZE if usable is None else \
            (min(MIN_SIZE[0], usable[0]), min(MIN_SIZE[1], usable[1]))
        if usable is not None and not size:
            x, y = window_position(self.windowed_size, usable, self.settings.window_pos)
            os.environ["SDL_VIDEO_WINDOW_POS"] = f"{x},{y}"  # read by SDL when the window is made
        self.fullscreen = False
        self._content = None  # loaded when first asked for: the interface size above 100% asks (the map's shape)
        try:
            self._set_mode(self.settings.fullscreen and not (exit_after_game or exit_after_first_frame))
        except pygame.error as e:
            raise NoDisplay(f"the window could not be opened ({e})") from None
        self.clock = pygame.time.Clock()
        self.audio = Audio(self.settings)  # starts on the second frame; silent if it cannot
        keys.use(self.settings.access.keys)  # the player's own keys (issue 49)
        W.set_palette("high" if self.settings.access.high_contrast else "normal")
        self.speech = Speech(self.settings.access.screen_reader)  # the screen reader (issue 49): its own thread
        self.speech.start()
        self.narrator = Narrator(self.speech)
        self.running = True
        self.exit_code = 0
        self.frames = 0
        self.first_frame_ms: Optional[float] = None
        self.toasts: list[tuple[str, float]] = []
        # Saving that does not work: (i18n key of the banner, i18n key of the reason, folder). The
        # banner stays on screen until a save works again; then one toast says so.
        self.save_problem: Optional[tuple[str, str, str]] = None
        self.reported_bad: set[tuple[str, Optional[int], Optional[int]]] = set()  # bad saves already reported (one that cannot be moved aside)
        self.load_failed: Optional[str] = None  # the message when --load could not open its file
        self._worker = None
        self.session: Optional[Session] = None  # the game on screen (a RemoteSession online)
        self.autosave_file: Optional[Path] = None  # the game on screen's own autosave (issue 45)
        self.table = None  # an online game's table (net/remote.py): its connection and a hosted server
        # My games on the servers signed in to, asked every minute once the first frames are out
        # (net/mygames_poll.py): the title's count, and a notification when it becomes your turn elsewhere
        self.turn_watch: Optional[TurnWatch] = None
        self.notifier: Notifier = Off() if os.environ.get("GONZAGA_NOTIFY") == "off" else SystemNotifier()
        self.final_table: Optional[str] = None
        self.stack = SceneStack(self, scene_registry())
        self._check_saving()
        self.stack.push("title")
        if watch:  # the replay viewer over the title screen
            if self.stack.push("replay_file", Path(watch)).name != "replay" and (exit_after_game or exit_after_first_frame):
                self.exit_code = 2
        if demo:
            self.start_demo(demo_seats, seed, demo_bots)
        elif load and not self.open_save(Path(load)):
            _print_line(f"gonzaga: {self.load_failed}", sys.stderr)
            if exit_after_game or exit_after_first_frame:
                self.exit_code = 2
            if exit_after_game:  # no game will ever end: stop after showing the message
                self.running = False

    def _check_saving(self) -> None:
        """At start-up: remove leftovers of interrupted writes; find out whether saving can work."""
        for d in (persistence.saves_dir(), persistence.config_dir()):
            persistence.clean_stale_temps(d)
        if not self.autosave_enabled:
            return
        problem = persistence.check_writable()
        if problem is not None:
            log.warning("saves folder %s cannot be written: %s", problem.path, problem.cause)
            self.save_problem = ("save.off", problem.reason_key, str(problem.path))

    # ------------------------------------------------------------ window

    def _set_mode(self, fullscreen: bool) -> None:
        pg = self.pg
        if fullscreen:
            self.screen = pg.display.set_mode((0, 0), pg.FULLSCREEN)
        else:
            self.screen = pg.display.set_mode(self.windowed_size, pg.RESIZABLE)
        self.fullscreen = fullscreen
        self.apply_ui_scale()

    def apply_ui_scale(self) -> None:
        """The interface scale for this window and the UI scale setting (ui/widgets.py), as far
        as the map allows: it keeps most of its size (render/game_sizes.py, issue 40)."""
        W.set_ui_scale(self.ui_scale_for(self.settings.ui_scale))

    def ui_scale_for(self, setting: float) -> float:
        if setting <= 100:  # (no larger than the window's own growth: the map is never smaller)
            return W.scale_for(self.size, setting)
        if getattr(self, "_map_aspect", None) is None:
            self._map_aspect = map_aspect(self.content)
        natural = W.scale_for(self.size, 100)
        return map_first_scale(self.size, W.scale_for(self.size, setting), natural, self._map_aspect)

    def largest_ui_setting(self, options) -> int:
        """The largest interface size of ``options`` (percent) this window shows larger than the
        one before it (beyond it the window or the map leaves no room to grow)."""
        best = options[0]
        prev = 0.0
        for pct in options:
            s = self.ui_scale_for(pct)
            if s <= prev + 1e-6 and pct > 100:
                break
            best, prev = pct, s
        return best

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def toggle_fullscreen(self) -> None:
        self._set_mode(not self.fullscreen)
        self.settings.fullscreen = self.fullscreen
        persistence.save_settings(self.settings)
        self._relayout()

    def _relayout(self) -> None:
        self.apply_ui_scale()
        for s in self.stack.scenes:
            s.layout(self.size)

    def toast(self, text: str, secs: float = 3.0) -> None:
        self.toasts.append((text, time.monotonic() + secs))

    def save_screenshot(self, path: Optional[Path] = None) -> Path:
        """The screen as a PNG, written atomically; SaveWriteError (text for the player) if it fails."""
        if path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = persistence.screenshots_dir() / f"gonzaga-{stamp}.png"
        path = Path(path)
        buf = io.BytesIO()
        try:
            self.pg.image.save(self.screen, buf, "png")
        except Exception as e:  # pygame.error: the encoder failed
            log.warning("screenshot not encoded: %s", e)
            raise persistence.SaveWriteError(path, e, "save.reason_other") from e
        data = buf.getvalue()
        if not data:
            raise persistence.SaveWriteError(path, None, "save.reason_other")
        try:
            persistence.atomic_write_bytes(path, data)  # a short or empty file is an error
        except OSError as e:
            raise persistence.SaveWriteError(path, e) from e
        return path

    def screenshot_key(self) -> None:
        """F12: save a screenshot and say where, or say why not."""
        try:
            p = self.save_screenshot()
        except persistence.SaveWriteError as e:
            log.warning("screenshot failed: %s", e.cause)
            self.toast(i18n.t("save.screenshot_failed", reason=e.reason), 6)
            return
        self.toast(i18n.t("app.screenshot", path=str(p)))

    # ------------------------------------------------------------ saving

    def banner_text(self) -> Optional[str]:
        """The lasting message about saving (None while saving works)."""
        if self.save_problem is None:
            return None
        key, reason, folder = self.save_problem
        return i18n.t(key, reason=i18n.t(reason), folder=folder)

    def autosave_now(self, session, path: Optional[Path] = None) -> bool:
        """Autosave ``session`` to its game's own file (``path``, by default the game on screen's). A failure never stops the game: it puts up the banner (once, it
        stays until a save works again); the first save that works again takes it down and says so."""
        path = path or self.autosave_file
        if not self.autosave_enabled or getattr(session, "remote", False) or path is None:  # the server keeps an online game
            return True
        try:
            persistence.autosave(session, path)
        except Exception as e:
            key = persistence.write_reason_key(e)
            if self.save_problem is not None and self.save_problem[1] == key:
                return False  # the player already knows (the banner is up): no repeat, no log flood
            if isinstance(e, OSError):
                log.warning("autosave failed: %s", getattr(e, "cause", None) or e)
            else:
                log.exception("autosave failed")
            self.save_problem = ("save.failing", key, str(persistence.saves_dir()))
            return False
        if self.save_problem is not None:
            log.info("autosave works again")
            self.save_problem = None
            self.toast(i18n.t("save.working_again"), 5)
        return True

    def report_bad_save(self, e: "persistence.SaveError") -> bool:
        """Show a bad save's message once; False when it was already shown (it could not be moved)."""
        ident: Optional[tuple[str, Optional[int], Optional[int]]] = None
        if e.path is not None and e.moved_to is None:
            try:
                st = e.path.lstat()
                ident = (str(e.path), st.st_size, st.st_mtime_ns)
            except OSError:
                ident = (str(e.path), None, None)
            if ident in self.reported_bad:
                return False
            self.reported_bad.add(ident)
        self.stack.push("message", i18n.t("load.heading"), e.report())
        return True

    # ------------------------------------------------------------ shared services

    @property
    def content(self):
        if self._content is None:
            self._content = load_content()
        return self._content

    @property
    def worker(self):
        if self._worker is None:
            from .table import pacing  # when a game first opens, not before the first frame
            self._worker = pacing.make_worker()
        return self._worker

    def ai_delay(self) -> float:
        from .table import pacing  # when a game first opens, not before the first frame
        return pacing.SPEEDS.get(self.speed, pacing.SPEEDS["normal"])

    def set_speed(self, speed: persistence.Speed) -> None:
        self.speed = speed
        self.settings.speed = speed
        persistence.save_settings(self.settings)
        if self.session is not None:
            self.session.ai_delay = self.ai_delay()

    def _autosaver(self, path: Path):
        """A game's ``on_change``: each change goes to that game's own autosave file (issue 45)."""
        return lambda change: self.autosave_now(change, path)

    def start_session(self, seats, seed: int, scenario: Optional[str] = None) -> None:
        from .table.session import Session  # when a game first opens, not before the first frame
        self.end_session()
        path = persistence.new_autosave_path()  # a new game never writes over another one's file
        self.session = session = Session.new(seats, seed, scenario, content=self.content, worker=self.worker,
                                             on_change=self._autosaver(path), ai_delay=self.ai_delay())
        self.autosave_file = path
        self.autosave_now(session)
        self._show_game(session, resumed=False)

    def start_demo(self, seats: int, seed: Optional[int], bots: Optional[list[str]] = None) -> None:
        from .table.session import new_seed  # when a game first opens, not before the first frame
        levels = bots or demo_levels() or ["greedy"]
        colours = ("red", "yellow", "green", "blue")
        specs = [SeatSpec(f"{i18n.colour_name(c)} AI", "ai", levels[i % len(levels)], c)
                 for i, c in enumerate(colours[:seats])]
        self.start_session(specs, seed if seed is not None else new_seed())

    def open_save(self, path: Path) -> bool:
        """Load a save and resume behind the privacy curtain; False (and a message) if it is bad."""
        from .table.session import Session  # when a game first opens, not before the first frame
        try:
            ls = persistence.load_save(path, self.content)
        except persistence.SaveError as e:
            self.load_failed = e.report()
            self.report_bad_save(e)
            return False
        self.end_session()
        name = ls.model.name
        own = persistence.is_autosave_file(path)
        if own and persistence.is_autosave_name(name):
            # older autosaves carried the label "Autosave" as the game's name: it is not one
            name = ""
        # a game in progress goes on in its own autosave; a named save becomes a game of its own
        auto = Path(path) if own else persistence.new_autosave_path()
        self.session = session = Session(ls.seats, ls.record, content=ls.content, worker=self.worker,
                                         on_change=self._autosaver(auto), ai_delay=self.ai_delay(), name=name)
        self.autosave_file = auto
        if ls.model.assists is not None:  # take-backs and hints used so far (issue 11)
            session.assists.update(ls.model.assists.model_dump())
        self._show_game(session, resumed=True)
        return True

    def start_remote(self, session: Session) -> None:
        """An online game begins: the game screen over a RemoteSession (its table stays open)."""
        old = self.session
        if old is not None and old is not session and getattr(old, "table", None) is not getattr(session, "table", 0):
            old.close()  # a rematch's session shares the old one's table (its connection): that stays open
        self.session = session
        self._show_game(session, resumed=False)

    def _show_game(self, session: Session, resumed: bool) -> None:
        """The game screen gets the game's face, never the session (table/seatview.py)."""
        from .table.seatview import face_of  # when a game first opens, not before the first frame
        self.stack.replace("title")
        self.stack.push("game", face_of(session), resumed=resumed)

    def save_named(self, name: str) -> None:
        """Save the game in progress under ``name`` (the game menu's Save); raises OSError."""
        if self.session is None:  # the menu offers Save only over a game
            raise OSError("no game to save")
        persistence.save_game(self.session, persistence.named_save_path(name), name)

    def count_finished(self, face) -> Optional[str]:
        """Count the game of ``face`` that just ended in the statistics (only the app's own game);
        a message for the player when the statistics file had to be started again, else None."""
        if self.session is None or not face.same_game(self.session):
            return None
        from .table import stats  # when a game first opens, not before the first frame
        return stats.record_game(self.session)

    def end_session(self) -> None:
        if self.session is not None:
            self.session.close()
        self.session = None
        self.autosave_file = None
        if self.table is not None:  # leaving an online game: its connection closes, a hosted server stops
            self.table.close()
            self.table = None

    def to_title(self) -> None:
        self.end_session()
        self.stack.replace("title")

    def quit(self) -> None:
        self.running = False

    def game_over(self, face) -> None:
        """Called once by the game screen (with its face) when a game ends."""
        self.final_table = score_table_text(face.public(), face.score_rows(), face.shown_seed(), face.seat_name)
        session = self.session
        if session is not None and face.same_game(session) and self.autosave_enabled \
                and not getattr(session, "remote", False):
            try:  # kept to be watched again (the load screen), until the player deletes it
                finished_games.keep_finished(session)
                in_progress.retire(self.autosave_file)  # and no longer a game in progress
            except OSError as e:
                self.toast(i18n.t("finished.not_kept", reason=str(e)), 6)
        if self.exit_after_game:
            self.running = False
            _print_line(self.final_table)

    # ------------------------------------------------------------ the loop

    def step(self, dt: Optional[float] = None) -> bool:
        """One frame. Returns False once the program should stop."""
        if dt is None:
            dt = self.clock.tick(60) / 1000.0
        try:
            self._frame(dt)
        except Exception as e:  # never a bare traceback: log it and show a dialog
            self._crash(e)
        self.frames += 1
        if self.frames == 1 and self.first_frame_ms is None:
            self.first_frame_ms = (time.perf_counter() - _start_time()) * 1000.0
            if self.exit_after_first_frame:
                self.running = False
                _print_line(f"first_frame_ms={self.first_frame_ms:.0f}")
        return self.running

    def _frame(self, dt: float) -> None:
        pg = self.pg
        for ev in pg.event.get():
            self.dispatch(ev)
        for scene in list(self.stack.scenes):
            scene.update(dt)
        self.audio.update()
        self._watch_turns()
        self.narrator.update(self)  # after the updates: it speaks what this frame shows
        self.draw()
        pg.display.flip()

    def _watch_turns(self) -> None:
        if self.turn_watch is None:
            if self.frames < WATCH_AFTER_FRAMES:
                return
            from .net.mygames_poll import TurnWatch  # websockets and the protocol: not before the first frames
            self.turn_watch = TurnWatch(self._your_turn_elsewhere)
        self.turn_watch.playing = getattr(self.table, "game", None)  # never told of the game on the screen
        self.turn_watch.tick()

    def _your_turn_elsewhere(self, url: str, row) -> None:
        if self.settings.turn_notify:
            self.notifier.show(i18n.t("notify.title"), i18n.t("notify.your_turn", server=url.partition("#")[0],
                                                              round=row.round))

    def dispatch(self, ev) -> None:
        pg = self.pg
        if ev.type == pg.QUIT:
            self.running = False
            return
        if ev.type in (pg.VIDEORESIZE, pg.WINDOWSIZECHANGED):
            self.screen = pg.display.get_surface()
            w, h = self.size
            lo = self.min_size
            if not self.fullscreen and (w < lo[0] or h < lo[1]):
                # below this the panels would overlap the map: grow the window back
                self.windowed_size = (max(w, lo[0]), max(h, lo[1]))
                self._set_mode(False)
            if not self.fullscreen:
                self.windowed_size = self.size
                self.settings.window = self.size
            self._relayout()
            return
        if self.stack.top is not None and getattr(self.stack.top, "captures_keys", False):
            self.stack.top.handle(ev)  # a new key being chosen (settings_keys)
            return
        if keys.pressed(ev, "fullscreen"):
            self.toggle_fullscreen()
            return
        if keys.pressed(ev, "screenshot"):
            self.screenshot_key()
            return
        if self.narrator.handle(ev, self):  # the best places read out (issue 49)
            return
        if help_corner(self).handle(ev):  # the "?" of every screen, F1 (issue 11)
            return
        top = self.stack.top
        if top is not None:
            top.handle(ev)

    def draw(self) -> None:
        surf = self.screen
        for scene in self.stack.visible():
            W.CHECK.scene = scene.name  # (layout tests: whose labels these are)
            scene.draw(surf)
        help_corner(self).draw(surf)
        W.CHECK.scene = "app"
        banner = self.banner_text()
        if banner:  # saving does not work: said once, and it stays until it works again
            sw = surf.get_width()
            game = self.game_screen()
            if game is not None and sw >= 1000:  # over the map, clear of the side panel
                pw = game.panel_rect.w
                w, centre, top = min(W.sc(720), sw - pw - 60), (sw - pw) // 2, game.board_rect.y + W.sc(8)
            else:
                w, centre, top = min(W.sc(780), sw - 80), sw // 2, W.sc(10)
            img = W.text(banner, "sans", 16, W.TEXT_LIGHT, wrap=w)
            r = img.get_rect(midtop=(centre, top))
            W.panel(surf, r.inflate(24, 14), (120, 30, 24), (240, 200, 120), 8, 2, alpha=240)
            surf.blit(img, r)
        now = time.monotonic()
        self.toasts = [(t, until) for t, until in self.toasts if until > now]
        y = surf.get_height() - 16
        for t, _ in reversed(self.toasts):
            img = W.text(t, "sans", 17, W.TEXT_LIGHT)
            r = img.get_rect(midbottom=(surf.get_width() // 2, y))
            W.panel(surf, r.inflate(24, 12), (30, 24, 18), (200, 170, 110), 8, 1, alpha=230)
            surf.blit(img, r)
            y = r.top - 18

    def game_screen(self):
        """The highest game screen on the stack (a game, the tutorial, a replay), or None. Found by
        the screens' ``game_screen`` mark, not their class: the app does not import the game screen
        (it loads when first shown, scenes/catalog.py)."""
        for s in reversed(self.stack.scenes):
            if getattr(s, "game_screen", False):
                return s
        return None

    def _crash(self, e: Exception) -> None:
        log.exception("unexpected error")
        if self.stack.top is not None and self.stack.top.name == "error":
            raise e  # the dialog itself fails: let main() report it
        self.stack.push("error", persistence.log_path())

    def run(self) -> int:
        while self.running:
            self.step()
        if self.screenshot_out:
            try:
                self.save_screenshot(Path(self.screenshot_out))
            except persistence.SaveWriteError as e:
                _print_line(f"gonzaga: {i18n.t('save.screenshot_failed', reason=e.reason)}", sys.stderr)
                self.exit_code = self.exit_code or 1
        self.close()
        self.pg.quit()  # only when the program ends: the fonts cached by the theme die with it
        return self.exit_code

    def run_frames(self, n: int, dt: float = 1 / 60) -> None:
        """Run ``n`` frames with a fixed ``dt`` (tests)."""
        for _ in range(n):
            if not self.running:
                break
            self.step(dt)

    def close(self) -> None:
        if self.session is not None and self.autosave_enabled and not self.session.is_over:
            self.autosave_now(self.session)
        self.end_session()
        self.audio.close()
        self.speech.close()
        if getattr(self, "_hint_service", None) is not None:  # hints were asked (table/hints.py keeps its worker here)
            from .table.hints import close_service  # when a game first opens, not before the first frame
            close_service(self)
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        if not self.fullscreen:
            self.settings.window = self.windowed_size
            self.settings.window_pos = self._window_position()
        persistence.save_settings(self.settings)
        self.running = False

    def _window_position(self):
        """Where the window is on the desktop now (kept for the next start), None if unknown."""
        if desktop_usable(self.pg) is None:
            return self.settings.window_pos
        try:
            x, y = self.pg.display.get_window_position()
        except Exception:  # pygame.error: no window
            return self.settings.window_pos
        return int(x), int(y)


def _print_line(text: str, stream=None) -> None:
    """Print one line; a closed pipe (``| head``) or a missing terminal is not an error."""
    stream = stream or sys.stdout
    try:
        print(text, file=stream, flush=True)
    except (BrokenPipeError, OSError, ValueError):
        if stream is sys.stdout:
            try:  # later flushes (at exit) must not fail again
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):
                pass


def score_table_text(st, rows, seed: Optional[int], seat_name) -> str:
    """The final score table (``--exit-after-game`` prints it): the finished state, the score
    rows, the seed (None: not shown, an online game) and the seats' names."""
    head = ["seat", "name", "sites", "leagues", "donations", "gonzaga", "objective", "total"]
    lines = [f"Gonzaga: scenario {st.scenario}, {st.round} rounds, seed {seed if seed is not None else '-'}",
             "  ".join(f"{h:>9}" if i > 1 else f"{h:<12}" for i, h in enumerate(head))]
    for r in rows:
        cells = [r["colour"], r["name"], r["sites"], r["leagues"], r["donations"], r["gonzaga"], r["objective"],
                 r["total"]]
        lines.append("  ".join(f"{c:>9}" if i > 1 else f"{str(c):<12}" for i, c in enumerate(cells)))
    names = ", ".join(seat_name(i) for i in st.winners)
    lines.append(("winners: " if len(st.winners) > 1 else "winner: ") + names
                 + (f" ({st.tiebreak})" if st.tiebreak else ""))
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse_args(argv)
    except UsageError as e:
        print(f"gonzaga: {e}", file=sys.stderr)
        return 2
    if args.version:
        print(f"gonzaga {__version__}")
        print(NOTICE)
        return 0
    log_file = persistence.setup_logging()
    settings = persistence.load_settings()
    if args.lang:
        settings.language = args.lang
    i18n.set_language(settings.language)  # the messages below speak the player's language
    try:
        load_content()  # the game's data, checked before any window opens
    except ContentError as e:
        log.error("game data: %s", e)
        print(f"gonzaga: {e}", file=sys.stderr)
        if not (args.exit_after_game or args.exit_after_first_frame):
            show_fatal(i18n.t("cli.cannot_start", reason=e))
        return 2
    speed = args.speed or ("instant" if args.exit_after_game else None)
    try:
        app = App(settings, size=args.size, demo=args.demo, demo_seats=args.seats, demo_bots=args.bots,
                  seed=args.seed, speed=speed,
                  exit_after_game=args.exit_after_game, exit_after_first_frame=args.exit_after_first_frame,
                  screenshot=args.screenshot, load=args.load, watch=args.watch)
        return app.run()
    except NoDisplay as e:  # never a game running where nobody can see it
        log.error("no display: %s", e)
        _print_line(f"gonzaga: {i18n.t('cli.no_display', reason=e)}", sys.stderr)
        try:
            pygame.quit()
        except Exception:
            pass
        return 2
    except Exception:
        log.exception("fatal error")
        said = i18n.t("cli.crashed", path=log_file) if persistence.log_available() else i18n.t("cli.crashed_no_log")
        _print_line(f"gonzaga: {said}", sys.stderr)
        return 1
