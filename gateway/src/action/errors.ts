/*
 * Errors and warnings of the action API: MediaWiki's ApiErrorFormatter (errorformat=plaintext,
 * wikitext, html, raw, none) and ApiErrorFormatter_BackCompat (errorformat=bc), plus the English
 * texts of the messages the pipeline itself raises.
 */
import { englishMessage } from '../i18n/messages.js';
import { META, ApiUsageError, setContentValue, setIndexedTagName, type ApiMessage, type ResultObject } from './types.js';

export type ErrorFormat = 'bc' | 'plaintext' | 'wikitext' | 'html' | 'raw' | 'none';
export const ERROR_FORMATS: readonly ErrorFormat[] = ['plaintext', 'wikitext', 'html', 'raw', 'none', 'bc'];

/** English texts (includes/api/i18n/en.json and ParamValidator's en.json) of pipeline messages. */
const MESSAGES: Record<string, string> = {
  'apierror-missingparam': 'The <var>$1</var> parameter must be set.',
  'apierror-revwrongpage': 'r$1 is not a revision of $2.',
  'apierror-mustbeposted': 'The <kbd>$1</kbd> module requires a POST request.',
  'apierror-mustpostparams': 'The following {{PLURAL:$2|parameter was|parameters were}} found in the query string, but must be in the POST body: $1.',
  'apierror-badtoken': 'Invalid CSRF token.',
  'apierror-assertanonfailed': 'You are no longer logged out, so the action could not be completed.',
  'apierror-assertuserfailed': 'You are no longer logged in, so the action could not be completed.',
  'apierror-assertbotfailed': 'You do not have the <code>bot</code> right, so the action could not be completed.',
  'apierror-assertnameduserfailed': 'You are no longer logged in as "$1", so the action could not be completed.',
  'apierror-maxlag': 'Waiting for $2: $1 {{PLURAL:$1|second|seconds}} lagged.',
  'apierror-unrecognizedparams': 'Unrecognized {{PLURAL:$2|parameter|parameters}}: $1.',
  'apierror-invalidmethod': 'Invalid HTTP method. Consider using GET or POST.',
  'apierror-exceptioncaughttype': '[$1] Caught exception of type $2',
  'apierror-badmodule-badsubmodule': 'The module <kbd>$1</kbd> does not have a submodule "$2".',
  'apierror-badmodule-nosubmodules': 'The module <kbd>$1</kbd> has no submodules.',
  'apierror-toomanyvalues': 'Too many values supplied for parameter <var>$1</var>. The limit is $2.',
  'apierror-badgenerator-unknown': 'Unknown <kbd>generator=$1</kbd>.',
  'apierror-badgenerator-notgenerator': 'Module <kbd>$1</kbd> cannot be used as a generator.',
  'apiwarn-unsupportedarray': 'Parameter <var>$1</var> uses unsupported PHP array syntax.',
  'apiwarn-xslt-disabled': 'The xslt option is disabled on this wiki.',
  'apiwarn-errorprinterfailed': 'Error printer failed. Will retry without params.',
  'apiwarn-deprecation-post-without-content-type': 'A POST request was made without a <code>Content-Type</code> header. This does not work reliably.',
  'paramvalidator-missingparam': 'The "$1" parameter must be set.',
  'paramvalidator-badvalue-enumnotmulti': 'Unrecognized value for parameter "$1": $2.',
  'paramvalidator-notmulti': 'Parameter "$1" accepts only a single value. U+001F multi-value separation may only be used for multi-valued parameters.',
  'paramvalidator-unrecognizedvalues': 'Unrecognized {{PLURAL:$3|value|values}} for parameter "$1": $2',
  'paramvalidator-toomanyvalues': 'Too many values supplied for parameter "$1". The limit is $2.',
  'paramvalidator-badinteger': 'Invalid value "$2" for integer parameter "$1".',
  'paramvalidator-badtimestamp': 'Invalid value "$2" for timestamp parameter "$1".',
  'paramvalidator-baduser': 'Invalid value "$2" for user parameter <var>$1</var>.',
  'paramvalidator-outofrange-minmax': 'The value "$2" for parameter "$1" must be between $3 and $4.',
  'paramvalidator-outofrange-min': 'The value "$2" for parameter "$1" must be no less than $3.',
  'paramvalidator-outofrange-max': 'The value "$2" for parameter "$1" must be no greater than $4.',
  'paramvalidator-unclearnowtimestamp':
    'Passing "$2" for timestamp parameter "$1" has been deprecated. If for some reason you need to explicitly specify the current time without calculating it client-side, use "now".',
  'paramvalidator-param-deprecated': 'The parameter "$1" has been deprecated.',
  'paramvalidator-deprecated-value': 'The value "$2" to parameter "$1" has been deprecated.',
  'paramvalidator-badupload-notupload': 'File upload parameter "$1" is not a file upload; be sure to use multipart/form-data for your POST and include a filename in the Content-Disposition header.',
  'apiwarn-badutf8':
    'The value passed for <var>$1</var> contains invalid or non-normalized data. Textual data should be valid, NFC-normalized Unicode without C0 control characters other than HT (\\t), LF (\\n), and CR (\\r).',
  'apiwarn-deprecation-missingparam':
    'Because <var>$1</var> was not specified, a legacy format has been used for the output. This format is deprecated, and in the future the new format will always be used.',
  'apiwarn-redirectsandrevids': 'Redirect resolution cannot be used together with the <var>revids</var> parameter. Any redirects the <var>revids</var> point to have not been resolved.',
  'apiwarn-tokens-origin': 'Tokens may not be obtained when the same-origin policy is not applied.',
  'apierror-readapidenied': 'You need read permission to use this module.',
  'apierror-writeapidenied': "You're not allowed to edit this wiki through the API.",
  'apierror-serviceunavailable': 'A backend service of the wiki is temporarily unavailable. Please try again later.',
  'api-usage-docref': 'See $1 for API usage.',
  'api-usage-mailinglist-ref':
    'Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.',
};

