/*
 * Images and galleries as MediaWiki 1.39 renders them with its default (legacy) media DOM. Each
 * expected HTML is the reference wiki's action=parse output for the same wikitext, with the same
 * two files uploaded (a 1941×220 JPEG and a 135×135 PNG) and its default settings ($wgThumbLimits
 * and the default thumbsize: 300px thumbs; $wgThumbUpright 0.75).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';
import { fileUrlPath } from '../files/paths.js';
import { fitBoxWidth, matchImageOption, parseWidthParam, phpFloat, srcset, transform } from './media.js';

const pages = new MemoryLookup({ 'Main Page': 'x', 'File:Barfoo.jpg': '#REDIRECT [[File:Foobar.jpg]]', 'Template:1x': '{{{1}}}' });
const JPEG = { width: 1941, height: 220, mime: 'image/jpeg', url: fileUrlPath('Foobar.jpg') };
const SVG = { width: 240, height: 180, mime: 'image/svg+xml', url: fileUrlPath('Foobar.svg') };
pages.addFile('Foobar.jpg', JPEG);
pages.addFile('Thumb.png', { width: 135, height: 135, mime: 'image/png', url: fileUrlPath('Thumb.png') });
pages.addFile('Foobar.svg', SVG);
pages.addFile('LoremIpsum.djvu', { width: 2480, height: 3508, mime: 'image/vnd.djvu', url: fileUrlPath('LoremIpsum.djvu') });
pages.addFile('Video.ogv', { width: 320, height: 240, mime: 'application/ogg', url: fileUrlPath('Video.ogv') });

/** The content of mw-parser-output without the limit report. */
async function body(text: string): Promise<string> {
  const html = (await renderTest(text, { pages })).html;
  return html.replace(/^<div class="mw-parser-output">/, '').replace(/\n?<!-- \nNewPP limit report[\s\S]*$/, '');
}

