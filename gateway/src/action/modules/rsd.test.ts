import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rsdDocument, rsdModule } from './rsd.js';
import { clearhasmsgModule } from './clearhasmsg.js';
import { fakeContext } from '../query/testing.js';
import type { User } from '../../clients/types.js';

test("action=rsd: the reference wiki's document, byte for byte apart from the server", () => {
  assert.equal(
    rsdDocument('http://127.0.0.1:8080'),
    '<?xml version="1.0"?><rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd"><service><apis><api name="MediaWiki" preferred="true" apiLink="http://127.0.0.1:8080/w/api.php" blogID=""><settings><docs xml:space="preserve">https://www.mediawiki.org/wiki/Special:MyLanguage/API</docs><setting name="OAuth" xml:space="preserve">false</setting></settings></api></apis><engineName xml:space="preserve">MediaWiki</engineName><engineLink xml:space="preserve">https://www.mediawiki.org/</engineLink><homePageLink xml:space="preserve">http://127.0.0.1:8080/wiki/Main_Page</homePageLink></service></rsd>',
  );
  assert.equal(rsdModule.flags.readRights, false);
});

test("action=clearhasmsg clears the caller's notification: the account's, or the IP's when anonymous", async () => {
  for (const [user, expected] of [
    [{ id: 7, name: 'Alice', anonymous: false, groups: [], rights: [] }, ['Alice', 7]],
    [{ id: 0, name: '10.0.0.9', anonymous: true, groups: [], rights: [] }, ['10.0.0.9', 0]],
  ] as [User, [string, number]][]) {
    const { ctx } = fakeContext(clearhasmsgModule, {}, {}, { user });
    const seen: unknown[] = [];
    (ctx.deps.clients.content as unknown as Record<string, unknown>).markTalkPageSeen = async (name: string, id: number) => void seen.push([name, id]);
    await clearhasmsgModule.execute(ctx);
    assert.deepEqual(seen, [expected]);
    assert.equal(ctx.result.clearhasmsg, 'success');
  }
  assert.deepEqual(clearhasmsgModule.flags, { mustBePosted: true, writeMode: true });
});
