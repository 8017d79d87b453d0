-- Which process holds which seat's connection (several gonzaga serve processes, leases_pg.py):
-- a process writes its own rows (at most a second late) and renews "alive_until" every second;
-- rows of a process whose "alive_until" has passed (it died, or sleeps) count for nothing. The
-- process running a game reads them when it takes the game over and when it is told of a change,
-- so that a seat whose player is connected nowhere starts its grace period.
CREATE TABLE server_processes (
    process TEXT PRIMARY KEY,        -- host:pid:random, as game_leases.owner
    alive_until TIMESTAMPTZ NOT NULL -- by the database's clock
);
CREATE TABLE seat_presence (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    process TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, process)
);
CREATE INDEX seat_presence_process ON seat_presence (process);

-- A live game's turn clocks as its owner last told them (the protocol's "clocks" message:
-- seconds left, running or not) and when, so that a process taking the game over continues
-- them from there instead of starting them again.
CREATE TABLE game_clocks (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    told TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL           -- by the database's clock
);