const REFERENCE: [string, string, string][] = [
  [
    'a missing file, floated',
    '[[File:Nope.jpg|right]]',
    '<div class="floatright"><a href="/w/index.php?title=Special:Upload&amp;wpDestFile=Nope.jpg" class="new" title="File:Nope.jpg">File:Nope.jpg</a></div>',
  ],
  [
    'a thumb at the default width, with srcset',
    '[[File:Foobar.jpg|thumb|cap]]',
    '<div class="thumb tright"><div class="thumbinner" style="width:302px;"><a href="/wiki/File:Foobar.jpg" class="image"><img alt="" src="/w/images/thumb/3/3a/Foobar.jpg/300px-Foobar.jpg" decoding="async" width="300" height="34" class="thumbimage" srcset="/w/images/thumb/3/3a/Foobar.jpg/450px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/600px-Foobar.jpg 2x" /></a>  <div class="thumbcaption"><div class="magnify"><a href="/wiki/File:Foobar.jpg" class="internal" title="Enlarge"></a></div>cap</div></div></div>',
  ],
  [
    'upright: 0.75 of the default, rounded to ten',
    '[[File:Foobar.jpg|thumb|upright|left]]',
    '<div class="thumb tleft"><div class="thumbinner" style="width:232px;"><a href="/wiki/File:Foobar.jpg" class="image"><img alt="Foobar.jpg" src="/w/images/thumb/3/3a/Foobar.jpg/230px-Foobar.jpg" decoding="async" width="230" height="26" class="thumbimage" srcset="/w/images/thumb/3/3a/Foobar.jpg/345px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/460px-Foobar.jpg 2x" /></a>  <div class="thumbcaption"><div class="magnify"><a href="/wiki/File:Foobar.jpg" class="internal" title="Enlarge"></a></div></div></div></div>',
  ],
  [
    'frameless',
    '[[File:Foobar.jpg|frameless]]',
    '<p><a href="/wiki/File:Foobar.jpg" class="image"><img alt="Foobar.jpg" src="/w/images/thumb/3/3a/Foobar.jpg/300px-Foobar.jpg" decoding="async" width="300" height="34" srcset="/w/images/thumb/3/3a/Foobar.jpg/450px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/600px-Foobar.jpg 2x" /></a>\n</p>',
  ],
  [
    'a bitmap is not scaled up; border',
    '[[File:Foobar.jpg|2000px|border]]',
    '<p><a href="/wiki/File:Foobar.jpg" class="image"><img alt="Foobar.jpg" src="/w/images/3/3a/Foobar.jpg" decoding="async" width="2000" height="227" class="thumbborder" /></a>\n</p>',
  ],
  [
    'height only, alt and class',
    '[[File:Foobar.jpg|x100px|left|alt=A|class=k]]',
    '<div class="floatleft"><a href="/wiki/File:Foobar.jpg" class="image"><img alt="A" src="/w/images/thumb/3/3a/Foobar.jpg/883px-Foobar.jpg" decoding="async" width="883" height="100" class="k" srcset="/w/images/thumb/3/3a/Foobar.jpg/1324px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/1765px-Foobar.jpg 2x" /></a></div>',
  ],
  [
    'frame, centred, unscaled',
    '[[File:Thumb.png|frame|centre|Cap]]',
    '<div class="center"><div class="thumb tnone"><div class="thumbinner" style="width:137px;"><a href="/wiki/File:Thumb.png" class="image"><img alt="" src="/w/images/e/ea/Thumb.png" decoding="async" width="135" height="135" class="thumbimage" /></a>  <div class="thumbcaption">Cap</div></div></div></div>',
  ],
  [
    'a missing file in a thumb',
    '[[File:Nope.jpg|thumb|upright|A cap]]',
    '<div class="thumb tright"><div class="thumbinner" style="width:132px;"><a href="/w/index.php?title=Special:Upload&amp;wpDestFile=Nope.jpg" class="new" title="File:Nope.jpg">File:Nope.jpg</a>  <div class="thumbcaption">A cap</div></div></div>',
  ],
  [
    'a manual thumbnail',
    '[[File:Foobar.jpg|thumbnail=Thumb.png|Manual]]',
    '<div class="thumb tright"><div class="thumbinner" style="width:137px;"><a href="/wiki/File:Foobar.jpg" title="File:Foobar.jpg"><img alt="" src="/w/images/e/ea/Thumb.png" decoding="async" width="135" height="135" class="thumbimage" /></a>  <div class="thumbcaption"><div class="magnify"><a href="/wiki/File:Foobar.jpg" class="internal" title="Enlarge"></a></div>Manual</div></div></div>',
  ],
  [
    'vertical alignment without a link',
    '[[File:Foobar.jpg|middle|20px|link=]]',
    '<p><img alt="Foobar.jpg" src="/w/images/thumb/3/3a/Foobar.jpg/20px-Foobar.jpg" decoding="async" width="20" height="2" style="vertical-align: middle" srcset="/w/images/thumb/3/3a/Foobar.jpg/30px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/40px-Foobar.jpg 2x" />\n</p>',
  ],
  [
    'packed gallery with a caption and a missing file',
    '<gallery mode="packed" caption="Hi">\nFoobar.jpg|one\nNope.jpg\n</gallery>',
    '<ul class="gallery mw-gallery-packed">\n\t<li class="gallerycaption">Hi</li>\n\t\t<li class="gallerybox" style="width: 1061.3333333333px"><div style="width: 1061.3333333333px">\n\t\t\t<div class="thumb" style="width: 1059.3333333333px;"><div style="margin:0px auto;"><a href="/wiki/File:Foobar.jpg" class="image" title="one"><img alt="one" src="/w/images/thumb/3/3a/Foobar.jpg/1589px-Foobar.jpg" decoding="async" width="1060" height="120" srcset="/w/images/3/3a/Foobar.jpg 1.5x" /></a></div></div>\n\t\t\t<div class="gallerytext">\n<p>one\n</p>\n\t\t\t</div>\n\t\t</div></li>\n\t\t<li class="gallerybox" style="width: 122px"><div style="width: 122px">\n\t\t\t<div class="thumb" style="height: 120px;">Nope.jpg</div>\n\t\t\t<div class="gallerytext">\n\t\t\t</div>\n\t\t</div></li>\n</ul>',
  ],
  [
    'gallery sizes, perrow, class, link and alt',
    '<gallery widths=200px heights=100 perrow=3 class="x">\nFile:Foobar.jpg|link=Main Page|alt=Alt|Cap\nFile:Thumb.png\n</gallery>',
    '<ul class="gallery mw-gallery-traditional x" style="max-width: 729px;">\n\t\t<li class="gallerybox" style="width: 235px"><div style="width: 235px">\n\t\t\t<div class="thumb" style="width: 230px;"><div style="margin:53.5px auto;"><a href="/wiki/Main_Page" title="Cap"><img alt="Alt" src="/w/images/thumb/3/3a/Foobar.jpg/200px-Foobar.jpg" decoding="async" width="200" height="23" srcset="/w/images/thumb/3/3a/Foobar.jpg/300px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/400px-Foobar.jpg 2x" /></a></div></div>\n\t\t\t<div class="gallerytext">\n<p>Cap\n</p>\n\t\t\t</div>\n\t\t</div></li>\n\t\t<li class="gallerybox" style="width: 235px"><div style="width: 235px">\n\t\t\t<div class="thumb" style="width: 230px;"><div style="margin:15px auto;"><a href="/wiki/File:Thumb.png" class="image"><img alt="Thumb.png" src="/w/images/thumb/e/ea/Thumb.png/100px-Thumb.png" decoding="async" width="100" height="100" srcset="/w/images/e/ea/Thumb.png 1.5x" /></a></div></div>\n\t\t\t<div class="gallerytext">\n\t\t\t</div>\n\t\t</div></li>\n</ul>',
  ],
  [
    'nolines gallery with file names',
    '<gallery mode=nolines showfilename>\nThumb.png\n</gallery>',
    '<ul class="gallery mw-gallery-nolines">\n\t\t<li class="gallerybox" style="width: 125px"><div style="width: 125px">\n\t\t\t<div class="thumb" style="width: 120px;"><div style="margin:0px auto;"><a href="/wiki/File:Thumb.png" class="image"><img alt="Thumb.png" src="/w/images/thumb/e/ea/Thumb.png/120px-Thumb.png" decoding="async" width="120" height="120" srcset="/w/images/e/ea/Thumb.png 1.5x" /></a></div></div>\n\t\t\t<div class="gallerytext">\n<p><a href="/wiki/File:Thumb.png" class="galleryfilename galleryfilename-truncate" title="File:Thumb.png">Thumb.png</a>\n</p>\n\t\t\t</div>\n\t\t</div></li>\n</ul>',
  ],
];

