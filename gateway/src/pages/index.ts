/*
 * The wiki in a browser, server-rendered at MediaWiki's addresses: `/wiki/Title`,
 * `/w/index.php?title=Title&action=…` (article.ts and the actions it dispatches to) and
 * `/wiki/Special:Name[/sub]` (the special pages). Forms work without JavaScript; pages carry no
 * script at all.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { GrpcStatus, ServiceError } from '@quire/kit';
import { OAuthNotApiError, resolvePageCaller } from '../caller.js';
import { readerClock, withClock } from './user-clock.js';
import { refreshFooterMessages } from './footer.js';
import { clientAddress } from '../client-ip.js';
import type { Caller, GatewayDeps } from '../context.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../config.js';
import { botPasswordsPage } from './botpasswords.js';
import { html, messageBox, sendPage } from './html.js';
import { parseSpecialTitle, type SpecialPageName } from './paths.js';
import { anonymousCaller, type PageHandler } from './request.js';
import { runJobsPage } from './runjobs.js';
import { userLoginPage, userLogoutPage } from './userlogin.js';
import { articlePage } from './article.js';
import { SPECIAL_HANDLERS } from './specials.js';
import { ADMIN_SPECIAL_HANDLERS } from './specials-admin.js';
import { DUMP_SPECIAL_HANDLERS } from './dumps.js';
import { recentChangesLinkedPage, whatLinksHerePage } from './whatlinkshere.js';

const HANDLERS: Record<SpecialPageName, PageHandler> = {
  UserLogin: userLoginPage,
  UserLogout: userLogoutPage,
  BotPasswords: botPasswordsPage,
  RunJobs: runJobsPage,
  ...SPECIAL_HANDLERS,
  ...ADMIN_SPECIAL_HANDLERS,
  ...DUMP_SPECIAL_HANDLERS,
  WhatLinksHere: whatLinksHerePage,
  RecentChangesLinked: recentChangesLinkedPage,
};

const ARTICLE_PREFIX = ARTICLE_PATH.replace('$1', '');

/**
 * The title a request asks for: the path after /wiki/, or index.php's `title` parameter, which
 * MediaWiki's WebRequest reads from the query and then from a POST body alike.
 */
function requestedTitle(req: Request): string | null {
  if (req.path === `${SCRIPT_PATH}/index.php`) {
    if (typeof req.query.title === 'string') return req.query.title;
    const body = req.body as Record<string, unknown> | undefined;
    if (typeof body?.title === 'string') return body.title;
    // MediaWiki::parseTitle: a search without a title is Special:Search, anything else the Main Page.
    return typeof req.query.search === 'string' ? 'Special:Search' : 'Main Page';
  }
  if (!req.path.startsWith(ARTICLE_PREFIX)) return null;
  try {
    return decodeURIComponent(req.path.slice(ARTICLE_PREFIX.length));
  } catch {
    return null;
  }
}

function sendError(res: Response, deps: GatewayDeps, caller: Caller, status: number, title: string, text: string): void {
  sendPage(res, deps, caller, { title, status, body: messageBox('error', text) });
}

export function createSpecialPages(deps: GatewayDeps): express.Router {
  const router = express.Router();
  const parseForm = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });
  const parseArticleForm = express.urlencoded({ extended: false, limit: `${deps.config.maxArticleSizeKb * 2 + 64}kb`, parameterLimit: 200 });

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'POST' && req.path === `${SCRIPT_PATH}/index.php` && req.query.title === undefined) {
      try {
        await new Promise<void>((resolve, reject) => parseArticleForm(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
      } catch {
        res.status(400).type('text/plain').send('The submitted form could not be read.');
        return;
      }
    }
    const title = requestedTitle(req);
    if (title === null) return next();
    const target = parseSpecialTitle(title);
    // Until the session is resolved (an error page may have to be shown before it is).
    let caller = anonymousCaller(clientAddress(req, deps.config.isTrustedProxy));
    try {
      await refreshFooterMessages(deps);
      caller = await resolvePageCaller(req, deps);
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method !== 'GET' && method !== 'POST') {
        res.set('Allow', 'GET, HEAD, POST');
        return sendError(res, deps, caller, 405, 'Method not allowed', `${req.method} is not allowed here.`);
      }
      if (!target) {
        // Edit forms carry a whole page's text ($wgMaxArticleSize), unlike the special pages' forms.
        if (method === 'POST') await new Promise<void>((resolve, reject) => parseArticleForm(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
        const reader = caller;
        return await withClock(await readerClock(deps, caller), () => articlePage({ req, res, deps, caller: reader, method, subpage: null }, title));
      }
      if (!target.known) {
        return sendPage(res, deps, caller, {
          title: 'No such special page',
          status: 404,
          body: html`${messageBox('error', html`<strong>You have requested an invalid special page.</strong>`)}`,
        });
      }
      if (method === 'POST') {
        await new Promise<void>((resolve, reject) => parseForm(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
      }
      const reader = caller;
      await withClock(await readerClock(deps, caller), () => HANDLERS[target.name as SpecialPageName]({ req, res, deps, caller: reader, method, subpage: target.subpage }));
    } catch (e) {
      if (res.headersSent) {
        deps.log.error({ err: e, path: req.path }, 'special page failed after its response started');
        return;
      }
      if (e instanceof OAuthNotApiError) return sendError(res, deps, caller, 400, 'Error', e.message);
      // body-parser's errors carry the HTTP status of the problem (413 too large, 400 malformed, 415 charset).
      const status = (e as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return sendError(res, deps, caller, status, 'Bad request', 'The submitted form could not be read.');
      }
      // A request a service refused (a bad parameter, a missing revision): its message, with the status it means.
      const clientStatus: Partial<Record<GrpcStatus, number>> = {
        [GrpcStatus.INVALID_ARGUMENT]: 400,
        [GrpcStatus.NOT_FOUND]: 404,
        [GrpcStatus.PERMISSION_DENIED]: 403,
        [GrpcStatus.FAILED_PRECONDITION]: 400,
        [GrpcStatus.ALREADY_EXISTS]: 409,
        [GrpcStatus.OUT_OF_RANGE]: 400,
      };
      if (e instanceof ServiceError && clientStatus[e.grpcCode] !== undefined) {
        return sendError(res, deps, caller, clientStatus[e.grpcCode]!, 'Error', e.message);
      }
      if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.UNAVAILABLE || e.grpcCode === GrpcStatus.DEADLINE_EXCEEDED)) {
        return sendError(res, deps, caller, 503, 'Service unavailable', 'The wiki is temporarily unavailable. Please try again in a few minutes.');
      }
      deps.log.error({ err: e, path: req.path }, 'special page failed');
      return sendError(res, deps, caller, 500, 'Internal error', 'An internal error occurred. It has been logged.');
    }
  });
  return router;
}
