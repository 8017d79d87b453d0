-- Turn-based games and My games (issue 47, t47turn): the same rows as SQLite's script 0002.
-- game_turns: each game's pace and, for a turn-based one, where it stands after every change
-- (deadlines as seconds since the epoch, so a restarted server keeps them; the earliest one
-- indexed). account_games: which account holds which seat (My games reads it by account).
CREATE TABLE game_turns (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    pace TEXT NOT NULL DEFAULT 'live' CHECK (pace IN ('live', 'turn')),
    move_hours INTEGER NOT NULL DEFAULT 0,
    missed_limit INTEGER NOT NULL DEFAULT 3,
    n INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 0,
    deadlines JSONB NOT NULL DEFAULT '{}',
    missed JSONB NOT NULL DEFAULT '[]',
    next_deadline DOUBLE PRECISION,
    finished_at DOUBLE PRECISION
);
CREATE INDEX game_turns_due ON game_turns (next_deadline) WHERE next_deadline IS NOT NULL;
CREATE TABLE account_games (
    account BIGINT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    PRIMARY KEY (account, game_id, seat)
);
CREATE INDEX account_games_game ON account_games (game_id);
