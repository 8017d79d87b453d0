-- The server's games and their actions (issue 14), as SQLiteStore made them before numbered
-- scripts (issue 47): a database of that shape is at version 1 and opens unchanged.
-- The version itself is meta's 'schema_version' row (the runner writes it), which older servers
-- already read: one of them refuses a database that a newer script has moved on.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    host_seat INTEGER NOT NULL DEFAULT 0,
    started INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
