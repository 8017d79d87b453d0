-- Several gonzaga serve processes on one database (issue 47): each unfinished game is run by one
-- process at a time, the owner of its lease (store_pg.GameLeases). The owner renews "expires";
-- another process takes the game over once it has passed, or at once when one of its own players
-- acts in the game, and each take-over adds one to "epoch". Every action is written only while
-- the writer's epoch is still the row's, checked in the statement that writes it (the row is
-- locked FOR SHARE there, so a take-over waits for that write and every later one is refused):
-- a process that was paused, not dead, cannot write once its lease was taken.
CREATE TABLE game_leases (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,             -- the process: host:pid:random
    epoch BIGINT NOT NULL CHECK (epoch > 0),
    expires TIMESTAMPTZ NOT NULL     -- by the database's clock: the processes need not agree on one
);
CREATE INDEX game_leases_owner ON game_leases (owner);
CREATE INDEX game_leases_expires ON game_leases (expires);

-- The accounts (account_store_pg.py; SQLite keeps them in a file of their own,
-- account_store.py): the same rows, in the games' database, so that every process of a
-- community server shares them (sessions, wrong passwords in a row, ratings).
CREATE TABLE accounts (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,     -- accounts.fold(name): one name regardless of case and width
    password TEXT NOT NULL,          -- scrypt$n$r$p$salt$hash
    created DOUBLE PRECISION NOT NULL,
    banned BOOLEAN NOT NULL DEFAULT false,
    fails INTEGER NOT NULL DEFAULT 0,
    last_fail DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    digest TEXT PRIMARY KEY,         -- SHA-256 of the token, never the token
    account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    device TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    used DOUBLE PRECISION NOT NULL
);
CREATE INDEX sessions_account ON sessions (account);
CREATE TABLE devices (
    account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, digest)
);
CREATE TABLE seats (digest TEXT PRIMARY KEY, account BIGINT NOT NULL);
CREATE TABLE ratings (
    account BIGINT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,
    shown DOUBLE PRECISION NOT NULL
);
CREATE INDEX ratings_shown ON ratings (shown DESC);
CREATE TABLE rated_games (game TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL);
CREATE TABLE rating_history (
    account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, shown DOUBLE PRECISION NOT NULL,
    place INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, game)
);
