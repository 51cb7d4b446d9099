import { runMain, runServiceProcess } from '@quire/kit';
import { searchService } from './server.js';

await runMain(() => runServiceProcess(searchService));
