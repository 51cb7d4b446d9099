/* Which URLs under $wgUploadPath name a file version, thumbnails included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilePath } from './images.js';

const split = (p: string) => p.split('/');

test('current, archived and thumbnail URLs name their file; anything else is no file', () => {
  assert.deepEqual(parseFilePath(split('3/3a/Foobar.jpg')), { name: 'Foobar.jpg', archiveName: '' });
  assert.deepEqual(parseFilePath(split('thumb/3/3a/Foobar.jpg/180px-Foobar.jpg')), { name: 'Foobar.jpg', archiveName: '' });
  assert.deepEqual(parseFilePath(split('thumb/f/ff/Foobar.svg/2000px-Foobar.svg.png')), { name: 'Foobar.svg', archiveName: '' });
  assert.deepEqual(parseFilePath(split('thumb/d/da/Probe.png/300px-Probe.png')), { name: 'Probe.png', archiveName: '' });
  assert.deepEqual(parseFilePath(split('archive/3/3a/20260101000000!Foobar.jpg')), { name: 'Foobar.jpg', archiveName: '20260101000000!Foobar.jpg' });
  assert.equal(parseFilePath(split('thumb/0/00/Foobar.jpg/180px-Foobar.jpg')), undefined, 'a wrong hash path');
  assert.equal(parseFilePath(split('thumb/3/3a/Foobar.jpg/180px-Other.jpg')), undefined, 'another name');
  assert.equal(parseFilePath(split('thumb/3/3a/Foobar.jpg/0px-Foobar.jpg')), undefined, 'no width');
  assert.equal(parseFilePath(split('thumb/3/3a/Foobar.jpg')), undefined, 'no thumbnail name');
  assert.equal(parseFilePath(split('thumb/archive/3/3a/Foobar.jpg/180px-Foobar.jpg')), undefined);
});
