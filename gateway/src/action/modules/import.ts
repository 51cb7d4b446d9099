/*
 * action=import (MediaWiki's ApiImport with ApiImportReporter): an uploaded XML dump (`xml`),
 * its users prefixed with `interwikiprefix` (or given to local accounts with
 * `assignknownusers`), into its own namespaces, one `namespace`, or below `rootpage`. Each page
 * that gets revisions also gets a null revision and an import/upload log entry. Unlike
 * MediaWiki, the whole upload is read and checked first, so a malformed or truncated file
 * writes nothing. $wgImportSources is empty (MediaWiki's default): no interwiki imports.
 */
import type { ImportPageResult } from '../../clients/types.js';
import { defineModule } from '../define.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { DumpError } from '../../dump/reader.js';
import { importUploadedDump } from '../../dump/upload-import.js';
import { usageError } from '../errors.js';
import { editActor } from './writes.js';

export const importModule = defineModule({
  name: 'import',
  group: 'action',
  prefix: '',
  summary: 'Import a page from another wiki, or from an XML file.\n\nNote that the HTTP POST must be done as a file upload (i.e. using multipart/form-data) when sending a file for the xml parameter.',
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
    'action=import&interwikisource=meta&interwikipage=Help:ParserFunctions&namespace=100&fullhistory=&token=123ABC': 'Import meta:Help:ParserFunctions to namespace 100 with full history.',
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

    let results: ImportPageResult[];
    // ApiImport lists the pages only (log items are imported, not reported).
    try {
      results = (
        await importUploadedDump(ctx.deps.clients, file.data, {
          usernamePrefix: prefix,
          assignKnownUsers: p.assignknownusers,
          namespace: p.namespace,
          rootPage: p.rootpage ?? '',
          summary: p.summary ?? '',
          tags: p.tags ?? [],
          maxRevisionKb: ctx.deps.config.maxArticleSizeKb,
          performer: editActor(ctx.caller),
        })
      ).pages;
    } catch (e) {
      if (!(e instanceof DumpError)) throw e;
      throw usageError('import-unknownerror', 'apierror-import-unknownerror', [`${e.line ? 'XML error at ' : ''}${e.message.replace(/\.$/, '')}`]);
    }
    // A page the user may not edit is only a notice in WikiImporter (import-error-edit): ApiImportReporter lists it not.
    const out: ResultObject[] = results
      .filter((r) => r.error !== 'import-error-edit')
      .map((r) => (r.invalid ? { title: r.title, invalid: true } : { ns: r.ns, title: r.title, revisions: r.revisions }));
    ctx.result.import = setIndexedTagName(out, 'page');
  },
});
