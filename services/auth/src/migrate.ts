// Applies this service's schema migrations and exits (the Kubernetes migration Job; kit/migrate.ts).
import { runMain } from '@quire/kit';
import { migrateOnly } from '@quire/kit/migrate';
import { authService } from './server.js';

await runMain(() => migrateOnly(authService));
