import { notFound } from "../envelope";
import { canEarn } from "../domain/ambassadors";
import { isActiveCampaign } from "../domain/campaigns";
import { flag } from "../render";
import type { OperationDef } from "./shared";

const get: OperationDef = {
  method: "GET",
  run({ params, store, now }) {
    params.require("short_code");
    const code = params.get("short_code")!;
    const sandbox = params.flag("sandbox");
    const found = store.findByShortCode(code);
    const campaign = found && store.campaigns.get(found.campaignUid);
    // With sandbox given, only codes of test campaigns (1) or of production campaigns (0) are found.
    if (!found || !campaign || (sandbox !== undefined && campaign.sandbox !== sandbox)) {
      throw notFound(`The short_code ${code} does not exist.`);
    }
    const { ambassador } = found;
    return {
      shortcode: {
        valid: isActiveCampaign(campaign, now) && canEarn(ambassador) ? 1 : 0,
        sandbox: flag(campaign.sandbox),
        discount_value: campaign.discountValue,
        first_name: ambassador.firstName,
        last_name: ambassador.lastName,
        email: ambassador.email,
        uid: ambassador.uid,
        campaign_uid: campaign.uid,
        campaign_name: campaign.name,
        campaign_description: campaign.description,
        custom1: ambassador.custom.custom1,
        custom2: ambassador.custom.custom2,
        custom3: ambassador.custom.custom3,
        status: ambassador.status,
      },
    };
  },
};

export const shortcodeOperations: Record<string, OperationDef> = { "shortcode/get": get };
