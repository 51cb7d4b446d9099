/*
 * OAuth consumers (the extension's Consumer and ConsumerSubmitControl): proposal with its checks,
 * the owner's updates, the administrators' approve/reject/disable, and who may use a consumer.
 */
import crypto from 'node:crypto';
import { invalidArgument, notFound, permissionDenied, alreadyExists, failedPrecondition } from '@quire/kit';
import { ConsumerStage, type Consumer, type ConsumerSecrets, type ProposeConsumerRequest, type UpdateConsumerRequest, type ManageConsumerRequest } from '@quire/proto/wiki/auth/v1/oauth';
import { GRANT_PERMISSIONS } from '../../grants.js';
import type { Accounts } from '../../domain/accounts.js';
import type { UserRow } from '../../store/users.js';
import type { AcceptanceRow, ConsumerRow, OAuthStore } from '../store/oauth.js';
import { parseCallback } from './callback.js';
import { deriveSecret, randomHex32 } from './secrets.js';

/** Grants only the OAuth extension has: identification without any API right. */
export const AUTH_ONLY_GRANTS = ['mwoauth-authonly', 'mwoauth-authonlyprivate'];

/** The right Special:OAuthManageConsumers needs (group `sysop` by default: src/rights.ts). */
export const MANAGE_RIGHT = 'mwoauthmanageconsumer';

export interface OAuthContext {
  store: OAuthStore;
  accounts: Accounts;
  secretKey: string;
}

export function toConsumer(row: ConsumerRow): Consumer {
  return {
    id: row.id,
    key: row.consumer_key,
    name: row.name,
    version: row.version,
    description: row.description,
    ownerId: row.owner_id,
    ownerName: row.owner_name,
    callbackUrl: row.callback_url,
    callbackIsPrefix: row.callback_is_prefix,
    oauthVersion: row.oauth_version,
    grants: row.grants,
    ownerOnly: row.owner_only,
    stage: row.stage as ConsumerStage,
    stageReason: row.stage_reason,
    registered: row.registered_at.toISOString(),
    hasRsaKey: row.rsa_key !== '',
    oauth2Confidential: row.oauth2_confidential,
  };
}

/** Known grants, `basic` always included unless the consumer is for identification only. */
export function normalizeGrants(grants: readonly string[]): string[] {
  const cleaned = [...new Set(grants.map((g) => g.trim()).filter(Boolean))];
  const unknown = cleaned.filter((g) => !(g in GRANT_PERMISSIONS) && !AUTH_ONLY_GRANTS.includes(g));
  if (unknown.length) throw invalidArgument('mwoauth-invalid-field', `Unknown grants: ${unknown.join(', ')}.`, { grants: unknown });
  const authOnly = cleaned.filter((g) => AUTH_ONLY_GRANTS.includes(g));
  if (authOnly.length) {
    if (authOnly.length !== cleaned.length) throw invalidArgument('mwoauth-invalid-field', 'An identification-only consumer cannot have other grants.');
    return authOnly;
  }
  return ['basic', ...cleaned.filter((g) => g !== 'basic')];
}

/** ConsumerSubmitControl's callbackUrl check: a URL the callback rule can parse (callback.ts), at most 2000 characters. */
function checkCallbackUrl(url: string, required: boolean): void {
  if (!url) {
    if (required) throw invalidArgument('mwoauth-invalid-field', 'A callback URL is required.', { field: 'callbackUrl' });
    return;
  }
  const parsed = parseCallback(url);
  if (!parsed || !/^[a-z][a-z0-9+.-]*:$/.test(parsed.protocol)) throw invalidArgument('mwoauth-invalid-field', `Invalid callback URL: ${url}`, { field: 'callbackUrl' });
}

/** A PEM RSA public key (the extension's "mwoauth-invalid-rsa-key" otherwise). */
function checkRsaKey(pem: string): void {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey(pem);
  } catch {
    throw invalidArgument('mwoauth-invalid-rsa-key', 'The key should be an RSA public key in PEM format.', { field: 'rsaKey' });
  }
  if (key.asymmetricKeyType !== 'rsa') throw invalidArgument('mwoauth-invalid-rsa-key', 'The key should be an RSA public key in PEM format.', { field: 'rsaKey' });
}