/**
 * HTML renderings (Message::parse) where the parser does more than escaping: a bare URL in
 * `&lt;…&gt;` becomes a free external link.
 */
const MESSAGES_HTML: Record<string, string> = {
  'api-usage-mailinglist-ref':
    'Subscribe to the mediawiki-api-announce mailing list at &lt;<a rel="nofollow" class="external free" href="https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/">https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/</a>&gt; for notice of API deprecations and breaking changes.',
};

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** ApiErrorFormatter::stripMarkup: semantic tags become quotes, other tags go, entities decode. */
export function stripMarkup(text: string): string {
  return (
    text
      .replace(/<\/?(var|kbd|samp|code)>/g, '"')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
        if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
        if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
        return ENTITIES[e] ?? m;
      })
      // Sanitizer::stripAllTags ends with normalizeWhitespace: each line break or tab is a space.
      .replace(/\r\n|[\r\n\t]/g, ' ')
  );
}

/** Fills $n parameters and {{PLURAL:$n|one|other}} (English: 1 is singular). */
function fill(template: string, params: readonly (string | number)[], escapeText: (s: string) => string): string {
  const param = (i: number) => {
    const p = params[i - 1];
    return p === undefined ? `$${i}` : typeof p === 'number' ? String(p) : escapeText(p);
  };
  return (
    template
      // English plural: the first form for 1, else the second (a lone form serves for every number).
      .replace(/\{\{PLURAL:\$(\d+)\|([^}]*)\}\}/g, (_m, n: string, forms: string) => {
        const [one = '', other = one] = forms.split('|');
        return Number(params[Number(n) - 1]) === 1 ? one : other;
      })
      .replace(/\$(\d+)/g, (_m, n: string) => param(Number(n)))
  );
}

/** A message of the pipeline by key: plain text, wikitext and HTML renderings, raw key/params. */
export function message(code: string, key: string, params: (string | number)[] = [], data?: Record<string, unknown>): ApiMessage {
  const template = MESSAGES[key] ?? englishMessage(key) ?? key;
  const html = fill(template, params, escapeHtml);
  // Message::text() is the wikitext form; plaintext is stripMarkup() of it (entities decoded once).
  const wikitext = fill(template, params, (s) => s);
  return { code, key, params, text: stripMarkup(wikitext), wikitext, html: MESSAGES_HTML[key] ?? html, ...(data ? { data } : {}) };
}

export function usageError(code: string, key: string, params: (string | number)[] = [], data?: Record<string, unknown>): ApiUsageError {
  const m = message(code, key, params, data);
  return new MessageUsageError(m);
}

