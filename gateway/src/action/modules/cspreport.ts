/*
 * action=cspreport (MediaWiki's ApiCSPReport): browsers post Content-Security-Policy violation
 * reports here; each is logged (a warning, or debug for the configured false positives — Quire
 * has none) and answered "success". A malformed report is a 400 with cspreport-<reason>.
 */
import { message, MessageUsageError } from '../errors.js';
import { defineModule } from '../define.js';
import type { ActionContext } from '../types.js';

/** ApiCSPReport::MAX_POST_SIZE. */
const MAX_POST_SIZE = 8192;

/** ApiCSPReport::error: HTTP 400. */
function reportError(reason: string): MessageUsageError {
  return new MessageUsageError(message(`cspreport-${reason}`, 'apierror-csp-report', [reason]), 400);
}

/** wfParseUrl + wfAssembleUrl without user, password, path, query and fragment. */
function originOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url;
  }
}

/** The report inside the posted JSON, or the reason it is refused (ApiCSPReport::verifyPostBodyOk and getReport). */
export function readCspReport(ctx: Pick<ActionContext, 'header' | 'otherBody'>): Record<string, unknown> {
  const contentType = ctx.header?.('content-type');
  if (contentType !== 'application/json' && contentType !== 'application/csp-report') throw reportError('wrongformat');
  if (Number(ctx.header?.('content-length') ?? 0) > MAX_POST_SIZE) throw reportError('toobig');
  const body = ctx.otherBody?.data ?? Buffer.alloc(0);
  if (body.length > MAX_POST_SIZE) throw reportError('toobig');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw reportError('json-error-syntax');
  }
  const report = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)['csp-report'] : undefined;
  if (report === undefined || report === null) throw reportError('missingkey');
  return (typeof report === 'object' ? report : {}) as Record<string, unknown>;
}

export const cspreportModule = defineModule({
  name: 'cspreport',
  group: 'action',
  prefix: '',
  summary: 'Used by browsers to report violations of the Content Security Policy. This module should never be used, except when used automatically by a CSP compliant web browser.',
  params: {
    reportonly: { type: 'boolean', default: false, help: 'Mark as being a report from a monitoring policy, not an enforced policy' },
    source: { type: 'string', default: 'internal', help: 'What generated the CSP header that triggered this report' },
  },
  // ApiCSPReport::isReadMode: reports are taken even from callers without the read right.
  flags: { mustBePosted: true, internal: true, readRights: false },
  async execute(ctx) {
    const base = ctx as unknown as ActionContext;
    const report = readCspReport(base);
    const flags = [...(ctx.params.source !== 'internal' ? [`source=${ctx.params.source}`] : []), ...(ctx.params.reportonly ? ['report-only'] : [])];
    const blocked = typeof report['blocked-uri'] === 'string' ? originOf(report['blocked-uri']) : 'n/a';
    const page = typeof report['document-uri'] === 'string' ? report['document-uri'] : 'n/a';
    const line = report['line-number'] !== undefined ? `:${String(report['line-number'])}` : '';
    ctx.deps.log.warn(
      {
        channel: ctx.params.reportonly ? 'csp-report-only' : 'csp',
        'csp-report': report,
        user_id: ctx.caller.user.id || 'logged-out',
        'user-agent': base.header?.('user-agent'),
        source: ctx.params.source,
      },
      `${flags.length ? `[${flags.join(', ')}]` : ''} Received CSP report: <${blocked}> blocked from being loaded on <${page}>${line}`,
    );
    ctx.result.cspreport = 'success';
  },
});
