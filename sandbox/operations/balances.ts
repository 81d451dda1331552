import { badRequest, notNumbersMessage, requiredMessage } from "../envelope";
import { centsToNumber, formatCents, isDecimal, parseCents } from "../money";
import type { Unit } from "../state";
import { balanceAmbassador, companyInfo } from "../render";
import { findOrCreateByEmail, type OperationContext, type OperationDef } from "./shared";

function change(ctx: OperationContext, direction: 1 | -1) {
  const { params, store } = ctx;
  // The document's error text always names all three.
  if (!params.has("email") || !params.has("type") || !params.has("amount")) {
    throw badRequest(requiredMessage(["email", "type", "amount"], "GET/POST"));
  }
  const type = params.get("type")!.toLowerCase();
  if (type !== "money" && type !== "points") {
    throw badRequest(`The following ${params.wording} parameter is invalid: type (money or points).`);
  }
  const unit = type as Unit;
  const text = params.get("amount")!;
  if (!isDecimal(text)) throw badRequest(notNumbersMessage(["amount"], "GET/POST"));
  const cents = parseCents(text);
  if (cents <= 0) throw badRequest("The amount must be greater than zero.");
  if (unit === "points" && cents % 100 !== 0) throw badRequest("The amount of points must be a whole number.");

  const existing = store.findByEmail(params.get("email")!);
  const current = existing ? (unit === "money" ? existing.balanceCents : existing.balancePoints * 100) : 0;
  if (direction === -1 && current < cents) {
    throw badRequest(`The ${unit} balance of the ambassador is lower than the amount to deduct.`);
  }
  const { ambassador } = findOrCreateByEmail(ctx, direction === 1 ? "api:balance/add" : "api:balance/deduct");
  const old = unit === "money" ? formatCents(ambassador.balanceCents) : String(ambassador.balancePoints);
  let next: number;
  if (unit === "money") {
    ambassador.balanceCents += direction * cents;
    next = centsToNumber(ambassador.balanceCents);
  } else {
    ambassador.balancePoints += direction * (cents / 100);
    next = ambassador.balancePoints;
  }
  return {
    ambassador: balanceAmbassador(store, ambassador),
    company: companyInfo(store),
    balance: { old, new: next, type: unit },
  };
}

export const balanceOperations: Record<string, OperationDef> = {
  "balance/add": { method: "POST", run: (ctx) => change(ctx, 1) },
  "balance/deduct": { method: "POST", run: (ctx) => change(ctx, -1) },
};
