import { z } from "zod";

/**
 * The event/record parameters of one order, as the intake builds them and
 * as the record job stores them (JSON): one schema for both. The code the
 * order is sent with (shortCode or couponCode) is the referral decision's;
 * jobs queued before the decision moved to the job carry their one code here.
 */
export const referralEventParamsSchema = z.object({
  email: z.string(),
  shortCode: z.string().optional(),
  /** Sent when a discount code is tried as the referrer's coupon. */
  couponCode: z.string().optional(),
  /** Exact decimal text in the shop's currency. */
  revenue: z.string().optional(),
  transactionUid: z.string(),
  ipAddress: z.string().optional(),
  uid: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  eventData1: z.string().optional(),
  eventData2: z.string().optional(),
  /** The guard rules that flagged the order. */
  eventData3: z.string().optional(),
  isApproved: z.boolean().optional(),
  /** Marks a test order's new ambassador as a test ambassador. */
  sandbox: z.boolean().optional(),
});

export type ReferralEventParams = z.infer<typeof referralEventParamsSchema>;
