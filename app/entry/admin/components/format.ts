// Display formats shared by the pages. Dates are shown in UTC so the server's
// HTML and the browser's render agree (no hydration mismatch).

const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const SHORT_DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const NUMBER = new Intl.NumberFormat("en-US");

export function formatDate(iso: string | null | undefined): string {
  return iso ? DATE.format(new Date(iso)) : "—";
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? `${DATE_TIME.format(new Date(iso))} UTC` : "—";
}

/** "Nov 3" for chart axes; `day` is YYYY-MM-DD. */
export function formatDay(day: string): string {
  return SHORT_DAY.format(new Date(`${day}T00:00:00Z`));
}

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : NUMBER.format(n);
}

/** An exact decimal amount for display, with the currency when it is known. */
export function formatAmount(amount: string | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const value = Number(amount);
  if (!Number.isFinite(value)) return amount;
  if (currency) {
    try {
      return currencyFormat(currency).format(value);
    } catch {
      // an unknown currency code: fall through to a plain amount
    }
  }
  return AMOUNT.format(value);
}

// Building an Intl formatter costs far more than using one (a table formats hundreds of amounts).
const AMOUNT = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const CURRENCY_FORMATS = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = CURRENCY_FORMATS.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    CURRENCY_FORMATS.set(currency, format);
  }
  return format;
}

/** Points are whole numbers in practice; show them without ".00". */
export function formatPoints(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const value = Number(amount);
  return Number.isFinite(value) ? NUMBER.format(value) : amount;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
