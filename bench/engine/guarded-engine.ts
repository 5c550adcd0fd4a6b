/**
 * Runs in a fresh process for unsigned-bodies.ts: local mode's engine as `npm start` starts it
 * (dynalite behind the signature check, fresh credentials, in memory), alone, so the process's
 * resident set is the engine's. Sends its endpoint and Node version over IPC, then answers each `measure` with
 * its RSS now and the highest seen since the last one (sampled every 20 ms).
 */

import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import { newEngineCredentials } from '../../scripts/local/engine/engine-credentials.js';

const engine = await startDynalite(undefined, { credentials: newEngineCredentials() });
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);

process.on('message', (message) => {
  if (message === 'measure') {
    const rss = process.memoryUsage.rss();
    process.send?.({ rss, peak: Math.max(peak, rss) });
    peak = rss;
  } else if (message === 'stop') {
    clearInterval(sampler);
    void engine.stop().then(() => process.disconnect());
  }
});
process.send?.({ endpoint: engine.endpoint, node: process.versions.node });
