import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAllowedUrl, isUnsafeCss, removeUnsafeAttributes } from './html-safety.js';

describe('isAllowedUrl', () => {
  test('relative, protocol-relative and $wgUrlProtocols URLs are allowed', () => {
    for (const url of [
      '/wiki/Main_Page',
      './Main_Page',
      '#frag',
      '?a=1',
      '',
      'Javascript_page',
      './Javascript:alert(1)',
      '//example.org/x',
      'http://x.org',
      'HTTPS://x.org',
      'mailto:a@b.c',
      'ftp://x',
      'matrix:r/x',
      'tel:+1',
      'urn:isbn:1',
      'news:comp.x',
    ]) {
      assert.equal(isAllowedUrl(url), true, url);
    }
  });

  test('script, data and unknown schemes are refused, however disguised', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:x',
      ' javascript:x',
      '\x01javascript:x',
      'java\tscript:x',
      'java\nscript:x',
      'java\rscript:x',
      'java\x00script:x',
      'java script:x',
      'javascript\u00a0:x',
      '\ufeffjavascript:x',
      'vbscript:msgbox(1)',
      'data:text/html,<script>',
      'DATA:image/svg+xml,x',
      'file:///etc/passwd',
      'blob:x',
      'livescript:x',
      'feed:javascript:x',
    ]) {
      assert.equal(isAllowedUrl(url), false, JSON.stringify(url));
    }
  });
});

describe('isUnsafeCss', () => {
  test('resource loading and script in CSS are found through escapes and comments', () => {
    for (const css of [
      'background:url(javascript:x)',
      'background: URL (x)',
      'width:expression(1)',
      'x:\\65xpression(1)',
      'a:b/*x*/url(y)',
      'behavior:url(a)',
      '-moz-binding:x',
      'background:\\75rl(x)',
      'background-image:image-set(x 1x)',
      '@import "x"',
      'ｕｒｌ(x)',
    ]) {
      assert.equal(isUnsafeCss(css), true, css);
    }
    assert.equal(isUnsafeCss('color: red; width:42px'), false);
  });
});

describe('removeUnsafeAttributes', () => {
  const cases: [string, string][] = [
    ['<a href="javascript:alert(1)" class="image">x</a>', '<a class="image">x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="javascript&colon;alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&Tab;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=javascript:alert(1)>x</a>', '<a>x</a>'],
    ["<a href='vbscript:x' title=t>x</a>", '<a title=t>x</a>'],
    ['<img src="data:image/svg+xml,x" srcset="/a.png 1x, javascript:x 2x" alt="">', '<img alt="">'],
    ['<img srcset="/a.png 1x, //cdn.example/b.png 2x">', '<img srcset="/a.png 1x, //cdn.example/b.png 2x">'],
    ['<form action="javascript:x"><button formaction="data:x">b</button></form>', '<form><button>b</button></form>'],
    ['<video poster="javascript:x"></video>', '<video></video>'],
    ['<svg><a xlink:href="javascript:x">y</a></svg>', '<svg><a>y</a></svg>'],
    ['<div style="background:url(javascript:alert(1))">x</div>', '<div style="/* insecure input */">x</div>'],
    ['<div style="background:&#117;rl(x)">x</div>', '<div style="/* insecure input */">x</div>'],
    ['<span onclick="x" onmouseover=y class="c">', '<span class="c">'],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', '<meta http-equiv="refresh">'],
    ['<meta http-equiv="content-language" content="en"/>', '<meta http-equiv="content-language" content="en"/>'],
    ['<a title="x>y" href="javascript:x">z</a>', '<a title="x>y">z</a>'],
    ['<a title=\'<a href="javascript:x">\' href="/wiki/X">', '<a title=\'<a href="javascript:x">\' href="/wiki/X">'],
    ['<!-- <a href="javascript:x"> --><a href="javascript:y">', '<!-- <a href="javascript:x"> --><a>'],
    ['<!--><a href="javascript:y">', '<!--><a>'],
    ['<!---><a href="javascript:y">', '<!---><a>'],
    ['</a href="javascript:x"><b>', '</a href="javascript:x"><b>'],
    [
      '<a href="/wiki/Main_Page" title="Main Page">M</a> <a rel="nofollow" class="external text" href="https://example.org/?a=1&amp;b=2">e</a>',
      '<a href="/wiki/Main_Page" title="Main Page">M</a> <a rel="nofollow" class="external text" href="https://example.org/?a=1&amp;b=2">e</a>',
    ],
    ['a < b and <3 <a href="javascript:x">', 'a < b and <3 <a>'],
    ['<a href="javascript:x"', '<a'],
    // Parsoid's data-mw: the HTML it carries gets the same pass; its wikitext (`wt`) is inert text.
    [
      `<span typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"params":{"1":{"wt":"javascript:x","html":"<a href=\\"javascript:alert(1)\\" title=\\"t\\">x</a>"}}}}]}'>x</span>`,
      '<span typeof="mw:Transclusion" data-mw="{&quot;parts&quot;:[{&quot;template&quot;:{&quot;params&quot;:{&quot;1&quot;:{&quot;wt&quot;:&quot;javascript:x&quot;,&quot;html&quot;:&quot;&lt;a title=\\&quot;t\\&quot;&gt;x&lt;/a&gt;&quot;}}}}]}">x</span>',
    ],
    [`<span data-mw='{"body":{"html":"<b>safe</b>"}}'>`, `<span data-mw='{"body":{"html":"<b>safe</b>"}}'>`],
    ['<span data-mw="not json">', '<span data-mw="not json">'],
  ];
  for (const [input, expected] of cases) {
    test(input, () => assert.equal(removeUnsafeAttributes(input), expected));
  }

  test('safe HTML is returned unchanged (the same string)', () => {
    const html = '<div class="mw-parser-output"><p><a href="/wiki/X" title="X">X</a><img src="/w/images/a/ab/P.png" style="width:42px;"/></p></div>';
    assert.equal(removeUnsafeAttributes(html), html);
  });
});
