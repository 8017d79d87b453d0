"""The English words of the public lobby, quick match and the ratings screens (issue 47,
t47lobby): the server's refusals (``net/listing.py``), the lobby of a server
(``scenes/servers.py``) and the leaderboard and profile (``scenes/ratings.py``). Merged into
``i18n.EN`` at import; the translations are in ``locale/*/LC_MESSAGES/gonzaga.po``.
"""
from __future__ import annotations

EN: dict[str, str] = {
    # ---- the server's answers
    "lobby.table_full": "That table has no free seat any more: someone took the last one. Refresh the list.",
    "lobby.range_sign_in": "This table is for rated players: sign in to your account on this server first.",
    "lobby.outside_range": "Your rating {rating} is outside this table's range ({low} to {high}).",
    "lobby.range_no_accounts": "This server has no accounts, so a table cannot ask for a rating range.",
    "lobby.range_empty": "The lowest rating ({low}) is above the highest ({high}).",
    "lobby.range_not_yours": "Your own rating {rating} is outside the range you chose ({low} to {high}).",
    # ---- a server's lobby (scenes/servers.py)
    "lobby.hint": "Tables on this server waiting for players. Type your name, then join one, let Quick match find "
                  "you a seat, or create your own table.",
    "lobby.pace_filter": "Pace: {pace}",
    "lobby.pace_any": "any",
    "lobby.pace_live": "live",
    "lobby.pace_turn": "turn-based",
    "lobby.seats_filter": "Seats: {seats}",
    "lobby.any": "any",
    "lobby.fits_off": "Fits my rating: off",
    "lobby.fits_on": "Fits my rating: on",
    "lobby.ratings": "Ratings",
    "lobby.quick": "Quick match",
    "lobby.your_rating": "Your rating: {rating}",
    "lobby.no_tables": "No table here fits: try Quick match, or create one.",
    "lobby.game_line_rated": "{host}'s table · rating {rating}",
    "lobby.taken": "{taken} of {seats} seats taken",
    "lobby.free_seats": "free seats: {n}",
    "lobby.turn_hours": "turn-based, {hours} h per move",
    "lobby.live_timer": "live, {timer} a turn",
    "lobby.rated": "rated",
    "lobby.unrated": "unrated (AI seat)",
    "lobby.range": "ratings {low} to {high}",
    "lobby.range_from": "ratings from {low}",
    "lobby.range_to": "ratings up to {high}",
    "lobby.range_label": "Ratings allowed",
    "lobby.range_blank": "blank: anyone may join",
    "lobby.range_bad": "{value} is not a rating from -100 to 200.",
    # ---- the leaderboard and a profile (scenes/ratings.py)
    "ratings.heading": "Ratings on {address}",
    "ratings.hint": "The rating is a cautious estimate of skill: it rises as you win and as the server grows sure "
                    "of you. Games with an AI seat are not rated.",
    "ratings.rank": "Rank",
    "ratings.name": "Player",
    "ratings.rating": "Rating",
    "ratings.games": "Rated games",
    "ratings.provisional_value": "{rating}?",
    "ratings.provisional_note": "A rating with ? is provisional: fewer than {n} rated games so far.",
    "ratings.none": "Nobody on this server has a rated game yet.",
    "ratings.previous": "Previous page",
    "ratings.next": "Next page",
    "ratings.mine": "Me",
    "ratings.profile_heading": "{name}",
    "ratings.profile_hint": "The rating after each rated game, oldest on the left.",
    "ratings.summary": "Rating {rating} · rated games: {games}",
    "ratings.unrated_yet": "No rated game yet.",
    "ratings.chart_title": "Rating after each rated game",
    "ratings.provisional_zone": "provisional",
    "signin.ratings": "Ratings",
}
