import { initTracing, installCrashPolicy, runMain, shutdownTracing, startProcessMetrics } from '@quire/kit';
import { startGateway } from './server.js';

await runMain(async () => {
  await initTracing('quire-gateway');
  const gw = await startGateway();
  const metrics = await startProcessMetrics(process.env, gw.deps.log);
  installCrashPolicy({ log: gw.deps.log, stop: () => gw.stop() });
  process.stdout.write(`gateway serving ${gw.url}/w/api.php and ${gw.url}/w/rest.php/v1/\n`);
  const stop = () =>
    gw
      .stop()
      .then(() => metrics?.close())
      .then(() => shutdownTracing())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
});
