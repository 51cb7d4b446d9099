import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatModules, type PrintRequest } from './format.js';
import { setIndexedTagName } from './types.js';

const request = (params: PrintRequest['params']): PrintRequest => ({
  result: { batchcomplete: true, query: { pages: setIndexedTagName([{ title: 'a>b & "c"', invalid: true }], 'page') } },
  params,
  httpStatus: 200,
  posted: false,
  query: [['action', 'query']],
  scriptUrl: 'http://w/w/api.php',
  sitename: 'Wiki',
});
const print = (name: string, params: PrintRequest['params'] = {}) => formatModules.find((f) => f.name === name)!.print(request(params));
const pre = (html: string) => /<pre class="api-pretty-content">([\s\S]*)<\/pre>/.exec(html)?.[1] ?? '';

test('xmlfm and phpfm: the xml and php texts in the HTML page, escaped as Html::element (& and < only)', () => {
  const xml = print('xml');
  assert.equal(xml.contentType, 'text/xml');
  assert.equal(xml.body, '<?xml version="1.0"?><api batchcomplete=""><query><pages><page title="a&gt;b &amp; &quot;c&quot;" invalid="" /></pages></query></api>');
  const xmlfm = print('xmlfm');
  assert.equal(xmlfm.contentType, 'text/html');
  assert.equal(
    pre(xmlfm.body),
    '&lt;?xml version="1.0"?>\n&lt;api batchcomplete="">\n  &lt;query>\n    &lt;pages>\n      &lt;page title="a&amp;gt;b &amp;amp; &amp;quot;c&amp;quot;" invalid="" />\n    &lt;/pages>\n  &lt;/query>\n&lt;/api>',
  );
  assert.match(
    xmlfm.body,
    /To see the non-HTML representation of the XML format, set <a rel="nofollow" class="external text" href="http:\/\/w\/w\/api\.php\?action=query&amp;format=xml"><kbd>format=xml<\/kbd><\/a>/,
  );
  const php = print('php', { formatversion: '2' });
  assert.equal(php.body, 'a:2:{s:13:"batchcomplete";b:1;s:5:"query";a:1:{s:5:"pages";a:1:{i:0;a:2:{s:5:"title";s:9:"a>b & "c"";s:7:"invalid";b:1;}}}}');
  assert.equal(pre(print('phpfm', { formatversion: '2' }).body), 'a:2:{s:13:"batchcomplete";b:1;s:5:"query";a:1:{s:5:"pages";a:1:{i:0;a:2:{s:5:"title";s:9:"a>b &amp; "c"";s:7:"invalid";b:1;}}}}');
  // jsonfm keeps ">" as it is, like MediaWiki.
  assert.match(pre(print('jsonfm', { formatversion: '2' }).body), /"title": "a>b &amp; \\"c\\""/);
});

test('the …fm formats take wrappedhtml; paraminfo names them', () => {
  assert.deepEqual(Object.keys(formatModules.find((f) => f.name === 'xmlfm')!.params), ['wrappedhtml', 'xslt', 'includexmlnamespace']);
  assert.deepEqual(Object.keys(formatModules.find((f) => f.name === 'phpfm')!.params), ['wrappedhtml', 'formatversion']);
  const wrapped = print('phpfm', { wrappedhtml: true });
  assert.equal(wrapped.contentType, 'text/mediawiki-api-prettyprint-wrapped');
  assert.equal(JSON.parse(wrapped.body).status, 200);
});
