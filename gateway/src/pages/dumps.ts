/*
 * Special:Export and Special:Import (MediaWiki's SpecialExport and SpecialImport): pages out as
 * an XML dump (the export writer the action API and dumpBackup use) and an uploaded dump in
 * (the importer action=import uses, through the content service's ImportService client).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '@quire/kit';
import { LinkTable, type ImportPageResult } from '../clients/types.js';
import { editActor, editBlock } from '../action/modules/writes.js';
import { readApiRequest } from '../action/request.js';
import { dumpSiteInfo, exportXml } from '../dump/export.js';
import { DumpError } from '../dump/reader.js';
import { importUploadedDump } from '../dump/upload-import.js';
import { hidden, html, messageBox, multiline, SafeHtml, setSecurityHeaders } from './html.js';
import { articlePath, indexPath, specialPath } from './paths.js';
import { csrfToken, field, queryParam, redirect, send, type PageHandler, type PageRequest } from './request.js';
import { hasRight } from './wiki.js';

/** $wgExportPagelistLimit: pages a category adds to the list. */
const PAGELIST_LIMIT = 5000;

/** A form field, as WebRequest::getText reads it (POST body first, then the query string). */
function text(p: PageRequest, name: string): string {
  return field(p, name) || queryParam(p, name);
}

/** WebRequest::getCheck: the parameter is present at all (a checkbox is ticked). */
function checked(p: PageRequest, name: string): boolean {
  const has = (o: unknown) => o !== null && typeof o === 'object' && Object.hasOwn(o, name);
  return has(p.req.body) || has(p.req.query);
}

/** MediaWiki's TS_MW of now, for the download's file name. */
function nowMw(): string {
  return new Date()
    .toISOString()
    .replace(/[-:TZ]/g, '')
    .slice(0, 14);
}

/** The titles of the textarea: one a line, trimmed, each page once (by its prefixed text), in order. */
export function exportTitleList(pages: string): string[] {
  const seen = new Set<string>();
  for (const line of pages.split('\n')) {
    const t = line.trim();
    if (t !== '') seen.add(t);
  }
  return [...seen];
}

/** SpecialExport::doExport: the page ids of the listed titles (and of their templates) the reader may read. */
async function exportPageIds(p: PageRequest, titles: string[], templates: boolean): Promise<number[]> {
  if (titles.length === 0 || !hasRight(p, 'read')) return [];
  const { content } = p.deps.clients;
  const ids: number[] = [];
  const add = (id: number) => {
    if (id > 0 && !ids.includes(id)) ids.push(id);
  };
  for (let i = 0; i < titles.length; i += 500) {
    const r = await content.resolvePages({ titles: titles.slice(i, i + 500) });
    for (const page of r.pages) if (!page.missing && page.ns >= 0) add(page.id);
  }
  if (templates && ids.length > 0) {
    const used: string[] = [];
    let cont = '';
    do {
      const r = await content.listPageLinks({ table: LinkTable.LINK_TABLE_TEMPLATELINKS, pageIds: ids, limit: 500, continue: cont });
      for (const l of r.links) if (!used.includes(l.title)) used.push(l.title);
      cont = r.continue;
    } while (cont);
    for (let i = 0; i < used.length; i += 500) {
      const r = await content.resolvePages({ titles: used.slice(i, i + 500) });
      for (const page of r.pages) if (!page.missing) add(page.id);
    }
  }
  return ids;
}

/** Streams the dump (application/xml, as SpecialExport sends it; an attachment with wpDownload). */
async function sendExport(p: PageRequest, titles: string[], currentOnly: boolean, templates: boolean, download: boolean): Promise<void> {
  const pageIds = await exportPageIds(p, titles, templates);
  const site = dumpSiteInfo(p.deps.config, await p.deps.clients.content.listNamespaces());
  const { res } = p;
  setSecurityHeaders(res);
  res.status(200).set({ 'Content-Type': 'application/xml; charset=utf-8', 'X-Robots-Tag': 'noindex,nofollow' });
  if (download) res.set('Content-Disposition', `attachment;filename=${encodeURIComponent(`${p.deps.config.sitename}-${nowMw()}.xml`)}`);
  // No page: the document with its siteinfo alone (an empty id list would mean every page).
  await pipeline(Readable.from(exportXml(p.deps.clients.dumps, site, { pageIds: pageIds.length ? pageIds : [-1], listed: true, currentOnly })), res);
}

