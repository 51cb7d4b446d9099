import { runMain, runServiceProcess } from '@quire/kit';
import { authService } from './server.js';

await runMain(() => runServiceProcess(authService));
