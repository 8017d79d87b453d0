-- What the process running a game holds besides its actions, kept where every process reads it
-- (sharing.py), so that a process taking the game over goes on with it: the latest chat lines,
-- shown to a player who comes back or a spectator who comes, and the seats that asked for a
-- rematch of a finished game. SQLite (one process) keeps neither: sharing.py says why.

-- A chat line (or an emote) exactly as it was told (the protocol's "said" message, its text
-- cleaned before it was told): sent again as it is, never read into anything else. Each game
-- keeps its latest ones only, as many as a room keeps in memory (rooms.CHAT_KEPT): the statement
-- that adds one drops the older ones (store_pg.PostgresStore.keep_said).
CREATE TABLE chat_kept (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,   -- the order they were said in
    said TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- A seat of a finished game that asked for a rematch (and has not withdrawn the ask by leaving);
-- the rows go when the rematch starts.
CREATE TABLE rematch_asks (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0 AND seat < 4),
    PRIMARY KEY (game_id, seat)
);