/** Special:Export (SpecialExport::execute): GET `pages`/subpage → current revisions (`history` for all); POST → `curonly` decides; `addcat` adds a category's pages to the list. */
const exportPage: PageHandler = async (p) => {
  const templates = checked(p, 'templates');
  let pages = '';
  let catname = '';
  if (checked(p, 'addcat')) {
    pages = text(p, 'pages');
    catname = text(p, 'catname').trim();
    if (catname !== '') {
      const cat = await p.deps.clients.content.resolvePages({ titles: [`Category:${catname}`] });
      const title = cat.pages[0]?.title;
      if (title) {
        const members = await p.deps.clients.content.listCategoryMembers({ title, limit: PAGELIST_LIMIT });
        if (members.members.length) pages = `${pages}${pages !== '' ? '\n' : ''}${members.members.map((m) => m.title).join('\n')}`;
      }
    }
  } else if (p.method === 'POST' && !p.subpage) {
    pages = text(p, 'pages');
    if (pages !== '') return sendExport(p, exportTitleList(pages), checked(p, 'curonly'), templates, checked(p, 'wpDownload'));
  } else {
    // GET: current revisions by default; `history` for the full history.
    pages = queryParam(p, 'pages') || (p.subpage ?? '').replaceAll('_', ' ');
    if (pages !== '') return sendExport(p, exportTitleList(pages), !checked(p, 'history'), templates, checked(p, 'wpDownload'));
  }
  const posted = p.method === 'POST';
  const box = (name: string, id: string, label: string, on: boolean) =>
    html`<label><input type="checkbox" name="${name}" id="${id}" value="1"${on ? new SafeHtml(' checked') : ''}> ${label}</label><br>`;
  const body = html`<p>You can export the text and editing history of a particular page or set of pages wrapped in some XML.
This can be imported into another wiki using MediaWiki via the <a href="${specialPath('Import')}">import page</a>.</p>
<p>To export pages, enter the titles in the text box below, one title per line, and select whether you want the current revision as well as all old revisions, with the page history lines, or the current revision with the info about the last edit.</p>
<p>In the latter case you can also use a link, for example <a href="${specialPath('Export', 'Main_Page')}">Special:Export/Main Page</a> for the page "<a href="${articlePath('Main Page')}">Main Page</a>".</p>
<form method="post" action="${specialPath('Export')}" id="mw-export-form">
<label class="field" for="mw-input-catname">Add pages from category:</label><input type="text" name="catname" id="mw-input-catname" value="${catname}" size="40"> <button type="submit" name="addcat" value="Add">Add</button>
<label class="field" for="mw-input-pages">Add pages manually:</label><textarea name="pages" id="mw-input-pages" rows="10">${pages}</textarea>
<fieldset><legend>Options</legend>
${box('curonly', 'curonly', 'Include only the current revision, not the full history', posted ? checked(p, 'curonly') : true)}
${box('templates', 'wpExportTemplates', 'Include templates', posted ? templates : false)}
${box('wpDownload', 'wpDownload', 'Save as file', posted ? checked(p, 'wpDownload') : true)}
</fieldset>
<div class="buttons"><button type="submit" class="primary" id="mw-export-submit">Export</button></div></form>`;
  send(p, { title: 'Export pages', body });
};

/** The result list of an import (ImportReporter): each page with its count, invalid titles, the log items. */
function importReport(results: ImportPageResult[], logItems: number): { list: SafeHtml; good: boolean } {
  let pages = 0;
  const items = results.map((r) => {
    if (r.invalid) return html`<li>Page "${r.title}" was not imported because the name to which it would be imported is invalid on this wiki.</li>`;
    if (r.error === 'import-error-edit') return html`<li>Page "${r.title}" was not imported because you are not allowed to edit it.</li>`;
    pages++;
    const link = html`<a href="${articlePath(r.title)}">${r.title}</a>`;
    return r.revisions > 0
      ? html`<li>${link} <bdi>${r.revisions} revision${r.revisions === 1 ? '' : 's'}</bdi></li>`
      : html`<li>${link} No revisions imported (all were either already present, or skipped due to errors).</li>`;
  });
  if (logItems > 0) items.push(html`<li>Imported ${logItems} log entr${logItems === 1 ? 'y' : 'ies'}.</li>`);
  return { list: html`<ul id="mw-import-result">${items}</ul>`, good: pages > 0 || logItems > 0 };
}

