/*
 * Passwords: argon2id hashes (@node-rs/argon2), and MediaWiki's default $wgPasswordPolicy with
 * its checks and message keys (PasswordPolicyChecks).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash, verify } from '@node-rs/argon2';

export function hashPassword(password: string): Promise<string> {
  return hash(password); // argon2id, the package's default algorithm
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  return (dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex')));
}

/** $wgPasswordPolicy['policies']: per group; a user gets the strictest value of their groups. */
const GROUP_MIN_LENGTH: Record<string, number> = { bureaucrat: 10, sysop: 10, 'interface-admin': 10, bot: 10 };
const DEFAULT_MIN_LENGTH = 1;
const MIN_LENGTH_TO_LOGIN = 1;
const MAX_LENGTH = 4096;
/** PasswordCannotMatchDefaults: past MediaWiki defaults, and ApiChangeAuthenticationRequest's example. */
const FORBIDDEN_LOGINS: Record<string, string> = { Useruser: 'Passpass', Useruser1: 'Passpass1', Apitestsysop: 'testpass', Apitestuser: 'testpass' };

export interface PolicyMessage {
  key: string;
  params: string[];
  /** Fatal: the password cannot even be used to log in (validity "Invalid"). */
  fatal: boolean;
}

/*
 * wikimedia/common-passwords: the 100,000 most common passwords as a Bloom filter
 * (pleonasm/bloom-filter: HMAC-SHA1 of the password keyed by the hasher index, first 63 bits
 * modulo the bit count). The data file is copied from MediaWiki's vendor folder (MIT).
 */
interface BloomData {
  bit_array: { len: number; arr: string };
  hashers: { algo: string; count: number; max: number };
}
let bloom: { bits: Buffer; count: number; max: bigint } | undefined;

function commonPasswords() {
  if (!bloom) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'common-passwords.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as BloomData;
    bloom = { bits: Buffer.from(data.bit_array.arr, 'base64'), count: data.hashers.count, max: BigInt(data.hashers.max) };
  }
  return bloom;
}

export function isCommonPassword(password: string): boolean {
  const f = commonPasswords();
  for (let i = 0; i < f.count; i++) {
    const raw = crypto.createHmac('sha1', String(i)).update(password).digest();
    const num = raw.readBigUInt64BE(0) & 0x7fffffffffffffffn;
    const bit = Number(num % f.max);
    if (((f.bits[bit >> 3] ?? 0) & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/** Every policy failure for `password` of user `name` in `groups` (MediaWiki's order). */
export function checkPasswordPolicy(name: string, groups: readonly string[], password: string): PolicyMessage[] {
  const out: PolicyMessage[] = [];
  const minLength = Math.max(DEFAULT_MIN_LENGTH, ...groups.map((g) => GROUP_MIN_LENGTH[g] ?? 0));
  const length = [...password].length;
  if (length < minLength) out.push({ key: 'passwordtooshort', params: [String(minLength)], fatal: false });
  if (length < MIN_LENGTH_TO_LOGIN) out.push({ key: 'passwordtooshort', params: [String(MIN_LENGTH_TO_LOGIN)], fatal: true });
  if (password !== '' && name.toLowerCase().includes(password.toLowerCase())) out.push({ key: 'password-substring-username-match', params: [], fatal: false });
  if (FORBIDDEN_LOGINS[name] === password || password === 'ExamplePassword') out.push({ key: 'password-login-forbidden', params: [], fatal: false });
  if (length > MAX_LENGTH) out.push({ key: 'passwordtoolong', params: [String(MAX_LENGTH)], fatal: false });
  if (isCommonPassword(password)) out.push({ key: 'passwordincommonlist', params: [], fatal: false });
  return out;
}