describe('media as the reference wiki renders it', () => {
  for (const [name, text, html] of REFERENCE) test(name, async () => assert.equal(await body(text), html));
});

describe('media (MediaWiki parser tests)', () => {
  test('a missing file whose page is a redirect links the redirect', async () => {
    assert.equal(await body('[[Image:Barfoo.jpg]]'), '<p><a href="/wiki/File:Barfoo.jpg" class="mw-redirect" title="File:Barfoo.jpg">File:Barfoo.jpg</a>\n</p>');
  });
  test('a vector image is always thumbnailed, to PNG, and may be enlarged', async () => {
    assert.equal(
      await body('[[File:Foobar.svg|frameless|2000px]]'),
      '<p><a href="/wiki/File:Foobar.svg" class="image"><img alt="Foobar.svg" src="/w/images/thumb/f/ff/Foobar.svg/2000px-Foobar.svg.png" decoding="async" width="2000" height="1500" srcset="/w/images/thumb/f/ff/Foobar.svg/3000px-Foobar.svg.png 1.5x, /w/images/thumb/f/ff/Foobar.svg/4000px-Foobar.svg.png 2x" /></a>\n</p>',
    );
  });
  test('only the first format counts; later ones are captions', async () => {
    assert.equal(
      await body('[[File:Foobar.jpg|frameless|thumb|caption]]'),
      '<p><a href="/wiki/File:Foobar.jpg" class="image" title="caption"><img alt="caption" src="/w/images/thumb/3/3a/Foobar.jpg/300px-Foobar.jpg" decoding="async" width="300" height="34" srcset="/w/images/thumb/3/3a/Foobar.jpg/450px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/600px-Foobar.jpg 2x" /></a>\n</p>',
    );
  });
  test("an SVG's language names its thumbnails and its description link", async () => {
    assert.equal(
      await body('[[File:Foobar.svg|lang=de|thumb|caption]]'),
      '<div class="thumb tright"><div class="thumbinner" style="width:302px;"><a href="/w/index.php?title=File:Foobar.svg&amp;lang=de" class="image"><img alt="" src="/w/images/thumb/f/ff/Foobar.svg/langde-300px-Foobar.svg.png" decoding="async" width="300" height="225" class="thumbimage" srcset="/w/images/thumb/f/ff/Foobar.svg/langde-450px-Foobar.svg.png 1.5x, /w/images/thumb/f/ff/Foobar.svg/langde-600px-Foobar.svg.png 2x" /></a>  <div class="thumbcaption"><div class="magnify"><a href="/wiki/File:Foobar.svg" class="internal" title="Enlarge"></a></div>caption</div></div></div>',
    );
    assert.match(await body('[[File:Foobar.svg|lang=invalid:language:code|thumb]]'), /<div class="thumbcaption">.*<\/div>lang=invalid:language:code<\/div>/);
  });
  test('a DjVu page is rendered to JPEG and kept in the description link', async () => {
    assert.equal(
      await body('[[File:LoremIpsum.djvu|page=2]]'),
      '<p><a href="/w/index.php?title=File:LoremIpsum.djvu&amp;page=2" class="image"><img alt="LoremIpsum.djvu" src="/w/images/thumb/5/5f/LoremIpsum.djvu/page2-2480px-LoremIpsum.djvu.jpg" decoding="async" width="2480" height="3508" srcset="/w/images/thumb/5/5f/LoremIpsum.djvu/page2-3720px-LoremIpsum.djvu.jpg 1.5x, /w/images/thumb/5/5f/LoremIpsum.djvu/page2-4960px-LoremIpsum.djvu.jpg 2x" /></a>\n</p>',
    );
  });
  test("a gallery's caption is wikitext: templates expand, links link", async () => {
    assert.match(await body('<gallery caption="{{1x|hi}} [[Main Page]]">\nThumb.png\n</gallery>'), /<li class="gallerycaption">hi <a href="\/wiki\/Main_Page" title="Main Page">Main Page<\/a><\/li>/);
  });
  test('a file core cannot show inline links its page', async () => {
    assert.equal(await body('[[File:Video.ogv|thumb]]'), '<p><a href="/wiki/File:Video.ogv" title="File:Video.ogv">File:Video.ogv</a>\n</p>');
  });
});