const importForm = async (p: PageRequest, values: Record<string, string>): Promise<SafeHtml> => {
  const namespaces = (await p.deps.site.namespaces()).namespaces.filter((n) => n.id >= 0);
  const mapping = values.mapping || 'default';
  const radio = (value: string, label: string, extra: SafeHtml | '') =>
    html`<label><input type="radio" name="mapping" value="${value}" id="mw-import-mapping-${value}"${mapping === value ? new SafeHtml(' checked') : ''}> ${label}</label> ${extra}<br>`;
  const selected = Number(values.namespace ?? 0);
  return html`<p>Please export the file from the source wiki using the <a href="${specialPath('Export')}">export utility</a>.
Save it to your computer and upload it here.</p>
<form method="post" action="${indexPath('Special:Import', { action: 'submit' })}" enctype="multipart/form-data" id="mw-import-upload-form">
<fieldset><legend>Import from XML file</legend>
<label class="field" for="xmlimport">Filename:</label><input type="file" name="xmlimport" id="xmlimport" accept=".xml,.gz,.bz2,application/xml">
<label class="field" for="mw-import-usernamePrefix">Interwiki prefix:</label><input type="text" name="usernamePrefix" id="mw-import-usernamePrefix" value="${values.usernamePrefix ?? ''}" required>
<p class="help">Unknown users of the file are recorded as "prefix&gt;Name".</p>
<label><input type="checkbox" name="assignKnownUsers" id="mw-import-assignKnownUsers" value="1"${values.assignKnownUsers ? new SafeHtml(' checked') : ''}> Assign edits to local users where the named user exists locally</label>
<p>${radio('default', 'Import to original namespace', '')}
${radio('namespace', 'Import to a namespace:', html`<select name="namespace" aria-label="Namespace">${namespaces.map((n) => html`<option value="${n.id}"${n.id === selected ? new SafeHtml(' selected') : ''}>${n.name || '(Main)'}</option>`)}</select>`)}
${radio('subpage', 'Import as subpages of the following page:', html`<input type="text" name="rootpage" value="${values.rootpage ?? ''}" aria-label="Root page">`)}</p>
<label class="field" for="mw-import-comment">Comment:</label><input type="text" name="log-comment" id="mw-import-comment" value="${values['log-comment'] ?? ''}">
${hidden('source', 'upload')}${hidden('wpEditToken', await csrfToken(p))}
<div class="buttons"><button type="submit" class="primary" id="mw-import-submit">Upload file</button></div></fieldset></form>`;
};

/** Special:Import (SpecialImport): the upload form for sysops (`importupload`); a POST to `action=submit` imports the file. */
const importPage: PageHandler = async (p) => {
  if (p.caller.user.anonymous) return redirect(p, `/w/index.php?title=Special:UserLogin&returnto=Special:Import&warning=exception-nologin-text`);
  if (!hasRight(p, 'import') && !hasRight(p, 'importupload')) {
    return send(p, {
      title: 'Permission error',
      status: 403,
      body: messageBox(
        'error',
        'You do not have permission to import pages from other wikis, for the following reason: The action you have requested is limited to users in the group: Administrators.',
      ),
    });
  }
  if (editBlock(p.caller)) return send(p, { title: 'User is blocked', status: 403, body: messageBox('error', 'You are blocked from importing pages.') });
  let values: Record<string, string> = {};
  let outcome: SafeHtml | '' = '';
  let status = 200;
  if (p.method === 'POST' && queryParam(p, 'action') === 'submit') {
    const req = await readApiRequest(p.req);
    values = Object.fromEntries(req.values);
    p.req.body = values;
    const file = req.files.get('xmlimport');
    const failed = (why: string | SafeHtml) => {
      status = 400;
      return messageBox('error', html`Import failed: ${why}`);
    };
    if (!(await p.deps.clients.auth.checkToken(p.caller.sessionId, 'csrf', values.wpEditToken ?? '')).valid) {
      outcome = failed(multiline("Loss of session data.\n\nYou might have been logged out. Please verify that you're still logged in and try again."));
    } else if (values.source !== 'upload') outcome = failed('Unknown import source type');
    else if (!hasRight(p, 'importupload')) {
      return send(p, { title: 'Permission error', status: 403, body: messageBox('error', 'You do not have permission to import pages from uploaded files.') });
    } else if (!file || file.data.length === 0) outcome = failed(!file ? 'No import file was uploaded.' : 'Could not open import file');
    else if ((values.usernamePrefix ?? '').trim() === '') outcome = failed('No interwiki prefix was supplied');
    else {
      const mapping = values.mapping ?? 'default';
      try {
        const nsValue = values.namespace ?? '';
        const results = await importUploadedDump(p.deps.clients, file.data, {
          usernamePrefix: values.usernamePrefix!.trim(),
          assignKnownUsers: values.assignKnownUsers !== undefined,
          namespace: mapping === 'namespace' && /^\d+$/.test(nsValue) ? Number(nsValue) : undefined,
          rootPage: mapping === 'subpage' ? (values.rootpage ?? '').trim() : '',
          summary: values['log-comment'] ?? '',
          tags: [],
          maxRevisionKb: p.deps.config.maxArticleSizeKb,
          performer: editActor(p.caller),
        });
        const report = importReport(results.pages, results.logItems);
        outcome = html`<p>Importing pages...</p>${report.list}${report.good ? html`<p class="mw-import-success">Import finished!</p>` : failed('No pages to import.')}`;
      } catch (e) {
        if (e instanceof DumpError) outcome = failed(e.message);
        else if (e instanceof ServiceError) outcome = failed(e.message);
        else throw e;
      }
    }
  }
  send(p, { title: 'Import pages', status, body: html`${outcome}${await importForm(p, values)}` });
};

export const DUMP_SPECIAL_HANDLERS = {
  Export: exportPage,
  Import: importPage,
};
