import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockFromOptions, parseTimeCorrection, withClock, WIKI_CLOCK } from './user-clock.js';
import { formatDateAt, formatDay, formatTime } from './wiki.js';

const AT = '2001-01-15T16:12:34Z';

test('the wiki clock: dmy in UTC, as the default preference shows', () => {
  assert.equal(formatTime(AT), '16:12, 15 January 2001');
  assert.equal(formatDateAt(AT), '15 January 2001, at 16:12');
});

test('each date preference formats as Language::userTimeAndDate does in English', async () => {
  const seen: Record<string, string> = {};
  for (const date of ['default', 'mdy', 'dmy', 'ymd', 'ISO 8601']) {
    seen[date] = await withClock(clockFromOptions({ date }), async () => formatTime(AT));
  }
  assert.deepEqual(seen, {
    default: '16:12, 15 January 2001',
    mdy: '16:12, January 15, 2001',
    dmy: '16:12, 15 January 2001',
    ymd: '16:12, 2001 January 15',
    'ISO 8601': '2001-01-15T16:12:34',
  });
});

test('the time correction shifts every time shown, across a day boundary too', async () => {
  assert.equal(await withClock(clockFromOptions({ timecorrection: 'Offset|480' }), async () => formatTime(AT)), '00:12, 16 January 2001');
  assert.equal(await withClock(clockFromOptions({ timecorrection: 'Offset|-300', date: 'mdy' }), async () => formatDay(AT)), 'January 15, 2001');
  assert.equal(await withClock(clockFromOptions({ timecorrection: 'ZoneInfo|60|Europe/Berlin' }), async () => formatTime('2001-07-01T12:00:00Z')), '14:00, 1 July 2001', 'the zone’s summer time');
  assert.deepEqual(parseTimeCorrection('Offset|99999'), { offsetMinutes: 0 });
  assert.deepEqual(parseTimeCorrection('nonsense'), { offsetMinutes: 0 });
  assert.deepEqual(clockFromOptions({}), WIKI_CLOCK);
});
