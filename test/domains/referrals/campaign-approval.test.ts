// The process's memory of what the referral service said, against the sandbox service.
import { describe, expect, it } from "vitest";
import { CodeDirectory } from "../../../app/domains/referrals/code-directory.server";
import { connectShop, sandboxRequests, testPipeline, useTestSandbox } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";

const sandbox = useTestSandbox();

describe("the code directory", () => {
  it("knows which campaigns approve their commissions by themselves, asking the service once per shop until it forgets", async () => {
    await connectShop(sandbox);
    const connection = await testPipeline().ctx.clientForShop(TEST_SHOP);
    if (!connection.ok) throw new Error(connection.reason);
    const codes = new CodeDirectory();
    expect(await codes.campaignAutoApproves(connection.client, TEST_SHOP, "1002")).toBe(true);
    expect(await codes.campaignAutoApproves(connection.client, TEST_SHOP, "1001")).toBe(false);
    expect(await codes.campaignAutoApproves(connection.client, TEST_SHOP, "9999")).toBe(false);
    expect(await sandboxRequests(sandbox, "company/get")).toHaveLength(1);

    codes.forget(TEST_SHOP);
    expect(await codes.campaignAutoApproves(connection.client, TEST_SHOP, "1002")).toBe(true);
    expect(await sandboxRequests(sandbox, "company/get")).toHaveLength(2);
  });
});
