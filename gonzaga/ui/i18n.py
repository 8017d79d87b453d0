"""Interface strings in English and Italian: ``t(key, **params)``.

Pure Python (no pygame): the session uses it for the game log. A missing Italian
string falls back to English; a test checks both tables have the same keys and
the same ``{placeholders}``. Italian wording follows the printed Italian rules
(feudo, regione, Porti, Città, Alleanza, Privilegio del Re, lega marittima...).
"""
from __future__ import annotations

import string

LANGUAGES = ("en", "it")
_language = "en"

EN: dict[str, str] = {
    # ---- title and menus
    "app.title": "Gonzaga",
    "app.subtitle": "the digital edition",
    "app.screenshot": "Screenshot saved: {path}",
    "title.new": "New game",
    "title.continue": "Continue",
    "title.load": "Load game",
    "title.rules": "Rules",
    "title.settings": "Settings",
    "title.quit": "Quit",
    "title.continue_hint": "Round {round} - {seats}",
    "common.back": "Back",
    "common.ok": "OK",
    "common.cancel": "Cancel",
    "common.done": "Done",
    "common.start": "Start",
    "common.yes": "Yes",
    "common.no": "No",
    # ---- new game
    "new.heading": "New game",
    "new.seats": "Seats",
    "new.seat": "Seat {n}",
    "new.human": "Human",
    "new.ai": "AI",
    "new.level": "Level",
    "new.name": "Name",
    "new.colour": "Colour",
    "new.scenario": "Scenario tile",
    "new.random": "Random",
    "new.seed": "Seed",
    "new.reroll": "New seed",
    "new.flourishing": "Flourishing: {regions}",
    "new.random_hint": "The tile is drawn at random among the tiles for this number of seats.",
    "new.hint": "Click a name to type. Colours must differ.",
    "new.colours_clash": "Two seats have the same colour.",
    "level.easy": "Easy",
    "level.medium": "Medium",
    "level.hard": "Hard",
    "level.greedy": "Greedy",
    "level.random": "Random",
    # ---- colours
    "colour.red": "Red",
    "colour.yellow": "Yellow",
    "colour.green": "Green",
    "colour.blue": "Blue",
    # ---- settings
    "settings.heading": "Settings",
    "settings.speed": "AI speed",
    "settings.speed.slow": "Slow",
    "settings.speed.normal": "Normal",
    "settings.speed.fast": "Fast",
    "settings.speed.instant": "Instant",
    "settings.fullscreen": "Full screen",
    "settings.language": "Language",
    "settings.curtain_solo": "Privacy curtain with one human",
    "settings.curtain_solo.hint": "With one human and AI seats, nobody else looks at the screen: the curtain is skipped unless this is on.",
    "settings.on": "On",
    "settings.off": "Off",
    "lang.en": "English",
    "lang.it": "Italiano",
    # ---- load
    "load.heading": "Load game",
    "load.empty": "No saved games yet.",
    "load.autosave": "Autosave",
    "load.entry": "{name} - round {round} - {seats} - {when}",
    "load.damaged": "{file}: {message} The file was kept as {moved}.",
    "load.save_as": "Save as",
    "load.save_named": "Save this game",
    "load.saved": "Saved as {name}.",
    # ---- rules viewer
    "rules.heading": "Rules",
    "rules.scroll": "Wheel or arrows to scroll",
    # ---- curtain
    "curtain.pass_to": "Pass to {name}",
    "curtain.plan": "{name} plans in secret. Everybody else, look away.",
    "curtain.objective": "{name} looks at the objective card. Everybody else, look away.",
    "curtain.resume": "The game was loaded. {name} is next.",
    "curtain.click": "Click here (or press Space) when only {name} is looking",
    # ---- game screen
    "game.round": "Round {round}",
    "game.last_round": "Last round!",
    "game.last_turn_not_fired": "Last Turn card: not yet",
    "game.last_turn_fired": "Last Turn card fired: round {round} is the last",
    "game.scenario": "Scenario {name}",
    "game.to_act": "To act: {name}",
    "game.planning_wait": "Waiting for plans: {names}",
    "game.thinking": "{name} is thinking...",
    "game.score": "{score} pts",
    "game.rings": "Rings {n}",
    "game.deck": "Deck {n}",
    "game.fief": "Fief {fief}",
    "game.card": "card {card}",
    "game.leagues": "Leagues: {seas}",
    "game.no_leagues": "No sea league",
    "game.last_played": "Last: {cards}",
    "game.planned": "planned",
    "game.not_planned": "planning...",
    "game.menu": "Menu",
    "game.save": "Save",
    "game.log": "Game log",
    "game.order": "Turn order",
    "game.objective_button": "My objective",
    "game.help_keys": "Wheel/R/E/right click: rotate - arrows: move - Enter: confirm - Esc: cancel - W: wedding - Shift+D: donate - O: objective",
    "game.flourishing": "Flourishing: {regions}",
    # ---- planning
    "plan.heading": "{name}: plan your move",
    "plan.fief": "Your fief this round: {fief} (card {card})",
    "plan.region": "Region card",
    "plan.action": "Action card",
    "plan.king": "King's Privilege",
    "plan.king_hint": "Goes first; costs a ring at the reveal",
    "plan.played_last": "played last round",
    "plan.no_ring": "needs a ring in supply",
    "plan.confirm": "Done planning",
    "plan.choose_both": "Choose one region card and one action card.",
    "plan.objective": "Your objective: {west} and {east}",
    "plan.objective_cities": "{held} of 6 cities held now",
    "card.inactive": "Inactive Regions",
    "card.A": "Harbors",
    "card.B": "Cities",
    "card.C": "Alliance",
    "card.K": "King's Privilege",
    "card.A.rule": "harbor(s), no city",
    "card.B.rule": "cities or empty, no harbor",
    "card.C.rule": "city + harbor, or wedding",
    "card.A.long": "at least one harbor and no city",
    "card.B.long": "cities and no harbor, or only empty hexes",
    "card.C.long": "at least one city and one harbor, or a wedding",
    # ---- reveal
    "reveal.heading": "Round {round}: the plans",
    "reveal.continue": "Continue",
    "reveal.row": "{pos}. {name}: {region}, {action}{king}",
    "reveal.why": "Why this place",
    "reveal.why_K": "King's Privilege first",
    "reveal.why_K_then": "then {action}",
    "reveal.why_A": "Harbors before Cities, Alliance",
    "reveal.why_B": "Cities after Harbors",
    "reveal.why_C": "Alliance last",
    "reveal.why_card": "tie: lower card first",
    # ---- placement
    "place.heading": "{name}: place fief {fief} in {region} ({action})",
    "place.drag": "Drag the fief onto the map",
    "place.confirm": "Confirm",
    "place.donate": "Donate (+3)",
    "place.wedding": "Wedding",
    "place.fief_mode": "Place fief",
    "place.wedding_help": "Click a hex of {region} for the first ring, then a neighbour for a second ring (optional).",
    "place.rings_left": "{n} rings in supply",
    "place.points": "+{points}",
    "place.league": "sea league {sea} +10",
    "place.no_spot": "No legal spot for this plan: hold a wedding or donate.",
    "place.no_spot_plain": "No legal spot for this plan: donate the fief.",
    "place.ai_places": "{name} places...",
    "place.rotate": "Rotate",
    # ---- end
    "end.heading": "The game is over",
    "end.seat": "Seat",
    "end.sites": "Sites",
    "end.leagues": "Sea leagues",
    "end.donations": "Donations",
    "end.gonzaga": "Gonzaga tile",
    "end.objective": "Objective",
    "end.total": "Total",
    "end.winner": "{names} wins!",
    "end.winners": "Shared victory: {names}",
    "end.tiebreak": "Tie-break: {how}",
    "end.tb_sites": "tie on points broken by most cities and harbors held",
    "end.tb_shared": "tie on points and on sites held: a shared victory",
    "end.play_again": "Play again",
    "end.title": "Title screen",
    "end.objective_of": "Objective cities of {name} ({west}, {east}): {held} held",
    "end.click_row": "Click a row to see that seat's objective on the map",
    "game.scenario_line": "{name} - flourishing: {regions}",
    "end.winner_mark": "winner",
    "game.acting": "to act",
    "game.none": "none",
    "game.flourishing_short": "flourishing",
    "plan.king_hint_short": "go first, costs a ring",
    "game.ai_level": "AI {level}",
    "game.human": "Human",
    "game.donates": "{name} donates to the church...",
    "game.weds": "{name} holds a wedding...",
    "game.waiting_ai": "The computer seats are planning...",
    "game.your_turn": "{name}: your turn to place",
    "menu.heading": "Menu",
    "menu.resume": "Resume",
    "menu.save": "Save game",
    "menu.rules": "Rules",
    "menu.settings": "Settings",
    "menu.quit": "Quit to title",
    "objective.heading": "{name}'s objective",
    "objective.body": "Hold cities of these two symbols: {west} and {east}. Held now: {held} of 6 (worth {points} points at the end).",
    "objective.hide": "Hide it",
    "legend.cities": "Cities",
    "legend.seas": "Seas and their harbors",
    "legend.barrier": "Barrier: no fief across",
    "symbol.university": "University",
    "symbol.cathedral": "Cathedral",
    "symbol.wine": "Wine",
    "symbol.wool": "Wool",
    "symbol.bank": "Bank",
    "symbol.art": "Art",
    "symbol.silk": "Silk",
    "symbol.glass": "Glass",
    # ---- dialogs
    "error.heading": "Something went wrong",
    "error.body": "An unexpected error happened. The game tried to carry on. Details are in the log: {path}",
    "error.save": "Could not save: {message}",
    # ---- save messages
    "save.bad_json": "This save could not be read: it is damaged or truncated (not valid JSON).",
    "save.not_save": "This file is not a Gonzaga save.",
    "save.newer": "This save was made by a newer version of Gonzaga (save format {found}; this program reads {known}).",
    "save.invalid": "This save was damaged or edited by hand: {detail}.",
    "save.replay": "The moves in this save do not replay: {detail}.",
    "save.digest": "This save's summary does not match its moves (edited by hand?).",
    "save.other_map": "This save was played on another version of the board and cannot be resumed with this version of Gonzaga.",
    "save.unreadable": "This save could not be opened: {detail}.",
    # ---- log lines
    "log.setup": "Scenario {scenario}: {regions} flourish. {name} holds the Last Turn card.",
    "log.fiefs": "Round {round}: fiefs turned up: {fiefs}.",
    "log.planned": "Round {round}: {name} has planned.",
    "log.reveal": "Round {round}: plans revealed: {plans}.",
    "log.king_ring": "Round {round}: {name} discards a ring for the King's Privilege.",
    "log.order": "Round {round}: turn order {order}.",
    "log.place": "Round {round}: {name} places fief {fief} in {region}, +{points}",
    "log.league": ", sea league {sea} +10",
    "log.wedding": "Round {round}: {name} holds a wedding: {n} ring(s) in {region}, +{points}",
    "log.donate": "Round {round}: {name} donates fief {fief} to the church, +3.",
    "log.last_turn": "The Last Turn card fires: round {round} will be the last.",
    "log.end": "Game over: {result}",
    "log.end_scores": "{name} {score}",
    "log.dot": ".",
}

