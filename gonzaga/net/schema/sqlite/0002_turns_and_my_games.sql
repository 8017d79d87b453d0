-- Turn-based games and My games (issue 47, t47turn). One row per game in game_turns: its pace
-- (as chosen at creation, also in the config's "online"), and for a turn-based game where it
-- stands, kept after every change: the actions so far, the round, each due seat's deadline
-- (seconds since the epoch: a restarted server keeps them) and missed moves in a row; the
-- earliest deadline (next_deadline) is indexed, so a server finds the games whose time ran out
-- without loading any. account_games: which account holds which seat (My games reads it by
-- account, from this index, never by loading games).
CREATE TABLE game_turns (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    pace TEXT NOT NULL DEFAULT 'live' CHECK (pace IN ('live', 'turn')),
    move_hours INTEGER NOT NULL DEFAULT 0,
    missed_limit INTEGER NOT NULL DEFAULT 3,
    n INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 0,
    deadlines TEXT NOT NULL DEFAULT '{}',
    missed TEXT NOT NULL DEFAULT '[]',
    next_deadline REAL,
    finished_at REAL
) WITHOUT ROWID;
CREATE INDEX game_turns_due ON game_turns (next_deadline) WHERE next_deadline IS NOT NULL;
CREATE TABLE account_games (
    account INTEGER NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    PRIMARY KEY (account, game_id, seat)
) WITHOUT ROWID;
CREATE INDEX account_games_game ON account_games (game_id);