/** Consumer::isUsableBy: approved, or still proposed and used by its owner; owner-only consumers only by the owner. */
export function usableBy(c: ConsumerRow, userId: number): boolean {
  if (c.owner_only) return c.owner_id === userId && c.stage === ConsumerStage.CONSUMER_STAGE_APPROVED;
  return c.stage === ConsumerStage.CONSUMER_STAGE_APPROVED || (c.stage === ConsumerStage.CONSUMER_STAGE_PROPOSED && c.owner_id === userId);
}

export class Consumers {
  constructor(private readonly o: OAuthContext) {}

  secretOf(c: ConsumerRow): string {
    return deriveSecret(this.o.secretKey, c.secret_seed);
  }

  accessSecretOf(a: AcceptanceRow): string {
    return deriveSecret(this.o.secretKey, a.access_secret_seed);
  }

  async byKey(key: string): Promise<ConsumerRow> {
    const row = /^[0-9a-f]{32}$/.test(key) ? await this.o.store.consumerByKey(key) : null;
    if (!row) throw notFound('mwoauth-invalid-consumer-key', 'No consumer was found with the given key.', { key });
    return row;
  }

  private async owner(userId: number): Promise<UserRow> {
    const row = userId > 0 ? await this.o.accounts.o.users.byId(userId) : null;
    if (!row) throw permissionDenied('mwoauth-available-only-to-registered', 'Only registered users can register OAuth consumers.');
    return row;
  }

  /** Grants the owner of an owner-only consumer their acceptance (and access token) at once. */
  async acceptFor(c: ConsumerRow, userId: number, grants: string[]): Promise<AcceptanceRow> {
    const existing = await this.o.store.acceptance(c.id, userId);
    return this.o.store.upsertAcceptance({
      consumer_id: c.id,
      user_id: userId,
      access_key: existing?.access_key ?? randomHex32(),
      access_secret_seed: existing?.access_secret_seed ?? randomHex32(),
      grants,
    });
  }

  /**
   * Proposes a consumer. Owner-only consumers are approved at once (the extension auto-approves
   * them); `approve` is createOAuthConsumer.php's --approve. `issueOwnerToken` makes the owner's
   * OAuth 2.0 access token (the OAuth 2 module's job, passed in to keep this module free of JWTs).
   */
  async propose(req: ProposeConsumerRequest, issueOwnerToken: (c: ConsumerRow, a: AcceptanceRow) => Promise<string>): Promise<ConsumerSecrets> {
    const owner = await this.owner(req.userId);
    const name = req.name.trim();
    const version = req.version.trim();
    if (!name || name.length > 128) throw invalidArgument('mwoauth-invalid-field', 'The name must be 1 to 128 characters.', { field: 'name' });
    if (!version || version.length > 32) throw invalidArgument('mwoauth-invalid-field', 'The version must be 1 to 32 characters.', { field: 'version' });
    if (req.description.length > 10000) throw invalidArgument('mwoauth-invalid-field', 'The description is too long.', { field: 'description' });
    if (req.oauthVersion !== 1 && req.oauthVersion !== 2) throw invalidArgument('mwoauth-invalid-field', 'The OAuth version must be 1 or 2.', { field: 'oauthVersion' });
    checkCallbackUrl(req.callbackUrl, !req.ownerOnly);
    if (req.rsaKey && req.oauthVersion !== 1) throw invalidArgument('mwoauth-invalid-field', 'RSA keys are for OAuth 1.0a consumers.', { field: 'rsaKey' });
    if (req.rsaKey) checkRsaKey(req.rsaKey);
    const grants = normalizeGrants(req.grants);
    const approved = req.ownerOnly || req.approve;
    const row = await this.o.store.tx(async () => {
      const inserted = await this.o.store.insertConsumer({
        consumer_key: randomHex32(),
        name,
        version,
        owner_id: owner.id,
        description: req.description,
        callback_url: req.ownerOnly ? '' : req.callbackUrl,
        callback_is_prefix: req.callbackIsPrefix,
        oauth_version: req.oauthVersion,
        grants,
        owner_only: req.ownerOnly,
        oauth2_confidential: !req.oauth2Public,
        rsa_key: req.rsaKey,
        secret_seed: randomHex32(),
        stage: approved ? ConsumerStage.CONSUMER_STAGE_APPROVED : ConsumerStage.CONSUMER_STAGE_PROPOSED,
      });
      if (!inserted) throw alreadyExists('mwoauth-consumer-alreadyexists', `A consumer named "${name}" with version "${version}" already exists.`);
      return inserted;
    });
    const out: ConsumerSecrets = { consumer: toConsumer(row), secret: this.secretOf(row), accessToken: '', accessSecret: '' };
    if (req.ownerOnly) {
      const acceptance = await this.acceptFor(row, owner.id, grants);
      if (row.oauth_version === 1) {
        out.accessToken = acceptance.access_key;
        out.accessSecret = this.accessSecretOf(acceptance);
      } else {
        out.accessToken = await issueOwnerToken(row, acceptance);
      }
    }
    return out;
  }

