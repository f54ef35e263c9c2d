import {
  ANNUAL_DISCOUNT_PERCENT,
  type BillingCycle,
  formatMoney,
  monthlyEquivalentCents,
  PLAN_IDS,
  PLANS,
  type Plan,
  TRIAL_DAYS,
  TRIAL_PLAN,
} from '@sundial/core';

function PlanPrice({ plan, cycle }: { plan: Plan; cycle: BillingCycle }) {
  const perMonth = monthlyEquivalentCents(plan, cycle);
  if (perMonth === null || !plan.pricePerLicenseCents) {
    return (
      <div className="price">
        <p className="price-amount">Custom</p>
        <p className="price-note">{plan.tagline}</p>
      </div>
    );
  }
  if (perMonth === 0) {
    return (
      <div className="price">
        <p className="price-amount">{formatMoney(0)}</p>
        <p className="price-note">{plan.tagline}</p>
      </div>
    );
  }
  const note =
    cycle === 'annual'
      ? `per license / month, billed annually (${formatMoney(plan.pricePerLicenseCents.annual)} per year)`
      : 'per license / month, billed monthly';
  return (
    <div className="price" data-cycle={cycle}>
      <p className="price-amount">{formatMoney(perMonth)}</p>
      <p className="price-note">{note}</p>
    </div>
  );
}

function PlanCard({ plan, headingLevel }: { plan: Plan; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const paid = plan.pricePerLicenseCents !== null && plan.pricePerLicenseCents.monthly > 0;
  const cta =
    plan.id === 'enterprise'
      ? { label: 'Book a call', href: '/demo' }
      : { label: paid ? `Start ${TRIAL_DAYS}-day trial` : 'Start for free', href: '/signuppage' };
  return (
    <li
      className={plan.id === TRIAL_PLAN ? 'card plan plan-highlight' : 'card plan'}
      aria-labelledby={`plan-${plan.id}`}
    >
      <Heading id={`plan-${plan.id}`} className="plan-name">
        {plan.name}
      </Heading>
      {plan.id === TRIAL_PLAN && <p className="plan-flag">Included in the free trial</p>}
      {paid ? (
        <>
          <PlanPrice plan={plan} cycle="monthly" />
          <PlanPrice plan={plan} cycle="annual" />
        </>
      ) : (
        <PlanPrice plan={plan} cycle="monthly" />
      )}
      <a href={cta.href} className={plan.id === TRIAL_PLAN ? 'button button-primary' : 'button button-secondary'}>
        {cta.label}
        <span className="visually-hidden"> with the {plan.name} plan</span>
      </a>
      <ul className="checklist">
        {plan.features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
    </li>
  );
}

/**
 * Plans and prices straight from the catalogue billing uses. The cycle switch is two radio
 * buttons and CSS (:has), so it works before and without any JavaScript.
 */
export function PlanGrid({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  return (
    <div className="pricing">
      <fieldset className="cycle-switch">
        <legend>Billing cycle</legend>
        <input type="radio" name="cycle" id="cycle-monthly" value="monthly" />
        <label htmlFor="cycle-monthly">Monthly</label>
        <input type="radio" name="cycle" id="cycle-annual" value="annual" defaultChecked />
        <label htmlFor="cycle-annual">
          Annual <span className="save">save {ANNUAL_DISCOUNT_PERCENT}%</span>
        </label>
      </fieldset>
      <ul className="plans">
        {PLAN_IDS.map((id) => (
          <PlanCard key={id} plan={PLANS[id]} headingLevel={headingLevel} />
        ))}
      </ul>
      <p className="fine-print">
        Prices in US dollars, without VAT. EU customers pay their country's VAT; EU businesses with a VAT id are billed
        under the reverse charge.
      </p>
    </div>
  );
}
