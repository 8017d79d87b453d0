"""Every scene by name: the one table of the scenes' factories, filling the registry the app's
scene stack uses (``SceneStack(app, scene_registry())``). Scenes never import one another to
open one; they ask the stack by the names below.

A factory is written ``"module:attribute"`` (``"gonzaga.scenes.replay_view:ReplayScene.for_session"``)
and its module is imported the first time a scene of that name is made: the title screen shows
before the other screens (the game screen, the bots behind it) are loaded, which keeps the first
frame fast (issue: first frame ~440 ms when this module imported all 25 scenes).

Names, what they show, and their factories' arguments (after the app):

* ``title``: the title screen (no arguments)
* ``new_game``: the new game form (no arguments)
* ``load``: the list of saves (no arguments)
* ``in_progress``: the games in progress, from "Continue" (the list of their SaveInfo)
* ``settings``: the settings (no arguments)
* ``settings_sound``: the sound settings (no arguments)
* ``settings_keys``: the screen reader and the player's own keys (no arguments)
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
* ``review``: the post-game review of a session's finished game (session, [seat])
* ``review_file``: the post-game review of a kept finished game (path, [seat])
* ``tutorial_menu``: the tutorial's sections (no arguments)
* ``tutorial_game``: the tutorial at a section (section_id)
* ``online_host``: host an online game ([server: create it on that server instead, player])
* ``online_join``: join an online game ([address, code, player])
* ``online_continue``: one's online games (games, [start])
* ``online_lobby``: an online game's lobby (table, [lan, port])
* ``online_servers``: the saved game servers (no arguments)
* ``online_server_games``: a server's open games (address, [player])
* ``signin``: one's account on a community server ([address])
* ``my_games``: the games of one's accounts on the servers signed in to ([poll])
* ``ratings``: a community server's leaderboard ([address])
* ``rating_profile``: a player's rating and its history on a server (address, name)
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable

from .registry import SceneRegistry

if TYPE_CHECKING:  # the type only: a scene's module loads when the scene is first made
    from .base import Scene

Factory = Callable[..., "Scene"]  # a scene class, or a function making a scene

SCENES: dict[str, str] = {
    "title": "gonzaga.scenes.title:TitleScene",
    "new_game": "gonzaga.scenes.new_game:NewGameScene",
    "load": "gonzaga.scenes.load_game:LoadScene",
    "in_progress": "gonzaga.scenes.continue_games:InProgressScene",
    "settings": "gonzaga.scenes.settings:SettingsScene",
    "settings_sound": "gonzaga.scenes.settings_sound:SoundSettingsScene",
    "settings_keys": "gonzaga.scenes.settings_keys:KeysSettingsScene",  # issue 49
    "stats": "gonzaga.scenes.stats_view:StatsScene",
    "rules": "gonzaga.scenes.rules_view:RulesScene",
    "rules_reference": "gonzaga.scenes.rules_reference:RulesReferenceScene",
    "message": "gonzaga.scenes.dialogs:MessageScene",
    "prompt": "gonzaga.scenes.dialogs:PromptScene",
    "error": "gonzaga.scenes.dialogs:ErrorScene",
    "game": "gonzaga.scenes.game:GameScene",
    "curtain": "gonzaga.scenes.overlays:CurtainScene",
    "reveal": "gonzaga.scenes.overlays:RevealScene",
    "menu": "gonzaga.scenes.overlays:MenuScene",
    "online_menu": "gonzaga.scenes.remote:RemoteMenuScene",
    "objective": "gonzaga.scenes.overlays:ObjectiveScene",
    "replay": "gonzaga.scenes.replay_view:ReplayScene.for_session",
    "replay_file": "gonzaga.scenes.replay_view:replay_scene_for_file",
    "review": "gonzaga.scenes.review:ReviewScene.for_face",
    "review_file": "gonzaga.scenes.review:review_scene_for_file",
    "tutorial_menu": "gonzaga.scenes.tutorial:TutorialMenuScene",
    "tutorial_game": "gonzaga.scenes.tutorial:TutorialGameScene",
    "online_host": "gonzaga.scenes.online:HostScene",
    "online_join": "gonzaga.scenes.online:JoinScene",
    "online_continue": "gonzaga.scenes.online:ContinueScene",
    "online_lobby": "gonzaga.scenes.lobby:LobbyScene",
    "online_servers": "gonzaga.scenes.servers:ServersScene",
    "online_server_games": "gonzaga.scenes.servers:ServerGamesScene",
    "signin": "gonzaga.scenes.signin:SignInScene",  # accounts (issue 47)
    "my_games": "gonzaga.scenes.mygames:MyGamesScene",  # turn-based games (issue 47, t47turn)
    "ratings": "gonzaga.scenes.ratings:LeaderboardScene",  # t47lobby (issue 47)
    "rating_profile": "gonzaga.scenes.ratings:ProfileScene",
}


def resolve(target: str) -> Factory:
    """The callable a ``"module:attribute"`` string names (importing its module)."""
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    factory: Factory = obj  # a scene class (or a function making one), by the table above
    return factory


class LazyFactory:
    """A factory named by a ``"module:attribute"`` string, imported when first called (so that a
    scene's module loads when the scene is first made, not at start-up)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._factory: Factory | None = None

    def __call__(self, app: Any, *args: Any, **kwargs: Any) -> Scene:
        if self._factory is None:
            self._factory = resolve(self.target)
        return self._factory(app, *args, **kwargs)

    def __repr__(self) -> str:
        return f"LazyFactory({self.target!r})"


def scene_registry() -> SceneRegistry[Scene]:
    """A registry holding every scene above (each module imported when its scene is first made)."""
    reg: SceneRegistry[Scene] = SceneRegistry()
    for name, target in SCENES.items():
        reg.register(name, LazyFactory(target))
    return reg
