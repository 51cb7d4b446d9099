import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hiddenAuthorBits } from '../../revdel.js';
import { parseSegment } from './contributions.js';

test('segments as ContributionsLookup::getPagerParams reads them', () => {
  assert.deepEqual(parseSegment(''), { backwards: false, offset: '' });
  assert.deepEqual(parseSegment('before|20261124214047'), { backwards: false, offset: '20261124214047' });
  assert.deepEqual(parseSegment('after|20261124214047'), { backwards: true, offset: '20261124214047' });
  // Only the first bar splits; an unknown direction or no bar at all means the newest segment.
  assert.deepEqual(parseSegment('before|a|b'), { backwards: false, offset: 'a|b' });
  assert.deepEqual(parseSegment('sideways|20261124214047'), { backwards: false, offset: '' });
  assert.deepEqual(parseSegment('20261124214047'), { backwards: false, offset: '' });
});

test('revisions whose author the caller may not see are left out (ContribsPager)', () => {
  assert.equal(hiddenAuthorBits(['read']), 4);
  assert.equal(hiddenAuthorBits(['read', 'deletedhistory']), 12);
  assert.equal(hiddenAuthorBits(['deletedhistory', 'viewsuppressed']), 0);
  assert.equal(hiddenAuthorBits(['deletedhistory', 'suppressrevision']), 0);
});
