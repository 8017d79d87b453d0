-- The server's games and their actions on PostgreSQL (issue 47): the same rows as SQLite's
-- script 0001, with the database keeping the order of a game's actions itself.

-- One row per script applied (the runner writes it, in the script's own transaction).
CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    config JSONB NOT NULL,          -- GameConfig.to_json()
    seed BIGINT NOT NULL,
    seats JSONB NOT NULL,           -- name, kind, colour, bot, token_hash of each seat
    host_seat INTEGER NOT NULL DEFAULT 0,
    started BOOLEAN NOT NULL DEFAULT false,
    finished BOOLEAN NOT NULL DEFAULT false,
    created TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX games_unfinished ON games (created, id) WHERE NOT finished;

-- Action idx of a game can be stored only once (the primary key) and only after action idx - 1
-- (the foreign key on prev): "not the next index" is a constraint, so two processes racing for
-- the same index cannot both win, whatever each of them read before.
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    text TEXT NOT NULL,
    prev INTEGER GENERATED ALWAYS AS (CASE WHEN idx > 0 THEN idx - 1 END) STORED,
    PRIMARY KEY (game_id, idx),
    CONSTRAINT actions_follow_previous FOREIGN KEY (game_id, prev) REFERENCES actions (game_id, idx)
);
