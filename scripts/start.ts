import { runMain } from '@quire/kit';
import { startStack } from './stack.js';

await runMain(async () => {
  const started = Date.now();
  const stack = await startStack(process.env);
  process.stdout.write(
    `Quire is ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${stack.url}/ ` +
      `(action API ${stack.url}/w/api.php, REST ${stack.url}/w/rest.php/v1/)\n`,
  );
  const stop = (sig: string) => {
    process.stdout.write(`${sig}: stopping\n`);
    stack.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
});
