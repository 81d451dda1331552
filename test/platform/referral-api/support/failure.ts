import { ReferralApiError } from "../../../../app/platform/referral-api";

/** The ReferralApiError a call fails with; anything else (or success) fails the test. */
export async function failureOf(call: Promise<unknown>): Promise<ReferralApiError> {
  const error = await call.then(
    () => new Error("expected the call to fail"),
    (e: unknown) => e,
  );
  if (!(error instanceof ReferralApiError)) throw error;
  return error;
}
