/* Typed wrapper of wiki.auth.v1.AccountService (the auth service's account security, same address). */
import { makeClient, unary } from '@quire/kit';
import {
  AccountServiceClient,
  type GetSessionAuthenticationResponse,
  type GetTwoFactorStatusRequest,
  type GetTwoFactorStatusResponse,
  type VerifyTwoFactorResponse,
} from '@quire/proto/wiki/auth/v1/account';
import type { CallOpts } from './call-options.js';

export class AccountClient {
  constructor(private readonly c: AccountServiceClient) {}
  static connect(addr: string, secretKey?: string): AccountClient {
    return new AccountClient(makeClient(AccountServiceClient, addr, {}, secretKey));
  }
  getSessionAuthentication(sessionId: string, o?: CallOpts): Promise<GetSessionAuthenticationResponse> {
    return unary(this.c, this.c.getSessionAuthentication, { sessionId }, o);
  }
  getTwoFactorStatus(req: GetTwoFactorStatusRequest, o?: CallOpts): Promise<GetTwoFactorStatusResponse> {
    return unary(this.c, this.c.getTwoFactorStatus, req, o);
  }
  verifyTwoFactor(userName: string, dataJson: string, o?: CallOpts): Promise<VerifyTwoFactorResponse> {
    return unary(this.c, this.c.verifyTwoFactor, { userName, dataJson }, o);
  }
  close() {
    this.c.close();
  }
}
