import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'express';
import { oauthCredentials, oauthSignedParams } from './verify.js';

const p = (name: string, value: string) => ({ name, value });

test('MWOAuthRequest::fromRequest: query (last of a name), then form (every value), then header; a later place replaces a name', () => {
  const query = [p('title', 'A'), p('title', 'Special:OAuth/initiate'), p('oauth_callback', 'oob'), p('format', 'json')];
  const form = [p('format', 'xml'), p('tag', 'a'), p('tag', 'b')];
  const header = [p('oauth_callback', 'oob'), p('oauth_nonce', '1'), p('oauth_nonce', '2')];
  assert.deepEqual(oauthSignedParams(query, form, header), [p('title', 'Special:OAuth/initiate'), p('oauth_callback', 'oob'), p('format', 'xml'), p('tag', 'a'), p('tag', 'b'), p('oauth_nonce', '2')]);
});

test("OAuthUtil::split_header: the header's oauth_* parameters, quoted or bare, '+' a space; not realm", () => {
  const creds = oauthCredentials({ headers: { authorization: 'OAuth realm="x", oauth_consumer_key="k%2Fey", oauth_nonce=n+1, other="y"' } } as unknown as Request);
  assert.deepEqual(creds, { kind: 'oauth1', headerParams: [p('oauth_consumer_key', 'k/ey'), p('oauth_nonce', 'n 1')] });
});