describe('the bad image list', () => {
  const listed = new MemoryLookup({ 'MediaWiki:Bad image list': '* [[File:Bad.jpg]] except [[Nice page]]\n[[File:Foobar.jpg]] (no bullet: not listed)' });
  listed.addFile('Bad.jpg', JPEG);
  listed.addFile('Foobar.jpg', JPEG);
  const render = async (text: string, title = 'Test') =>
    (await renderTest(text, { pages: listed, title })).html.replace(/^<div class="mw-parser-output">/, '').replace(/\n?<!-- \nNewPP limit report[\s\S]*$/, '');
  test('a listed file is a link to its page, except on the pages its line names', async () => {
    assert.equal(await render('[[File:Bad.jpg]]'), '<p><a href="/wiki/File:Bad.jpg" title="File:Bad.jpg">File:Bad.jpg</a>\n</p>');
    assert.match(await render('[[File:Bad.jpg]]', 'Nice page'), /<img alt="Bad.jpg" src="\/w\/images\//);
    assert.match(await render('[[File:Foobar.jpg]]'), /<img /);
  });
  test('in a gallery and as a manual thumbnail', async () => {
    assert.match(await render('<gallery>\nBad.jpg\n</gallery>'), /<div class="thumb" style="height: 150px;"><a href="\/wiki\/File:Bad.jpg" title="File:Bad.jpg">Bad.jpg<\/a><\/div>/);
    assert.equal(
      await render('[[File:Foobar.jpg|thumb=Bad.jpg|Uh oh]]'),
      '<div class="thumb tright"><div class="thumbinner" style="width:1943px;"><a href="/wiki/File:Foobar.jpg" title="File:Foobar.jpg">File:Foobar.jpg</a>  <div class="thumbcaption">Uh oh</div></div></div>',
    );
  });
});

describe('link= as Parser::parseLinkParameter reads it', () => {
  test('a wikilink counts as its target; titles are percent-decoded', async () => {
    assert.match(await body('[[File:Foobar.jpg|link=[[Main Page]]|c]]'), /^<p><a href="\/wiki\/Main_Page" title="c"><img alt="c" /);
    assert.match(await body('[[File:Foobar.jpg|link=Test%22123]]'), /^<p><a href="\/wiki\/Test%22123" title="Test&quot;123"><img /);
  });
  test('a title on another wiki links there', async () => {
    assert.match(await body('[[File:Foobar.jpg|link=[[wikipedia:Foo]]|caption]]'), /^<p><a href="https:\/\/en.wikipedia.org\/wiki\/Foo" title="caption"><img alt="caption" /);
    assert.match(await body('[[File:Foobar.jpg|link=wikipedia:Foo]]'), /^<p><a href="https:\/\/en.wikipedia.org\/wiki\/Foo" title="wikipedia:Foo"><img /);
  });
});

describe('media arithmetic', () => {
  test('File::transform: thumbnails below the width, the original at or above it', () => {
    assert.deepEqual(transform(JPEG, 180), { url: '/w/images/thumb/3/3a/Foobar.jpg/180px-Foobar.jpg', width: 180, height: 20 });
    assert.deepEqual(transform(JPEG, 2000), { url: '/w/images/3/3a/Foobar.jpg', width: 2000, height: 227 });
    assert.deepEqual(transform(JPEG, 1941, 100), { url: '/w/images/thumb/3/3a/Foobar.jpg/883px-Foobar.jpg', width: 883, height: 100 });
    assert.equal(transform(SVG, 240).url, '/w/images/thumb/f/ff/Foobar.svg/240px-Foobar.svg.png');
  });
  test('srcset leaves out the 1x URL and repeats no URL', () => {
    const shown = transform(JPEG, 1000);
    assert.equal(srcset(JPEG, shown, 1000), '/w/images/thumb/3/3a/Foobar.jpg/1500px-Foobar.jpg 1.5x, /w/images/3/3a/Foobar.jpg 2x');
    assert.equal(srcset(JPEG, transform(JPEG, 1941), 1941), '');
    const small = { width: 135, height: 135, mime: 'image/png', url: '/w/images/e/ea/Thumb.png' };
    assert.equal(srcset(small, transform(small, 120, 120), 120, 120), '/w/images/e/ea/Thumb.png 1.5x');
  });
  test('fitBoxWidth, parseWidthParam, option words, PHP floats', () => {
    assert.equal(fitBoxWidth(1941, 220, 100), 883);
    assert.deepEqual(parseWidthParam('200x20px'), { width: 200, height: 20 });
    assert.deepEqual(parseWidthParam('x20'), { width: 0, height: 20 });
    assert.deepEqual(parseWidthParam('20px'), { width: 20 });
    assert.deepEqual(parseWidthParam('abc'), {});
    assert.deepEqual(matchImageOption('20pxpx'), { kind: 'width', value: '20px' });
    assert.deepEqual(matchImageOption('centre'), { kind: 'halign', align: 'center' });
    assert.deepEqual(matchImageOption('thumb=Thumb.png'), { kind: 'format', format: 'manualthumb', value: 'Thumb.png' });
    assert.equal(matchImageOption('Thumb'), undefined);
    assert.equal(phpFloat(1592 / 1.5), '1061.3333333333');
  });
});

describe('the new media DOM ($wgParserEnableLegacyMediaDOM false)', () => {
  // Expectations from MediaWiki 1.39's mediaParserTests.txt (its html/php), with this wiki's upload
  // path and its default thumb width of 300px.
  const listed = new MemoryLookup({ 'MediaWiki:Bad image list': '* [[File:Bad.jpg]]', 'File:Barfoo.jpg': '#REDIRECT [[File:Foobar.jpg]]' });
  listed.addFile('Bad.jpg', { ...JPEG, url: fileUrlPath('Bad.jpg') });
  listed.addFile('Foobar.jpg', JPEG);
  const render = async (text: string) =>
    (await renderTest(text, { pages: listed, site: { legacyMediaDom: false } })).html.replace(/^<div class="mw-parser-output">/, '').replace(/\n?<!-- \nNewPP limit report[\s\S]*$/, '');
  const IMG = '<img alt="Foobar.jpg" src="/w/images/3/3a/Foobar.jpg" decoding="async" width="1941" height="220" />';
  test('an inline image is a span typed mw:File; its link is the description, classed mw-file-description', async () => {
    assert.equal(await render('[[File:Foobar.jpg]]'), `<p><span class="mw-default-size" typeof="mw:File"><a href="/wiki/File:Foobar.jpg" class="mw-file-description">${IMG}</a></span>\n</p>`);
  });
  test('an aligned image is a figure with its caption; a vertical alignment and a border are classes', async () => {
    assert.equal(
      await render('[[File:Foobar.jpg|right|Caption text]]'),
      '<figure class="mw-default-size mw-halign-right" typeof="mw:File"><a href="/wiki/File:Foobar.jpg" class="mw-file-description" title="Caption text"><img alt="Caption text" src="/w/images/3/3a/Foobar.jpg" decoding="async" width="1941" height="220" /></a><figcaption>Caption text</figcaption></figure>',
    );
    assert.equal(
      await render('[[File:Foobar.jpg|middle|border|class=x]]'),
      `<p><span class="mw-default-size mw-valign-middle mw-image-border x" typeof="mw:File"><a href="/wiki/File:Foobar.jpg" class="mw-file-description">${IMG}</a></span>\n</p>`,
    );
  });
  test('an explicit width drops mw-default-size; an unlinked image keeps its tooltip on a span', async () => {
    assert.match(
      await render('[[File:Foobar.jpg|200px]]'),
      /^<p><span typeof="mw:File"><a href="\/wiki\/File:Foobar.jpg" class="mw-file-description"><img alt="Foobar.jpg" src="\/w\/images\/thumb\/3\/3a\/Foobar.jpg\/200px-Foobar.jpg"/,
    );
    assert.equal(
      await render('[[File:Foobar.jpg|link=|stuff]]'),
      '<p><span class="mw-default-size" typeof="mw:File"><span title="stuff"><img alt="stuff" src="/w/images/3/3a/Foobar.jpg" decoding="async" width="1941" height="220" /></span></span>\n</p>',
    );
  });
  test('a thumb is a figure typed mw:File/Thumb, without the magnify link', async () => {
    assert.equal(
      await render('[[File:Foobar.jpg|thumb|left|cap]]'),
      '<figure class="mw-default-size mw-halign-left" typeof="mw:File/Thumb"><a href="/wiki/File:Foobar.jpg" class="mw-file-description"><img alt="" src="/w/images/thumb/3/3a/Foobar.jpg/300px-Foobar.jpg" decoding="async" width="300" height="34" srcset="/w/images/thumb/3/3a/Foobar.jpg/450px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/600px-Foobar.jpg 2x" /></a><figcaption>cap</figcaption></figure>',
    );
    assert.match(await render('[[File:Foobar.jpg|frame|cap]]'), /^<figure typeof="mw:File\/Frame"><a /);
  });
  test('a missing or bad file is an error typed link around a sized mw-broken-media span', async () => {
    assert.equal(
      await render('[[File:Nope.jpg|thumb|cap]]'),
      '<figure class="mw-default-size" typeof="mw:Error mw:File/Thumb"><a href="/w/index.php?title=Special:Upload&amp;wpDestFile=Nope.jpg" class="new" title="File:Nope.jpg"><span class="mw-broken-media" data-width="180">File:Nope.jpg</span></a><figcaption>cap</figcaption></figure>',
    );
    assert.equal(
      await render('[[File:Bad.jpg]]'),
      '<p><span class="mw-default-size" typeof="mw:Error mw:File"><a href="/wiki/File:Bad.jpg" title="File:Bad.jpg"><span class="mw-broken-media" data-width="1941">File:Bad.jpg</span></a></span>\n</p>',
    );
    assert.equal(
      await render('[[File:Foobar.jpg|thumb=Bad.jpg|Uh oh]]'),
      '<figure typeof="mw:Error mw:File/Thumb"><a href="/wiki/File:Foobar.jpg" title="File:Foobar.jpg"><span class="mw-broken-media" data-width="300">File:Foobar.jpg</span></a><figcaption>Uh oh</figcaption></figure>',
    );
  });
  test('a gallery: spans typed mw:File, a traditional thumb box with its height, no inner divs', async () => {
    assert.equal(
      await render('<gallery>\nFile:Foobar.jpg|link=|stuff\nFile:Bad.jpg\n</gallery>'),
      [
        '<ul class="gallery mw-gallery-traditional">',
        '\t\t<li class="gallerybox" style="width: 155px">',
        '\t\t\t<div class="thumb" style="width: 150px; height: 150px;"><span typeof="mw:File"><span title="stuff"><img alt="stuff" src="/w/images/thumb/3/3a/Foobar.jpg/120px-Foobar.jpg" decoding="async" width="120" height="14" srcset="/w/images/thumb/3/3a/Foobar.jpg/180px-Foobar.jpg 1.5x, /w/images/thumb/3/3a/Foobar.jpg/240px-Foobar.jpg 2x" /></span></span></div>',
        '\t\t\t<div class="gallerytext">\n<p>stuff\n</p>\n\t\t\t</div>',
        '\t\t</li>',
        '\t\t<li class="gallerybox" style="width: 155px">',
        '\t\t\t<div class="thumb" style="height: 150px;"><span typeof="mw:Error mw:File"><a href="/wiki/File:Bad.jpg" title="File:Bad.jpg"><span class="mw-broken-media" data-width="120" data-height="120">File:Bad.jpg</span></a></span></div>',
        '\t\t\t<div class="gallerytext">\n\t\t\t</div>',
        '\t\t</li>',
        '</ul>',
      ].join('\n'),
    );
  });
});
