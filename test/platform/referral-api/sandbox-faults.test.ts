import { describe, expect, it } from "vitest";
import { recordingLogger } from "./support/fake-fetch";
import { failureOf } from "./support/failure";
import { useSandbox } from "./support/sandbox";

const sandbox = useSandbox();

describe("failures against the sandbox", () => {
  it("a wrong token is an authentication error with the service's words, and the token stays out of it", async () => {
    const wrongToken = "wrong-token-value-123";
    const { logger, lines } = recordingLogger();
    const client = sandbox.client({ token: wrongToken, logger });
    const error = await failureOf(client.getCompany());
    expect(error).toMatchObject({ kind: "authentication", retryable: false, status: 401, errors: ["The user could not be authenticated."] });
    expect(`${error.message}\n${error.stack}\n${JSON.stringify(error)}`).not.toContain(wrongToken);
    expect(JSON.stringify(lines)).not.toContain(wrongToken);
  });

  it("rotated credentials: the old pair fails, the new pair works", async () => {
    await sandbox.setCredentials("demo", "rotated-token");
    expect((await failureOf(sandbox.client({ token: "demo-token" }).listGroups())).kind).toBe("authentication");
    expect((await sandbox.client({ token: "rotated-token" }).listGroups()).length).toBeGreaterThan(0);
  });

  it("authFailNext → authentication", async () => {
    await sandbox.faults({ authFailNext: 1 });
    expect((await failureOf(sandbox.client().listGroups())).kind).toBe("authentication");
    expect(await sandbox.client().listGroups()).not.toHaveLength(0);
  });

  it("failNext → retryable server error; the next call works", async () => {
    await sandbox.faults({ failNext: 1, operations: ["event/record"] });
    const client = sandbox.client();
    const params = { email: "fault@example.com", campaignUid: 1001, shortCode: "BOB10", revenue: 10, transactionUid: "order-fault" };
    const error = await failureOf(client.recordEvent(params));
    expect(error).toMatchObject({ kind: "server", retryable: true, status: 503 });
    expect((await client.recordEvent(params)).referringAmbassador?.email).toBe("bob@example.com");
  });

  it("errorRate 1 → server errors (HTTP 500)", async () => {
    await sandbox.faults({ errorRate: 1, operations: ["group/all"] });
    expect(await failureOf(sandbox.client().listGroups())).toMatchObject({ kind: "server", status: 500, retryable: true });
    expect((await sandbox.client().getCompany()).company.companyName).toBe("Demo Outfitters");
  });

  it("dropNext → retryable network error", async () => {
    await sandbox.faults({ dropNext: 1 });
    const error = await failureOf(sandbox.client().getCompany());
    expect(error).toMatchObject({ kind: "network", retryable: true, operation: "company/get" });
    expect(error.message).not.toContain("demo-token");
  });

  it("latency above the timeout → retryable timeout", async () => {
    await sandbox.faults({ latencyMs: 400 });
    const started = Date.now();
    const error = await failureOf(sandbox.client({ timeoutMs: 100 }).listGroups());
    expect(error).toMatchObject({ kind: "timeout", retryable: true });
    expect(Date.now() - started).toBeLessThan(390);
    await sandbox.clearFaults();
    expect(await sandbox.client({ timeoutMs: 2000 }).listGroups()).not.toHaveLength(0);
  });

  it("rateLimitNext → rate_limited with retryAfterMs from Retry-After", async () => {
    await sandbox.faults({ rateLimitNext: 1 });
    const error = await failureOf(sandbox.client().listGroups());
    expect(error).toMatchObject({ kind: "rate_limited", retryable: true, status: 429 });
    expect(error.retryAfterMs).toBe(1000);
  });

  it("one log line per call: operation, status, duration", async () => {
    const { logger, lines } = recordingLogger();
    const client = sandbox.client({ logger });
    await client.listGroups();
    await failureOf(client.getAmbassador({ email: "nobody@example.com" }));
    expect(lines.map((l) => [l.level, (l.obj as { operation: string }).operation, (l.obj as { status: number }).status])).toEqual([
      ["debug", "group/all", 200],
      ["warn", "ambassador/get", 404],
    ]);
    expect(JSON.stringify(lines)).not.toContain("demo-token");
  });
});
