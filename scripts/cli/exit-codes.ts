/**
 * Exit codes shared by every command (docs/tools.md), so a cron job or CI step can tell an answer
 * from a breakdown:
 * - 0 done, and the answer is yes (no differences, hash verified, everything delivered);
 * - 1 done, and the answer is no (differences found, hash not verified, a delivery refused);
 * - 2 the command line, a variable or an input file is wrong: nothing was done;
 * - 3 failed before there was an answer: a crash, an unreachable table or server, a lost
 *   connection. It follows 2 so that `-ge 2` means "no answer, look at stderr", and Node itself
 *   leaves 3 unused (it exits 1 on an uncaught exception, which runProgram turns into 3);
 * - 130 stopped by Ctrl-C after saying what was done (128 + SIGINT, as shells report it).
 */
export const exitCodes = { ok: 0, differences: 1, usage: 2, failed: 3, interrupted: 130 } as const;
