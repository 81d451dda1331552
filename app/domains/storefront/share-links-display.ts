import type { ShareLinksAnswer } from "./share-links-contract";

/**
 * The amounts of a share links answer formatted for the storefront's language,
 * by the app rather than the theme block: a browser's first Intl.NumberFormat
 * loads its number data on the page's main thread (tens of milliseconds on a
 * phone, one long task), while the app's process has it loaded already.
 *
 * The block sends the storefront's locale and the shop's currency with its
 * request (`?locale=de&currency=EUR`); without both, or with either malformed,
 * the answer goes out as it is and the block formats the amounts itself.
 */
export interface AmountFormat {
  locale: string;
  currency: string;
}

/** The locale and currency a request asks for, or null when either is missing or not one. */
export function readAmountFormat(search: URLSearchParams): AmountFormat | null {
  const locale = search.get("locale") ?? "";
  const currency = search.get("currency") ?? "";
  if (!/^[A-Z]{3}$/.test(currency) || locale.length === 0 || locale.length > 35) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    return canonical ? { locale: canonical, currency } : null;
  } catch {
    return null;
  }
}

/** A money amount in the shop's currency: "$12.50", "12,50 €". Text that is no number stays as it is. */
export function formatMoney(value: string, format: AmountFormat): string {
  const text = value.trim();
  const number = Number(text);
  if (text === "" || !Number.isFinite(number)) return text;
  return new Intl.NumberFormat(format.locale, { style: "currency", currency: format.currency }).format(number);
}

/** A point count with the locale's grouping: "1,234", "1.234". The block adds the point name. */
export function formatPoints(value: string, format: AmountFormat): string {
  const text = value.trim() || "0";
  const number = Number(text);
  return Number.isFinite(number) ? new Intl.NumberFormat(format.locale).format(number) : text;
}

/** The answer with `display` texts beside its amounts; every other answer unchanged. */
export function withDisplayAmounts(answer: ShareLinksAnswer, format: AmountFormat): ShareLinksAnswer {
  if (answer.status !== "ok") return answer;
  const { ambassador } = answer;
  return {
    ...answer,
    ambassador: {
      ...ambassador,
      display: {
        balanceMoney: formatMoney(ambassador.balanceMoney || "0", format),
        balancePoints: formatPoints(ambassador.balancePoints, format),
        moneyPaid: formatMoney(ambassador.moneyPaid || "0", format),
        pointsPaid: formatPoints(ambassador.pointsPaid, format),
      },
    },
    links: answer.links.map((link) => ({
      ...link,
      display: {
        totalMoneyEarned: formatMoney(link.totalMoneyEarned || "0", format),
        totalPointsEarned: formatPoints(link.totalPointsEarned, format),
      },
    })),
  };
}
