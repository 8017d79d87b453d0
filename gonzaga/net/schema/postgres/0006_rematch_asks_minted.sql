-- A rematch whose players are connected to different processes (sharing.py): the process that
-- holds a player's connection makes the token of their seat in the new game when they ask, and
-- keeps the token itself (only its hash is written here: a token never leaves the process that
-- gives it to its player). The ask counts while that process is alive (server_processes): the
-- process that hears the last ask starts the rematch with these hashes, and each process gives
-- its own players their tokens. Asks kept before this script have neither: they are shown, and
-- count once their player asks again or comes back.
ALTER TABLE rematch_asks ADD COLUMN token_hash TEXT, ADD COLUMN process TEXT;
