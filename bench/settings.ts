/** How much of each measurement a run does. */
export interface BenchSettings {
  readonly requestRounds: number;
  readonly cpuIterations: number;
  readonly cpuWarmup: number;
  readonly cpuBlocks: number;
  readonly coldStartProcesses: number;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly engineWarmupSeconds: number;
  readonly loadRounds: number;
}

/** `npm run bench`: enough samples for stable medians and p99s on a small machine (~3 min). */
export const fullSettings: BenchSettings = {
  requestRounds: 5,
  cpuIterations: 5_000,
  cpuWarmup: 1_000,
  cpuBlocks: 5,
  coldStartProcesses: 20,
  connections: 16,
  durationSeconds: 8,
  warmupSeconds: 2,
  engineWarmupSeconds: 15,
  loadRounds: 4,
};

/**
 * `npm run bench:smoke`: every step once, small, so CI keeps the scripts working. Its figures
 * mean nothing and nothing checks them.
 */
export const smokeSettings: BenchSettings = {
  requestRounds: 1,
  cpuIterations: 50,
  cpuWarmup: 20,
  cpuBlocks: 1,
  coldStartProcesses: 2,
  connections: 4,
  durationSeconds: 2,
  warmupSeconds: 0,
  engineWarmupSeconds: 0,
  loadRounds: 1,
};
