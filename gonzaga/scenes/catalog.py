"""Every scene by name: the one module that imports all the scenes and fills the registry the
app's scene stack uses (``SceneStack(app, scene_registry())``). Scenes never import one another
to open one; they ask the stack by the names below.

Names, what they show, and their factories' arguments (after the app):

* ``title``: the title screen (no arguments)
* ``new_game``: the new game form (no arguments)
* ``load``: the list of saves (no arguments)
* ``settings``: the settings (no arguments)
* ``settings_sound``: the sound settings (no arguments)
* ``stats``: the statistics (no arguments)
* ``rules``: the rules reference (from the menus) (no arguments)
* ``rules_reference``: the rules reference at a page (page (None: the first))
* ``message``: a message with an OK (heading, body, [on_close, ...])
* ``prompt``: a question with a text field (heading, body, value, on_ok)
* ``error``: the error screen (the log's path) (log_path)
* ``game``: the game screen (session, [resumed])
* ``curtain``: the privacy curtain (game, seat, purpose, on_pass)
* ``reveal``: the reveal of the plans (game)
* ``menu``: the game's menu (game)
* ``online_menu``: an online game's menu (game)
* ``objective``: a seat's objective (game, seat)
* ``replay``: the replay of a session's game (session)
* ``replay_file``: the replay of a save file (path (a message if it cannot be read))
* ``tutorial_menu``: the tutorial's sections (no arguments)
* ``tutorial_game``: the tutorial at a section (section_id)
* ``online_host``: host an online game (no arguments)
* ``online_join``: join an online game ([address, code, player])
* ``online_continue``: one's online games (games, [start])
* ``online_lobby``: an online game's lobby (table, [lan, port])
"""
from __future__ import annotations

from .dialogs import ErrorScene, MessageScene, PromptScene
from .game import GameScene
from .load_game import LoadScene
from .lobby import LobbyScene
from .new_game import NewGameScene
from .online import ContinueScene, HostScene, JoinScene
from .overlays import CurtainScene, MenuScene, ObjectiveScene, RevealScene
from .registry import SceneRegistry
from .remote import RemoteMenuScene
from .replay_view import ReplayScene, replay_scene_for_file
from .rules_reference import RulesReferenceScene
from .rules_view import RulesScene
from .settings import SettingsScene
from .settings_sound import SoundSettingsScene
from .stats_view import StatsScene
from .title import TitleScene
from .tutorial import TutorialGameScene, TutorialMenuScene

SCENES = {
    "title": TitleScene,
    "new_game": NewGameScene,
    "load": LoadScene,
    "settings": SettingsScene,
    "settings_sound": SoundSettingsScene,
    "stats": StatsScene,
    "rules": RulesScene,
    "rules_reference": RulesReferenceScene,
    "message": MessageScene,
    "prompt": PromptScene,
    "error": ErrorScene,
    "game": GameScene,
    "curtain": CurtainScene,
    "reveal": RevealScene,
    "menu": MenuScene,
    "online_menu": RemoteMenuScene,
    "objective": ObjectiveScene,
    "replay": ReplayScene.for_session,
    "replay_file": replay_scene_for_file,
    "tutorial_menu": TutorialMenuScene,
    "tutorial_game": TutorialGameScene,
    "online_host": HostScene,
    "online_join": JoinScene,
    "online_continue": ContinueScene,
    "online_lobby": LobbyScene,
}


def scene_registry() -> SceneRegistry:
    """A registry holding every scene above."""
    reg = SceneRegistry()
    for name, factory in SCENES.items():
        reg.register(name, factory)
    return reg