/** An ApiUsageError that keeps its full message (wikitext/html/raw renderings). */
export class MessageUsageError extends ApiUsageError {
  constructor(
    readonly apiMessage: ApiMessage,
    httpStatus = 200,
    headers: Record<string, string> = {},
  ) {
    super(apiMessage.code, apiMessage.text, apiMessage.data ?? {}, httpStatus, headers);
  }
}

export function messageOf(e: ApiUsageError): ApiMessage {
  if (e instanceof MessageUsageError) return e.apiMessage;
  return { code: e.code, text: e.info, ...(Object.keys(e.data).length ? { data: e.data } : {}) };
}

/**
 * The bc text of a message: stripMarkup( $msg->text() ). `text` is already the plain text, so it
 * is not stripped a second time (that would eat a literal `<https://…>`).
 */
function bcText(msg: ApiMessage): string {
  return msg.wikitext !== undefined ? stripMarkup(msg.wikitext) : msg.text;
}

export interface Reported {
  modulePath: string;
  msg: ApiMessage;
}

/**
 * Collects warnings during a request and renders warnings and errors into the result in the
 * shape of the requested errorformat. Module paths are MediaWiki's ("main", "query+revisions").
 */
export class ErrorFormatter {
  private readonly warnings: Reported[] = [];

  constructor(readonly format: ErrorFormat) {}

  addWarning(modulePath: string, msg: ApiMessage): void {
    if (!this.warnings.some((w) => w.modulePath === modulePath && w.msg.code === msg.code && w.msg.text === msg.text)) {
      this.warnings.push({ modulePath, msg });
    }
  }

  hasWarnings(): boolean {
    return this.warnings.length > 0;
  }

  /** Non-bc item: {code, text|html|key+params, data?, module}. */
  private formatItem(r: Reported): ResultObject {
    const { msg } = r;
    const item: ResultObject = { code: msg.code };
    switch (this.format) {
      case 'plaintext':
        setContentValue(item, 'text', msg.text);
        break;
      case 'wikitext':
        setContentValue(item, 'text', msg.wikitext ?? msg.text);
        break;
      case 'html':
        setContentValue(item, 'html', msg.html ?? escapeHtml(msg.text));
        break;
      case 'raw':
        item.key = msg.key ?? `apierror-${msg.code}`;
        item.params = setIndexedTagName([...(msg.rawParams ?? msg.params ?? [])], 'param');
        break;
      default:
        break;
    }
    if (msg.data && Object.keys(msg.data).length > 0) item.data = { ...msg.data, [META.TYPE]: 'assoc' };
    item.module = r.modulePath;
    return item;
  }

  /** The `warnings` value, or undefined when there are none. */
  renderWarnings(): unknown {
    if (this.warnings.length === 0) return undefined;
    if (this.format !== 'bc')
      return setIndexedTagName(
        this.warnings.map((w) => this.formatItem(w)),
        'warning',
      );
    // bc: one text per module (last path segment), lines joined by "\n". Each module's key is
    // added with ADD_ON_TOP (ApiErrorFormatter_BackCompat), so the module warned last comes first.
    const byModule = new Map<string, string[]>();
    for (const w of this.warnings) {
      const name = w.modulePath.slice(w.modulePath.lastIndexOf('+') + 1);
      const text = bcText(w.msg);
      const lines = byModule.get(name) ?? [];
      if (!lines.includes(text)) lines.push(text);
      byModule.set(name, lines);
    }
    const out: ResultObject = {};
    for (const [name, lines] of [...byModule].reverse()) out[name] = setContentValue({}, 'warnings', lines.join('\n'));
    return out;
  }

  /** Writes an error and its docref into `result` (already holding the warnings), as ApiMain::substituteResultWithError. */
  renderError(result: ResultObject, modulePath: string, msg: ApiMessage, docrefUrl: string): void {
    const docref = `${message('', 'api-usage-docref', [docrefUrl]).text} ${MESSAGES['api-usage-mailinglist-ref']}`;
    if (this.format === 'bc') {
      const error: ResultObject = { code: msg.code, info: bcText(msg), ...(msg.data ?? {}) };
      setContentValue(error, 'docref', docref);
      result.error = error;
    } else {
      result.errors = setIndexedTagName([this.formatItem({ modulePath, msg })], 'error');
      setContentValue(result, 'docref', docref);
    }
  }
}
