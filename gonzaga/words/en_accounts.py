"""The English words of accounts on a community server (issue 47): what the server answers to a
sign-in, a new account or a seat of an account, and the sign-in screen (``scenes/signin.py``).
Merged into ``i18n.EN`` at import; the translations are in ``locale/*/LC_MESSAGES/gonzaga.po``.
"""
from __future__ import annotations

EN: dict[str, str] = {
    # ---- the server's answers (account_desk.py)
    "accounts.none": "This server has no accounts: join its games with an invite code.",
    "accounts.password_short": "A password needs at least {least} characters.",
    "accounts.password_long": "A password has at most {most} characters.",
    "accounts.wait_register": "Too many new accounts from your address: try again in {seconds} s.",
    "accounts.name_taken": "The name {name} is taken (in some form of capitals): choose another.",
    "accounts.wait_address": "Too many wrong passwords from your address: try again in {seconds} s.",
    "accounts.wait_account": "Too many wrong passwords for this account from other computers: "
                             "try again in {seconds} s.",
    "accounts.wrong_password": "Wrong name or password.",
    "accounts.banned": "The account {name} is banned from this server.",
    "accounts.bad_session": "You were signed out (the session ended or expired): sign in again.",
    "accounts.not_signed_in": "You are not signed in.",
    "accounts.seat_sign_in": "This seat belongs to an account: sign in to it to play the seat.",
    "accounts.seat_other": "This seat belongs to another account.",
    "accounts.one_at_a_time": "A sign-in is already under way: wait for its answer.",
    "accounts.busy": "The server is busy signing players in: try again in a moment.",
    "accounts.no_account": "No account is named {name} on this server.",
    # ---- the sign-in screen
    "signin.heading": "Your account on a server",
    "signin.hint": "An account keeps your name on a community server. Invite games need no account.",
    "signin.address": "Server address",
    "signin.name": "Name",
    "signin.password": "Password",
    "signin.sign_in": "Sign in",
    "signin.create": "Create account",
    "signin.sign_out": "Sign out",
    "signin.sign_out_all": "Sign out everywhere",
    "signin.connecting": "Connecting to {address}...",
    "signin.signed_in": "Signed in as {name} on {address}.",
    "signin.created": "Account {name} made: you are signed in.",
    "signin.signed_out": "Signed out on this computer.",
    "signin.signed_out_all": "Signed out on every computer (sessions ended: {n}).",
    "signin.not_signed_in": "Not signed in on {address}.",
    "signin.need_address": "Type the server's address first.",
    "signin.need_name": "Type your name.",
    "signin.need_password": "Type your password.",
    "signin.not_kept": "Signed in, but this computer could not keep the sign-in: {why}",
    "signin.damaged": "The file of sign-ins was damaged and was put aside: sign in again.",
}