IT: dict[str, str] = {}  # filled below (kept apart so the English reads first)


def set_language(lang: str) -> None:
    global _language
    _language = lang if lang in LANGUAGES else "en"


def language() -> str:
    return _language


def table(lang: str) -> dict[str, str]:
    return IT if lang == "it" else EN


def t(key: str, **params) -> str:
    """The string for ``key`` in the current language, with ``{params}`` filled in."""
    text = table(_language).get(key) or EN.get(key)
    if text is None:
        return key
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        return text


def tiebreak(text: str) -> str:
    """The engine's tie-break sentence (English) in the current language."""
    if "shared" in text:
        return t("end.tb_shared")
    if text:
        return t("end.tb_sites")
    return ""


# The rules engine explains a refusal in English (Illegal.message); the reasons a player
# meets while placing are translated here, the rest stay in English.
_RULE_IT = {
    "part of the fief would hang off the map": "una parte del feudo uscirebbe dalla mappa",
    "a fief is already there": "lì c'è già un feudo",
    "one of your own rings is there": "lì c'è un tuo anello",
    "a castle would stand on the sea": "un castello finirebbe in mare",
    "the fief would cross a barrier": "il feudo attraverserebbe una barriera",
    "Harbors: cover at least one harbor and no city": "Porti: copri almeno un porto e nessuna città",
    "Harbors: the fief may not cover a city": "Porti: il feudo non può coprire città",
    "Cities: the fief may not cover a harbor": "Città: il feudo non può coprire porti",
    "Alliance: cover at least one city and one harbor (or hold a wedding)":
        "Alleanza: copri almeno una città e un porto (o celebra un Matrimonio)",
    "a ring must go on a hex of the map": "l'anello va su un esagono della mappa",
    "a ring may not go on your own fief": "l'anello non può andare su un tuo feudo",
    "that hex already has a ring": "su quell'esagono c'è già un anello",
    "the second ring must be next to the first": "il secondo anello va accanto al primo",
    "a wedding places at most two rings": "un Matrimonio mette al massimo due anelli",
    "no more rings for this wedding": "non hai altri anelli per questo Matrimonio",
    "not enough rings in supply": "non hai abbastanza anelli",
}
_RULE_IT_PREFIX = {"no hex of the fief is in ": "nessun esagono del feudo è in ",
                   "the first ring must go in ": "il primo anello va in "}


def rule_text(why) -> str:
    """``P7: a fief is already there``, in the interface language when it is known."""
    msg = why.message
    if _language == "it":
        if msg in _RULE_IT:
            msg = _RULE_IT[msg]
        else:
            for en, it in _RULE_IT_PREFIX.items():
                if msg.startswith(en):
                    rest = msg[len(en):]
                    msg = it + (t("card.inactive") if rest == "the inactive regions" else rest)
                    break
    return f"{why.rule}: {msg}"


def placeholders(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def colour_name(colour: str) -> str:
    return t(f"colour.{colour}")


def card_name(state_or_content, card: str) -> str:
    """A planning card's name: a region id, ``inactive``, or A/B/C/K."""
    if card in ("A", "B", "C", "K"):
        return t(f"card.{card}")
    if card == "inactive":
        return t("card.inactive")
    content = getattr(state_or_content, "content", state_or_content)
    return content.region_names.get(card, card)


from .i18n_it import IT as _IT  # noqa: E402

IT.update(_IT)
