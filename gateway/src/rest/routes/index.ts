import type { RouteDecl } from '../types.js';
import { pageBareRoute } from './pageBare.js';
import { pageSourceRoute } from './page.js';
import { restSpecRoute } from './restSpec.js';
import { pageUpdateRoute } from './pageUpdate.js';
import { pageCreateRoute } from './pageCreate.js';
import { revisionSourceRoute } from './revision.js';
import { revisionBareRoute } from './revisionBare.js';
import { pageHistoryRoute } from './pageHistory.js';
import { pageHistoryCountsRoute } from './pageHistoryCounts.js';
import { revisionCompareRoute } from './revisionCompare.js';
import { searchPageRoute, searchTitleRoute } from './search.js';
import { searchDescriptionRoute } from './searchDescription.js';
import { pageHtmlRoute, pageWithHtmlRoute, revisionHtmlRoute, revisionWithHtmlRoute, pageLinksLanguageRoute } from './pageHtml.js';

import { fileRoute } from './file.js';
import { pageLinksMediaRoute } from './pageLinksMedia.js';
import { pageLintRoute, revisionLintRoute } from './lint.js';
import { coreDevTransformRoutes, transformHtmlToWikitextRoutes, transformLintRoutes, transformWikitextToHtmlRoutes } from './transform.js';
import { contributionsRoutes } from './contributions.js';

/** The route table of /w/rest.php (MediaWiki's coreRoutes.json). */
export const coreRoutes: readonly RouteDecl[] = [
  pageSourceRoute,
  pageBareRoute,
  pageUpdateRoute,
  pageCreateRoute,
  pageHistoryRoute,
  pageHistoryCountsRoute,
  revisionSourceRoute,
  revisionBareRoute,
  revisionCompareRoute,
  searchPageRoute,
  searchTitleRoute,
  searchDescriptionRoute,
  pageHtmlRoute,
  pageWithHtmlRoute,
  revisionHtmlRoute,
  revisionWithHtmlRoute,
  pageLinksLanguageRoute,
  fileRoute,
  pageLinksMediaRoute,
  pageLintRoute,
  revisionLintRoute,
  ...transformLintRoutes,
  ...transformWikitextToHtmlRoutes,
  ...transformHtmlToWikitextRoutes,
  restSpecRoute,
];

/**
 * MediaWiki's coreDevelopmentRoutes.json: served in addition to the core routes only with
 * REST_DEV_ROUTES=1 ($wgRestAPIAdditionalRouteFiles = ['includes/Rest/coreDevelopmentRoutes.json']).
 */
export const devRoutes: readonly RouteDecl[] = [...contributionsRoutes, ...coreDevTransformRoutes];
