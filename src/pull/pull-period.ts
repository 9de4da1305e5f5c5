// How long a host may go between two pulls with the shipped timer (units/govern.timer: every 30
// minutes, each host at its own offset up to 30 more). A rollout counts a stage's hosts as taking a
// commit within it (rollout-file.ts), and govern status allows one beyond a held pull (record/pull-status.ts).
export const PULL_PERIOD_MS = 3_600_000;
