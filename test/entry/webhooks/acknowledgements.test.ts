import { describe, expect, it } from "vitest";
import { acknowledging, acknowledgementsInFlight, webhooksAnswered } from "../../../app/entry/webhooks/acknowledgements";

// A stop lets the order webhooks under way finish first (stopAppProcess).

describe("webhook acknowledgements in flight", () => {
  it("counts acknowledgements in flight, also when one fails", async () => {
    let seen = -1;
    await acknowledging(async () => {
      seen = acknowledgementsInFlight();
    });
    await expect(acknowledging(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(seen).toBe(1);
    expect(acknowledgementsInFlight()).toBe(0);
  });

  it("waits for the acknowledgements under way, at most the deadline", async () => {
    let finish = () => {};
    const answering = acknowledging(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(await webhooksAnswered(30)).toBe(false);
    const answered = webhooksAnswered(5_000);
    finish();
    await answering;
    expect(await answered).toBe(true);
  });
});
