import { installCrashPolicy, runMain } from '@quire/kit';
import { startGateway } from './server.js';

await runMain(async () => {
  const gw = await startGateway();
  installCrashPolicy({ log: gw.deps.log, stop: () => gw.stop() });
  process.stdout.write(`gateway serving ${gw.url}/w/api.php and ${gw.url}/w/rest.php/v1/\n`);
  const stop = () => gw.stop().then(() => process.exit(0), () => process.exit(1));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
});
