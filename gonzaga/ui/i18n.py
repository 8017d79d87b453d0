"""Interface strings in English and Italian: ``t(key, **params)``.

Pure Python (no pygame): the session uses it for the game log. A missing Italian
string falls back to English; a test checks both tables have the same keys and
the same ``{placeholders}``. Italian wording follows the printed Italian rules
(feudo, regione, Porti, Città, Alleanza, Privilegio del Re, Lega Navale, Matrimonio,
confine invalicabile, terraferma...).
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
    "level.expert": "Expert",
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
    "settings.ui_scale": "Interface size",
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
    "game.planning_wait_n": "Waiting for {plans}",
    "game.last_turn_check": "After round {round}: {sites}: the game goes on",
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
    "plan.king_hint": "Plays before every seat without it; costs a ring at the reveal",
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
    "reveal.why_K_then": "among them: {action}",
    "reveal.why_A": "Harbors before Cities, Alliance",
    "reveal.why_B": "Cities after Harbors",
    "reveal.why_C": "Alliance last",
    "reveal.why_card": "tie: lower fief card",
    # ---- placement
    "place.heading": "{name}: place fief {fief} in {region} ({action})",
    "place.drag": "Drag the fief onto the map",
    "place.confirm": "Confirm",
    "place.donate": "Donate (+3)",
    "place.wedding": "Wedding",
    "place.fief_mode": "Place fief",
    "place.wedding_help": "Click a hex of {region} for the first ring, then a neighbour for a second ring (optional). Your fief is discarded.",
    "place.rings_left.one": "{n} ring in supply",
    "place.rings_left.other": "{n} rings in supply",
    "place.points": "+{points}",
    "place.league": "sea league {sea} +10",
    "place.no_spot": "No legal spot for this plan: hold a wedding or donate.",
    "place.no_spot_plain": "No legal spot for this plan: donate the fief.",
    "place.ai_places": "{name} places...",
    "place.rotate": "Rotate",
    "place.donate_confirm": "Donate: confirm",
    "place.donate_ask": "Donate fief {fief} to the church for 3 points? The fief is not placed; it leaves the game.",
    "place.donate_keys": "Enter: donate · Esc: cancel",
    # ---- end
    "end.heading": "The game is over",
    "end.seat": "Seat",
    "end.sites": "Cities & harbors",
    "end.leagues": "Sea leagues",
    "end.donations": "Donations",
    "end.gonzaga": "Gonzaga tile",
    "end.objective": "Objective",
    "end.total": "Total",
    "end.winner": "{names} wins!",
    "end.winners": "Shared victory: {names}",
    "end.tiebreak": "Tie-break: {how}",
    "end.tb_sites": "tie on points broken by most cities and harbors held",
    "end.tb_shared": "tie on points and on cities and harbors held: a shared victory",
    "end.play_again": "Play again",
    "end.title": "Title screen",
    "end.objective_of": "Objective cities of {name} ({west}, {east}): {held} held",
    "end.click_row": "Click a row to see that seat's objective on the map",
    "game.scenario_line": "{name} - flourishing: {regions}",
    "end.winner_mark": "winner",
    "game.acting": "to act",
    "game.none": "none",
    "game.flourishing_short": "flourishing",
    "plan.king_hint_short": "plays earlier, costs a ring",
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
    "objective.body": "Hold cities of these two symbols: {west} and {east}. Held now: {held} of 6 (worth {points} at the end).",
    "objective.hide": "Hide it",
    "legend.cities": "Cities",
    "legend.seas": "Seas and their harbors",
    "legend.barrier": "Barrier: no fief may straddle it",
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
    "save.not_file": "This is not a regular file (a folder, a device, a pipe or a broken link), so it cannot be a save.",
    "save.changed": "This file changed while it was being read (is another program writing it?), so it cannot be used as a save.",
    "save.too_large": "This file is too large to be a Gonzaga save ({size} MB; a save is at most {limit} MB).",
    "save.bad_number": "This save holds a value that is not a usable number ({value}).",
    "save.too_deep": "This save is damaged: its data is nested far too deeply.",
    "save.missing": "This save cannot be found (it was moved or deleted).",
    "save.no_permission": "This save cannot be opened: permission denied.",
    "save.unexpected": "This save could not be read because of an unexpected problem (details are in the log).",
    "save.illegal_action": "action {n} ({action}) is illegal at that point of the game",
    "save.detail_field": "field '{where}' is not valid",
    "save.detail_record": "the record of the moves is not valid",
    "save.detail_seats": "the seats do not match the record",
    "save.detail_colours": "the seat colours do not match the record",
    "save.damaged_kept": "{file}: {message} The file could not be moved aside (the folder cannot be written), so it was left where it is.",
    "save.reason_full": "the disk is full",
    "save.reason_readonly": "the folder cannot be written (read-only or no permission)",
    "save.reason_other": "the disk reported an error",
    "save.reason_nofolder": "the folder cannot be created",
    "save.failing": "Autosave is not working: {reason}. You can play on; the game will be saved as soon as it works again.",
    "save.off": "Saving is off because {reason}: {folder}. You can play, but games will not be saved.",
    "save.working_again": "Autosave works again: the game is saved.",
    "save.screenshot_failed": "The screenshot could not be saved: {reason}.",
    "save.error_nolog": "An unexpected error happened. The game tried to carry on. (No log file could be written, so there are no details.)",
    # ---- log lines
    "log.setup": "Scenario {scenario}: {regions} flourish. {name} holds the Last Turn card.",
    "log.fiefs": "Round {round}: fiefs turned up: {fiefs}.",
    "log.planned": "Round {round}: {name} has planned.",
    "log.reveal": "Round {round}: plans revealed: {plans}.",
    "log.king_ring": "Round {round}: {name} discards a ring for the King's Privilege.",
    "log.order": "Round {round}: turn order {order}.",
    "log.place": "Round {round}: {name} places fief {fief} in {region}, +{points}",
    "log.league": ", sea league {sea} +10",
    "log.wedding": "Round {round}: {name} holds a wedding: {rings} in {region}, +{points}",
    "log.donate": "Round {round}: {name} donates fief {fief} to the church, +3.",
    "log.last_turn": "Round {after}: {sites}: the Last Turn card fires, round {round} will be the last.",
    "log.last_turn_check": "Round {round}: {sites}: the game goes on.",
    "log.plan": "{name} {region} + {action}",
    "log.plan_king": "{name} {region} + {action} + {king}",
    "log.end": "Game over: {result} ({scores})",
    "log.end_scores": "{name} {score}",
    "log.dot": ".",
    # ---- sound, motion, statistics, the replay viewer (issue 13)
    "settings.sound_motion": "Sound and motion…",
    "sound.heading": "Sound and motion",
    "sound.master": "Volume",
    "sound.effects": "Effects",
    "sound.music_volume": "Music volume",
    "sound.music": "Music",
    "sound.mute": "Mute all",
    "sound.silent": "No sound device could be used on this computer: the game runs silent.",
    "motion.reduce": "Reduce motion",
    "motion.hint": "Reduce motion turns every animation into an instant change; animations follow the AI speed. Every sound also has a sign on screen.",
    "fx.league": "{name}: sea league, {sea} +10",
    "fx.last_turn": "The Last Turn card fires: round {round} is the last",
    "fx.your_turn": "Your turn, {name}",
    "title.stats": "Statistics",
    "stats.heading": "Statistics",
    "stats.empty": "No finished game yet: play a game to the end and it is counted here.",
    "stats.damaged": "The statistics file could not be read: it was kept as {file} and a new one was started.",
    "stats.damaged_kept": "The statistics file {file} could not be read (nor moved aside): it is ignored.",
    "stats.played": "Games played",
    "stats.won": "Games won",
    "stats.won_value": "{n} ({pct} %)",
    "stats.best": "Best score",
    "stats.mean": "Mean score",
    "stats.objective": "Objective cities held (mean)",
    "stats.leagues": "Sea leagues won",
    "stats.donations": "Donations",
    "stats.marked": "Games with take-backs / hints",
    "stats.marked_value": "{takebacks} / {hints}",
    "stats.you_note": "With several human seats at one screen, the best-placed of them is counted.",
    "stats.by_seats": "By number of seats",
    "stats.seats_n": "{n} seats",
    "stats.by_level": "By the strongest AI opponent",
    "stats.no_ai": "no AI",
    "stats.by_mode": "Solo, hot-seat or online",
    "stats.mode.solo": "Solo",
    "stats.mode.hotseat": "Hot-seat",
    "stats.mode.online": "Online",
    "stats.scores": "Your score, game by game",
    "stats.legend_played": "played",
    "stats.legend_won": "won",
    "stats.score_line": "score",
    "stats.mean_line": "mean {mean}",
    "stats.reset": "Reset…",
    "stats.reset_heading": "Reset the statistics?",
    "stats.reset_body.one": "The {n} game counted here will be forgotten. This cannot be undone.",
    "stats.reset_body.other": "All {n} games counted here will be forgotten. This cannot be undone.",
    "stats.reset_yes": "Reset",
    "stats.reset_done": "Statistics reset.",
    "chart.by_round": "Score by round",
    "chart.end": "End",
    "replay.watch": "Watch the game again",
    "replay.heading": "Replay: {name}",
    "replay.heading_plain": "Replay",
    "replay.close": "Close",
    "replay.start": "« Start",
    "replay.back": "‹ Back",
    "replay.play": "Play",
    "replay.pause": "Pause",
    "replay.forward": "Forward ›",
    "replay.end": "End »",
    "replay.speed": "Speed",
    "replay.round": "Round",
    "replay.step": "Move {n} of {total}",
    "replay.public_only": "the game is not over: only what every player could see",
    "replay.secrets_off": "Show plans and objectives",
    "replay.secrets_on": "Hide plans and objectives",
    "replay.secrets_head": "Plans and objectives (the game is over)",
    "replay.objective": "{name}: objective {west}, {east}",
    "replay.plan": "plan {plan}",
    "load.watch": "Watch",
    # ---- tooltips, the view and the planning preview (issue 10)
    "tip.city": "{name}: city ({symbol})",
    "tip.harbor": "{name}: harbor of {sea}",
    "tip.land": "Land",
    "tip.flourishing": "{region}: flourishing, each city or harbor scores 3",
    "tip.inactive": "{region}: inactive, each city or harbor scores 1",
    "tip.held_by": "Held by {names}",
    "tip.free": "Nobody holds it yet",
    "tip.sea": "{sea}",
    "tip.harbors": "Harbors: {harbors}",
    "tip.harbor_free": "free",
    "tip.sea_close": "One harbor from a sea league: {names}",
    "tip.sea_won": "Sea league won by {names}",
    "tip.sea_none_close": "Nobody is close to a sea league here",
    "tip.seat_head": "{name}: {score} so far",
    "tip.seat_parts": "Cities & harbors {sites} · sea leagues {leagues} · donations {donations}",
    "tip.seat_group": "Largest group: {pieces} (the Gonzaga tile, 15 points, is scored at the end)",
    "tip.seat_secret": "Objectives stay secret until the end.",
    "tip.card_region": "Your fief must cover at least one hex of {region}.",
    "tip.card_greyed": "Greyed: {why}.",
    "tip.card_best": "Best with this card now: +{points}",
    "tip.card_none": "No legal spot for your fief with this card now",
    "tip.card_K": "King's Privilege: you play before every seat without it; costs a ring.",
    "tip.last_turn": "Free now in flourishing regions: {sites}.",
    "tip.last_turn_rule": "At the end of round 6 and of every later round: when 3 or fewer are free, the next round is the last.",
    "tip.log": "Its hexes are lit on the map.",
    "tip.preview_row": "{region} with {action}: best +{points}",
    "preview.title": "Best points this round",
    "preview.hint": "Hover or choose a region and an action: the map shows where your fief could go.",
    "preview.none": "–",
    "preview.map": "{region} + {action}: best +{points}",
    "preview.map_none": "{region} + {action}: no legal spot",
    "view.keys": "Ctrl+wheel or +/-: zoom · middle or right drag, arrows: pan · F: whole board · T: tip",
    # ---- a number and its noun (i18n.tn): "one" for 1, "other" for any other number, in both languages
    "n.rings.one": "{n} ring",
    "n.rings.other": "{n} rings",
    "n.fiefs.one": "{n} fief",
    "n.fiefs.other": "{n} fiefs",
    "n.points.one": "{n} point",
    "n.points.other": "{n} points",
    "n.sites.one": "{n} site",
    "n.sites.other": "{n} sites",
    "n.rounds.one": "{n} round",
    "n.rounds.other": "{n} rounds",
    "n.cities.one": "{n} city",
    "n.cities.other": "{n} cities",
    "n.harbors.one": "{n} harbor",
    "n.harbors.other": "{n} harbors",
    "n.pieces.one": "{n} piece",
    "n.pieces.other": "{n} pieces",
    "n.free_sites.one": "{n} site in flourishing regions still free",
    "n.free_sites.other": "{n} sites in flourishing regions still free",
    "n.plans.one": "{n} plan",
    "n.plans.other": "{n} plans",
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


def tn(key: str, n: int, **params) -> str:
    """A number and its noun in the current language: ``key.one`` when ``n`` is 1, else
    ``key.other`` (English and Italian both count this way), with ``{n}`` and ``params``."""
    return t(f"{key}.{'one' if n == 1 else 'other'}", n=n, **params)


class Term:
    """A parameter of a game-log line that is put into words only when the line is shown, so
    that the log keeps keys and ids and a change of language re-renders every line:
    ``Term("card", id, name)`` a planning card (region id with its map name, ``inactive``, or
    A/B/C/K), ``Term("n", key, n)`` a number with its noun (:func:`tn`), ``Term("t", key, params)``
    a sentence, ``Term("join", sep, parts)`` parts joined."""

    __slots__ = ("kind", "args")

    def __init__(self, kind: str, *args):
        self.kind = kind
        self.args = args

    def __format__(self, spec: str) -> str:
        k, a = self.kind, self.args
        if k == "card":
            card, name = a
            return t(f"card.{card}") if card in ("A", "B", "C", "K", "inactive") else name
        if k == "n":
            return tn(a[0], a[1])
        if k == "t":
            return t(a[0], **a[1])
        if k == "join":
            return a[0].join(format(x) for x in a[1])
        return str(a)

    def __str__(self) -> str:
        return format(self)

    def __repr__(self) -> str:
        return f"Term({self.kind!r}, {', '.join(repr(x) for x in self.args)})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Term) and (self.kind, self.args) == (other.kind, other.args)

    def __hash__(self) -> int:
        return hash((self.kind, repr(self.args)))


def card_term(state_or_content, card: str) -> Term:
    content = getattr(state_or_content, "content", state_or_content)
    return Term("card", card, content.region_names.get(card, card) if content is not None else card)


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
    "the fief would cross a barrier": "il feudo starebbe a cavallo di un confine invalicabile",
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
    "a wedding places one or two rings": "un Matrimonio mette uno o due anelli",
    "a wedding needs the Alliance card": "il Matrimonio richiede la carta Alleanza",
    "a rotation is 0 to 5 sixths of a turn": "una rotazione va da 0 a 5 sesti di giro",
    "no more rings for this wedding": "non hai altri anelli per questo Matrimonio",
    "not enough rings in supply": "non hai abbastanza anelli",
    "the King's Privilege was played last round": "il Privilegio del Re è stato giocato nel turno prima",
    "the King's Privilege needs a ring in supply": "il Privilegio del Re richiede un anello disponibile",
    "every seat must plan before anybody places": "tutti devono pianificare prima che qualcuno piazzi",
    "it is not this seat's turn": "non è il turno di questo giocatore",
    "plans are made before the reveal": "i piani si fanno prima della rivelazione",
    "this seat has already planned this round": "questo giocatore ha già pianificato in questo turno",
    "the game is over": "la partita è finita",
    "unknown action": "azione sconosciuta",
}
_RULE_IT_PREFIX = {"no hex of the fief is in ": "nessun esagono del feudo è in ",
                   "the first ring must go in ": "il primo anello va in "}
_RULE_IT_CARD = ("the ", " card was played last round", "la carta {card} è stata giocata nel turno prima")
_CARD_EN = {"Harbors": "A", "Cities": "B", "Alliance": "C"}


def rule_text(why) -> str:
    """What a refusal says to the player: ``A fief is already there`` (no rule id: that stays in
    the log file), in the interface language."""
    msg = why.message
    if _language == "it":
        pre, post, it_card = _RULE_IT_CARD
        if msg in _RULE_IT:
            msg = _RULE_IT[msg]
        elif msg.startswith(pre) and msg.endswith(post):  # "the Cities card was played last round"
            card = msg[len(pre):-len(post)]
            card = t(f"card.{_CARD_EN[card]}") if card in _CARD_EN else (
                t("card.inactive") if card == "inactive regions" else card)
            msg = it_card.format(card=card)
        else:
            for en, it in _RULE_IT_PREFIX.items():
                if msg.startswith(en):
                    rest = msg[len(en):]
                    msg = it + (t("card.inactive") if rest == "the inactive regions" else rest)
                    break
    return msg[:1].upper() + msg[1:]


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

from .i18n_learn import EN as _LEARN_EN, IT as _LEARN_IT  # noqa: E402  (tutorial, rules reference, hints, take-backs)

EN.update(_LEARN_EN)
IT.update(_LEARN_IT)

from .i18n_online import EN as _ONLINE_EN, IT as _ONLINE_IT  # noqa: E402  (online play)

EN.update(_ONLINE_EN)
IT.update(_ONLINE_IT)
