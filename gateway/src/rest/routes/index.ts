import type { RouteDecl } from '../types.js';
import { pageBareRoute } from './pageBare.js';
import { pageSourceRoute } from './page.js';
import { restSpecRoute } from './restSpec.js';

/** The route table of /w/rest.php (MediaWiki's coreRoutes.json). */
export const coreRoutes: readonly RouteDecl[] = [pageSourceRoute, pageBareRoute, restSpecRoute];
