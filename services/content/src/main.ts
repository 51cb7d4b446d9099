import { runMain, runServiceProcess } from '@quire/kit';
import { contentService } from './server.js';

await runMain(() => runServiceProcess(contentService));
