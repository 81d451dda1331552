// The signed-in customer's share links, as routes/account.referrals.tsx shows
// them: one panel for each state the app's answer can be in, none of them empty.
import type { ShareLinksState } from "@referral-bridge/headless";

export function ShareLinksPanel({ state }: { state: ShareLinksState }) {
  switch (state.kind) {
    case "ok":
      return (
        <section className="referral-panel">
          <h2>Share and earn</h2>
          <p>
            Your balance: <strong>{state.ambassador.balanceMoney}</strong>
            {state.ambassador.pointName ? ` and ${state.ambassador.balancePoints} ${state.ambassador.pointName}` : ""} · {state.ambassador.uniqueReferrals} friends referred
          </p>
          {state.links.length === 0 ? (
            <p>You have no share links yet. They appear here as soon as the store's referral program gives you one.</p>
          ) : (
            <ul>
              {state.links.map((link) => (
                <li key={link.url}>
                  <span className="campaign">{link.campaignName}</span>
                  {link.description ? <span className="description">{link.description}</span> : null}
                  <input readOnly value={link.url} aria-label={`Share link for ${link.campaignName}`} />
                  <span className="earned">
                    Earned: {link.totalMoneyEarned}
                    {state.ambassador.pointName && link.totalPointsEarned !== "0" ? ` and ${link.totalPointsEarned} ${state.ambassador.pointName}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      );
    case "guest":
      return <p className="referral-panel">Sign in to see your share link.</p>;
    case "not_enrolled":
      return <p className="referral-panel">{state.reason === "no_email" ? "Add an email address to your account to join the referral program." : state.reason === "inactive" ? "Your referral account is paused. Contact the store to turn it back on." : "You are not in the referral program yet."}</p>;
    case "unavailable":
      return <p className="referral-panel">The referral program is not available right now.</p>;
    default:
      return <p className="referral-panel">Your share links could not be loaded. Try again in a moment.</p>;
  }
}
