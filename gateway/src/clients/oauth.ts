/* Typed wrapper of wiki.auth.v1.OAuthService (the auth service's OAuth part, same address). */
import { makeClient, unary } from '@quire/kit';
import {
  OAuthServiceClient,
  type AuthorizeOAuth1Response,
  AuthorizeOAuth2Request,
  type AuthorizeOAuth2Response,
  type Authorization,
  type Consumer,
  type ConsumerSecrets,
  type ConsumerStage,
  IssueOAuth2TokenRequest,
  type OAuth1Credentials,
  type OAuth2Token,
  ProposeConsumerRequest,
  type ResolveOAuthResponse,
  type SignedRequest,
  UpdateConsumerRequest,
} from '@quire/proto/wiki/auth/v1/oauth';
import type { CallOpts } from './call-options.js';

export class OAuthClient {
  constructor(private readonly c: OAuthServiceClient) {}
  static connect(addr: string, secretKey?: string): OAuthClient {
    return new OAuthClient(makeClient(OAuthServiceClient, addr, {}, secretKey));
  }
  proposeConsumer(req: Partial<ProposeConsumerRequest> & Pick<ProposeConsumerRequest, 'userId' | 'name' | 'version' | 'oauthVersion'>, o?: CallOpts): Promise<ConsumerSecrets> {
    return unary(this.c, this.c.proposeConsumer, ProposeConsumerRequest.fromPartial(req), o);
  }
  async listConsumers(req: { ownerId?: number; stage?: ConsumerStage }, o?: CallOpts): Promise<Consumer[]> {
    return (await unary(this.c, this.c.listConsumers, { ownerId: req.ownerId ?? 0, ...(req.stage !== undefined ? { stage: req.stage } : {}) }, o)).consumers;
  }
  getConsumer(key: string, o?: CallOpts): Promise<Consumer> {
    return unary(this.c, this.c.getConsumer, { key }, o);
  }
  updateConsumer(req: Partial<UpdateConsumerRequest> & Pick<UpdateConsumerRequest, 'userId' | 'key'>, o?: CallOpts): Promise<ConsumerSecrets> {
    return unary(this.c, this.c.updateConsumer, UpdateConsumerRequest.fromPartial(req), o);
  }
  manageConsumer(req: { performerId: number; key: string; action: string; reason: string }, o?: CallOpts): Promise<Consumer> {
    return unary(this.c, this.c.manageConsumer, req, o);
  }
  initiateOAuth1(req: SignedRequest, o?: CallOpts): Promise<OAuth1Credentials> {
    return unary(this.c, this.c.initiateOAuth1, req, o);
  }
  describeRequestToken(consumerKey: string, requestToken: string, o?: CallOpts): Promise<Consumer> {
    return unary(this.c, this.c.describeRequestToken, { consumerKey, requestToken }, o);
  }
  authorizeOAuth1(req: { userId: number; consumerKey: string; requestToken: string; approve: boolean }, o?: CallOpts): Promise<AuthorizeOAuth1Response> {
    return unary(this.c, this.c.authorizeOAuth1, req, o);
  }
  exchangeOAuth1(req: SignedRequest, o?: CallOpts): Promise<OAuth1Credentials> {
    return unary(this.c, this.c.exchangeOAuth1, req, o);
  }
  async identifyOAuth1(req: SignedRequest, o?: CallOpts): Promise<string> {
    return (await unary(this.c, this.c.identifyOAuth1, req, o)).jwt;
  }
  authorizeOAuth2(req: Partial<AuthorizeOAuth2Request>, o?: CallOpts): Promise<AuthorizeOAuth2Response> {
    return unary(this.c, this.c.authorizeOAuth2, AuthorizeOAuth2Request.fromPartial(req), o);
  }
  issueOAuth2Token(req: Partial<IssueOAuth2TokenRequest>, o?: CallOpts): Promise<OAuth2Token> {
    return unary(this.c, this.c.issueOAuth2Token, IssueOAuth2TokenRequest.fromPartial(req), o);
  }
  resolveOAuthRequest(req: { bearerToken?: string; signed?: SignedRequest; ip: string; withProfile?: boolean }, o?: CallOpts): Promise<ResolveOAuthResponse> {
    return unary(this.c, this.c.resolveOAuthRequest, { bearerToken: req.bearerToken ?? '', signed: req.signed, ip: req.ip, withProfile: req.withProfile ?? false }, o);
  }
  async listAuthorizations(userId: number, o?: CallOpts): Promise<Authorization[]> {
    return (await unary(this.c, this.c.listAuthorizations, { userId }, o)).authorizations;
  }
  async revokeAuthorization(userId: number, consumerKey: string, o?: CallOpts): Promise<void> {
    await unary(this.c, this.c.revokeAuthorization, { userId, consumerKey }, o);
  }
  close() {
    this.c.close();
  }
}
