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
}
