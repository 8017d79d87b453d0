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
