import { describe, expect, it } from "vitest";
import { createReferralClient } from "../../../app/platform/referral-api";
import { fakeFetch, ok, type RecordedCall } from "./support/fake-fetch";

function pageOf(call: RecordedCall): number {
  const sent = call.method === "GET" ? new URL(call.url).searchParams : new URLSearchParams(call.body as string);
  return Number(sent.get("page"));
}

const people = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ email: `p${from + i}@example.com` }));

describe("iterating pages", () => {
  it("reads ambassador pages until a short page", async () => {
    const fake = fakeFetch((call) => {
      const page = pageOf(call);
      return ok({ ambassadors: page === 1 ? people(0, 100) : page === 2 ? people(100, 100) : people(200, 5) });
    });
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "u", token: "t", fetch: fake.fetch });
    const emails: string[] = [];
    for await (const a of client.iterateAmbassadors({ isActive: true })) emails.push(a.email);
    expect(emails).toHaveLength(205);
    expect(new Set(emails).size).toBe(205);
    expect(fake.calls.map(pageOf)).toEqual([1, 2, 3]);
    expect(new URL(fake.calls[1].url).searchParams.get("is_active")).toBe("1");
  });

  it("stops on an empty page after exactly 100", async () => {
    const fake = fakeFetch((call) => ok({ commissions: pageOf(call) === 1 ? people(0, 100).map((p, i) => ({ ...p, commission_uid: String(i) })) : [] }));
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "u", token: "t", fetch: fake.fetch });
    let count = 0;
    for await (const _ of client.iterateCommissions({ status: "pending" })) count += 1;
    expect(count).toBe(100);
    expect(fake.calls.map(pageOf)).toEqual([1, 2]);
  });

  it("stops when the service ignores the page number", async () => {
    const fake = fakeFetch(() => ok({ ambassadors: people(0, 100) }));
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "u", token: "t", fetch: fake.fetch });
    let count = 0;
    for await (const _ of client.iterateAmbassadors()) count += 1;
    expect(count).toBe(100);
    expect(fake.calls).toHaveLength(2);
  });

  it("iterates group members through group/get pages", async () => {
    const fake = fakeFetch((call) =>
      ok({ group: { group_id: "1", name: "Customers" }, ambassadors: pageOf(call) === 1 ? people(0, 100) : people(100, 1) }),
    );
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "u", token: "t", fetch: fake.fetch });
    const members = [];
    for await (const m of client.iterateGroupMembers({ groupId: 1 })) members.push(m.email);
    expect(members).toHaveLength(101);
    expect(new URLSearchParams(fake.calls[1].body as string).get("group_id")).toBe("1");
  });

  it("honours maxPages", async () => {
    const fake = fakeFetch((call) => ok({ ambassadors: people(pageOf(call) * 100, 100) }));
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "u", token: "t", fetch: fake.fetch });
    let count = 0;
    for await (const _ of client.iterateAmbassadors({}, { maxPages: 3 })) count += 1;
    expect(count).toBe(300);
  });
});
