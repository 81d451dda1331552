// The amounts the app proxy formats for the links block (app/domains/storefront/share-links-display.ts).
import { describe, expect, it } from "vitest";
import { readAmountFormat, withDisplayAmounts } from "../../../app/domains/storefront/share-links-display";
import type { ShareLinksAnswer } from "../../../app/domains/storefront/share-links-contract";

const ANSWER: ShareLinksAnswer = {
  status: "ok",
  ambassador: { firstName: "Alice", email: "alice@example.com", balanceMoney: "1234.5", balancePoints: "1500", moneyPaid: "", pointsPaid: "0", uniqueReferrals: 2, pointName: null },
  links: [{ campaignUid: "1001", campaignName: "Friends & Family", description: "", url: "https://shop.example/?mbsy=A", socialEnabled: true, totalMoneyEarned: "10", totalPointsEarned: "n/a" }],
};

const ask = (query: string) => readAmountFormat(new URLSearchParams(query));

describe("amounts formatted for the storefront", () => {
  it("reads the block's locale and currency, and nothing malformed", () => {
    expect(ask("locale=pt-br&currency=BRL")).toEqual({ locale: "pt-BR", currency: "BRL" });
    expect(ask("locale=de")).toBeNull();
    expect(ask("currency=EUR")).toBeNull();
    expect(ask("locale=de&currency=eur")).toBeNull();
    expect(ask("locale=not%20a%20locale&currency=EUR")).toBeNull();
    expect(ask(`locale=${"a".repeat(40)}&currency=EUR`)).toBeNull();
  });

  it("formats balances and earnings in the storefront's language, and keeps the exact amounts", () => {
    const answer = withDisplayAmounts(ANSWER, { locale: "de", currency: "EUR" });
    if (answer.status !== "ok") throw new Error("expected ok");
    expect(answer.ambassador.display).toEqual({ balanceMoney: "1.234,50\u00a0€", balancePoints: "1.500", moneyPaid: "0,00\u00a0€", pointsPaid: "0" });
    // Text that is no number is shown as it came.
    expect(answer.links[0]!.display).toEqual({ totalMoneyEarned: "10,00\u00a0€", totalPointsEarned: "n/a" });
    expect(answer.ambassador.balanceMoney).toBe("1234.5");
    // A currency without minor units, in Japanese (the full-width yen sign).
    const yen = withDisplayAmounts(ANSWER, { locale: "ja", currency: "JPY" });
    expect(yen.status === "ok" && yen.ambassador.display?.balanceMoney).toBe("\uffe51,235");
  });

  it("leaves every other answer as it is", () => {
    const guest: ShareLinksAnswer = { status: "guest" };
    expect(withDisplayAmounts(guest, { locale: "en", currency: "USD" })).toBe(guest);
  });
});
