import { createReferralClient, type ReferralClient, type ReferralClientOptions } from "../../app/platform/referral-api";
import type { SandboxHandle } from "../../sandbox/server";

/** Where a sandbox is and who it lets in. */
type SandboxAddress = Pick<SandboxHandle, "baseUrl" | "username" | "token">;

/** A client of the sandbox service on loopback, as the app makes one in development; `overrides` for a wrong token, a logger, a timeout. */
export function sandboxClient(sandbox: SandboxAddress, overrides: Partial<ReferralClientOptions> = {}): ReferralClient {
  return createReferralClient({ baseUrl: sandbox.baseUrl, username: sandbox.username, token: sandbox.token, network: { allowLoopback: true }, ...overrides });
}
