/*
 * action=import (MediaWiki's ApiImport with ApiImportReporter): an uploaded XML dump (`xml`),
 * its users prefixed with `interwikiprefix` (or given to local accounts with
 * `assignknownusers`), into its own namespaces, one `namespace`, or below `rootpage`. Each page
 * that gets revisions also gets a null revision and an import/upload log entry. Unlike
 * MediaWiki, the whole upload is read and checked first, so a malformed or truncated file
 * writes nothing. $wgImportSources is empty (MediaWiki's default): no interwiki imports.
 */
import { Readable } from 'node:stream';
import { defineModule } from '../define.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { DumpError, readDump, decompressed, type DumpItem } from '../../dump/reader.js';
import { importDump } from '../../dump/importer.js';
import { usageError } from '../errors.js';
import { englishMessage } from '../../i18n/messages.js';
import { editActor } from './writes.js';

export const importModule = defineModule({
  name: 'import',
  group: 'action',
  prefix: '',
  summary:
    'Import a page from another wiki, or from an XML file.\n\nNote that the HTTP POST must be done as a file upload (i.e. using multipart/form-data) when sending a file for the xml parameter.',
  params: {
    summary: { type: 'string', help: 'Log entry import summary.' },
    xml: { type: 'upload', help: 'Uploaded XML file.' },
    interwikiprefix: { type: 'string', help: 'For uploaded imports: interwiki prefix to apply to unknown usernames (and known users if assignknownusers is set).' },
    interwikisource: { type: [], help: 'For interwiki imports: wiki to import from.' },
    interwikipage: { type: 'string', help: 'For interwiki imports: page to import.' },
    fullhistory: { type: 'boolean', default: false, help: 'For interwiki imports: import the full history, not just the current version.' },
    templates: { type: 'boolean', default: false, help: 'For interwiki imports: import all included templates as well.' },
    namespace: { type: 'namespace', help: 'Import to this namespace. Cannot be used together with rootpage.' },
    assignknownusers: { type: 'boolean', default: false, help: 'Assign edits to local users where the named user exists locally.' },
    rootpage: { type: 'string', help: 'Import as subpage of this page. Cannot be used together with namespace.' },
    tags: { type: 'string', multi: true, help: 'Change tags to apply to the entry in the import log and to the null revision on the imported pages.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=import&interwikisource=meta&interwikipage=Help:ParserFunctions&namespace=100&fullhistory=&token=123ABC':
      'Import meta:Help:ParserFunctions to namespace 100 with full history.',
  },
  async execute(ctx) {
    const p = ctx.params;
    if (p.namespace !== undefined && p.rootpage !== undefined) {
      throw usageError('invalidparammix', 'apierror-invalidparammix', ['<var>namespace</var>, <var>rootpage</var>', 2]);
    }
    if (!ctx.caller.user.rights.includes('importupload')) throw usageError('cantimport-upload', 'apierror-cantimport-upload');
    const file = ctx.files.get('xml');
    if (!file) throw usageError('nofile', 'importnofile');
    const prefix = p.interwikiprefix ?? '';
    if (prefix === '') throw usageError('nointerwikiprefix', 'apierror-missingparam', ['interwikiprefix']);

    // The whole upload is parsed before anything is written (it is in memory anyway).
    const items: DumpItem[] = [];
    try {
      for await (const item of readDump(decompressed(Readable.from([file.data])))) items.push(item);
    } catch (e) {
      if (!(e instanceof DumpError)) throw e;
      throw usageError('import-unknownerror', 'apierror-import-unknownerror', [`${e.line ? 'XML error at ' : ''}${e.message.replace(/\.$/, '')}`]);
    }

    const reason = p.summary ?? '';
    // ImportReporter: "$1 revisions imported", ": " and the summary, in the content language;
    // the content service puts in the count, which only it knows.
    const suffix = reason ? `${englishMessage('colon-separator')!.replace('&#32;', ' ')}${reason}` : '';
    const template = englishMessage('import-logentry-upload-detail')!;
    const detail = (one: boolean) => template.replace(/\{\{PLURAL:\$1\|([^|}]*)\|([^}]*)\}\}/, (_m, a: string, b: string) => (one ? a : b)) + suffix;
    const out: ResultObject[] = [];
    await importDump(
      items,
      {
        dumps: ctx.deps.clients.dumps,
        localUsers: async (names) => {
          const r = await ctx.deps.clients.auth.getUsers({ names });
          return new Map(r.users.map((u) => [u.user!.name, u.user!.id]));
        },
      },
      {
        usernamePrefix: prefix.replace(/[:>]+$/, ''),
        assignKnownUsers: p.assignknownusers,
        targetNamespace: p.namespace ?? -1,
        rootPage: p.rootpage ?? '',
        log: { performer: editActor(ctx.caller), reason, detail: detail(true), detailPlural: detail(false), tags: p.tags ?? [], action: 'upload' },
      },
      (results) => {
        for (const r of results) out.push(r.invalid ? { title: r.title, invalid: true } : { ns: r.ns, title: r.title, revisions: r.revisions });
      },
    );
    ctx.result.import = setIndexedTagName(out, 'page');
  },
});
