import { createReferralClient, type ReferralClient, type ReferralClientOptions } from "../../app/referral-api";

/** Where a sandbox is and who it lets in (a SandboxHandle, or a test's own copy of it). */
export interface SandboxAddress {
  baseUrl: string;
  username: string;
  token: string;
}

/** A client of the sandbox service on loopback, as the app makes one in development; `overrides` for a wrong token, a logger, a timeout. */
export function sandboxClient(sandbox: SandboxAddress, overrides: Partial<ReferralClientOptions> = {}): ReferralClient {
  return createReferralClient({ baseUrl: sandbox.baseUrl, username: sandbox.username, token: sandbox.token, network: { allowLoopback: true }, ...overrides });
}