  async list(ownerId: number, stage: ConsumerStage | undefined): Promise<Consumer[]> {
    return (await this.o.store.listConsumers(ownerId, stage)).map(toConsumer);
  }

  async update(req: UpdateConsumerRequest): Promise<ConsumerSecrets> {
    const row = await this.byKey(req.key);
    if (row.owner_id !== req.userId) throw permissionDenied('mwoauth-consumer-not-owner', 'Only the owner of a consumer can update it.');
    if (req.callbackUrl !== undefined) checkCallbackUrl(req.callbackUrl, !row.owner_only);
    const grants = req.grants.length ? normalizeGrants(req.grants) : undefined;
    const secretSeed = req.resetSecret ? randomHex32() : undefined;
    await this.o.store.updateConsumer(row.id, {
      ...(req.description !== undefined ? { description: req.description } : {}),
      ...(req.callbackUrl !== undefined ? { callbackUrl: req.callbackUrl } : {}),
      ...(grants ? { grants } : {}),
      ...(secretSeed ? { secretSeed } : {}),
    });
    const updated = (await this.o.store.consumerById(row.id))!;
    return { consumer: toConsumer(updated), secret: secretSeed ? this.secretOf(updated) : '', accessToken: '', accessSecret: '' };
  }

  /** Special:OAuthManageConsumers: approve (proposed), reject (proposed), disable (approved), reenable (disabled). */
  async manage(req: ManageConsumerRequest): Promise<Consumer> {
    // The performer's right, as the wiki's groups give it (never a group's name).
    const performer = await this.o.accounts.o.users.byId(req.performerId);
    const rights = performer ? (await this.o.accounts.userRecord(performer, '')).rights : [];
    if (!rights.includes(MANAGE_RIGHT)) throw permissionDenied('permissiondenied', 'You do not have permission to manage OAuth consumers.');
    const row = await this.byKey(req.key);
    const S = ConsumerStage;
    const transitions: Record<string, { from: ConsumerStage[]; to: ConsumerStage }> = {
      approve: { from: [S.CONSUMER_STAGE_PROPOSED], to: S.CONSUMER_STAGE_APPROVED },
      reject: { from: [S.CONSUMER_STAGE_PROPOSED], to: S.CONSUMER_STAGE_REJECTED },
      disable: { from: [S.CONSUMER_STAGE_APPROVED, S.CONSUMER_STAGE_PROPOSED], to: S.CONSUMER_STAGE_DISABLED },
      reenable: { from: [S.CONSUMER_STAGE_DISABLED], to: S.CONSUMER_STAGE_APPROVED },
    };
    const t = transitions[req.action];
    if (!t) throw invalidArgument('badvalue', `Unknown action "${req.action}".`);
    if (!t.from.includes(row.stage)) throw failedPrecondition('mwoauthmanageconsumers-wrong-stage', `The consumer cannot be changed by "${req.action}" in its current stage.`);
    if ((req.action === 'reject' || req.action === 'disable') && !req.reason.trim()) {
      throw invalidArgument('mwoauth-invalid-field', 'A reason is required.', { field: 'reason' });
    }
    await this.o.store.setStage(row.id, t.to, req.reason.trim());
    return toConsumer((await this.o.store.consumerById(row.id))!);
  }
}
