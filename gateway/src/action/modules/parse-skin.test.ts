/* action=parse's skin parts, as MediaWiki 1.39 renders them (answers of the reference wiki). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParseResponse } from '../../clients/types.js';
import { categoriesHtml, limitReportHtml, outputModules, subpageParents, subpageSubtitle } from './parse-skin.js';

test('categorieshtml: missing categories are red links; none gives the all-hidden box', () => {
  assert.equal(
    categoriesHtml(
      [
        { name: 'Qx_plain', missing: true, hidden: false },
        { name: 'Qy', missing: false, hidden: false },
      ],
      0,
      false,
    ),
    '<div id="catlinks" class="catlinks" data-mw="interface"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="/wiki/Special:Categories" title="Special:Categories">Categories</a>: <ul>' +
      '<li><a href="/w/index.php?title=Category:Qx_plain&amp;action=edit&amp;redlink=1" class="new" title="Category:Qx plain (page does not exist)">Qx plain</a></li>' +
      '<li><a href="/wiki/Category:Qy" title="Category:Qy">Qy</a></li></ul></div></div>',
  );
  assert.equal(categoriesHtml([], 0, false), '<div id="catlinks" class="catlinks catlinks-allhidden" data-mw="interface"></div>');
});

test('categorieshtml: hidden categories are listed with the class that hides them, or shows them on a category page', () => {
  const cats = [{ name: 'Maint', missing: false, hidden: true }];
  assert.equal(
    categoriesHtml(cats, 0, false),
    '<div id="catlinks" class="catlinks catlinks-allhidden" data-mw="interface"><div id="mw-hidden-catlinks" class="mw-hidden-catlinks mw-hidden-cats-hidden">Hidden category: <ul><li><a href="/wiki/Category:Maint" title="Category:Maint">Maint</a></li></ul></div></div>',
  );
  assert.match(categoriesHtml(cats, 14, false), /^<div id="catlinks" class="catlinks" data-mw="interface"><div id="mw-hidden-catlinks" class="mw-hidden-catlinks mw-hidden-cats-ns-shown">/);
  assert.match(categoriesHtml(cats, 0, true), /mw-hidden-cats-user-shown/);
});

test('subtitle: the existing parents of a subpage, each link naming the path since the last', () => {
  assert.deepEqual(subpageParents('Talk:A/B/C'), ['Talk:A', 'Talk:A/B']);
  assert.equal(subpageSubtitle('Talk:A', new Set()), '');
  assert.equal(subpageSubtitle('Talk:A/B/C', new Set()), '');
  assert.equal(
    subpageSubtitle('Talk:A/B/C', new Set(['Talk:A', 'Talk:A/B'])),
    '<span class="subpages">&lt; <a href="/wiki/Talk:A" title="Talk:A">Talk:A</a>&lrm; | <a href="/wiki/Talk:A/B" title="Talk:A/B">B</a></span>',
  );
  assert.equal(subpageSubtitle('Talk:A/B/C', new Set(['Talk:A/B'])), '<span class="subpages">&lt; <a href="/wiki/Talk:A/B" title="Talk:A/B">Talk:A/B</a></span>');
});

test('limitreporthtml: the labelled rows, numbers with thousands separators', () => {
  const html = limitReportHtml(
    ParseResponse.fromPartial({
      limits: { cpuSeconds: 0.033, wallSeconds: 0.057, ppVisitedNodes: 23, postExpandIncludeSize: 0, templateArgumentSize: 0, expansionDepth: 2, expensiveFunctions: 0, unstripSize: 297 },
    }),
  );
  assert.equal(
    html,
    '<div class="mw-limitReportExplanation"><p>Parser profiling data:\n</p></div><div class="preview-limit-report-wrapper"><table class="preview-limit-report wikitable"><tbody>' +
      '<tr><th>CPU time usage</th><td>0.033 seconds</td></tr><tr><th>Real time usage</th><td>0.057 seconds</td></tr><tr><th>Preprocessor visited node count</th><td>23/1,000,000</td></tr>' +
      '<tr><th>Post-expand include size</th><td>0/2,097,152 bytes</td></tr><tr><th>Template argument size</th><td>0/2,097,152 bytes</td></tr><tr><th>Highest expansion depth</th><td>2/100</td></tr>' +
      '<tr><th>Expensive parser function count</th><td>0/100</td></tr><tr><th>Unstrip recursion depth</th><td>0/20</td></tr><tr><th>Unstrip post-expand size</th><td>297/5,000,000 bytes</td></tr></tbody></table></div>',
  );
});

test('modules: Cite asks for its modules where a footnote is; a plain page asks for none', () => {
  assert.deepEqual(outputModules('<p>a<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup></p>'), { modules: ['ext.cite.ux-enhancements'], styles: ['ext.cite.styles'] });
  assert.deepEqual(outputModules('<p>a</p>'), { modules: [], styles: [] });
  assert.deepEqual(outputModules('<ul class="gallery mw-gallery-traditional">'), { modules: [], styles: ['mediawiki.page.gallery.styles'] });
});
