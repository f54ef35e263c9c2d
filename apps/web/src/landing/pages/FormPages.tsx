import { TEAM_SIZE_LABELS, TEAM_SIZES } from '@sundial/core';
import { CALCULATORS, type Calculator, defaultValues } from '../calculators';
import { PageIntro } from './SimplePages';

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {children}
      <p id={`${id}-error`} className="field-error" data-error-for={id} />
    </div>
  );
}

const describedBy = (id: string, hint?: boolean) => (hint ? `${id}-hint ${id}-error` : `${id}-error`);

/** "Book a Demo": posted by the page script to POST /api/v1/demo-requests. */
export function DemoPage() {
  return (
    <>
      <PageIntro
        title="Book a demo"
        lead="Tell us about your team. We will write back to find a time and show you Sundial with your questions in mind."
      />
      <div className="container narrow section">
        <form id="demo-form" className="card form" action="/api/v1/demo-requests" method="post" noValidate>
          <div role="alert" className="form-alert" id="demo-form-alert" hidden />
          <Field id="demo-name" label="Name">
            <input
              id="demo-name"
              name="name"
              autoComplete="name"
              maxLength={100}
              required
              aria-describedby={describedBy('demo-name')}
            />
          </Field>
          <Field id="demo-email" label="Work e-mail">
            <input
              id="demo-email"
              name="email"
              type="email"
              autoComplete="email"
              maxLength={254}
              required
              aria-describedby={describedBy('demo-email')}
            />
          </Field>
          <Field id="demo-company" label="Company">
            <input
              id="demo-company"
              name="company"
              autoComplete="organization"
              maxLength={200}
              required
              aria-describedby={describedBy('demo-company')}
            />
          </Field>
          <Field id="demo-teamSize" label="Team size">
            <select
              id="demo-teamSize"
              name="teamSize"
              required
              defaultValue=""
              aria-describedby={describedBy('demo-teamSize')}
            >
              <option value="" disabled>
                Choose…
              </option>
              {TEAM_SIZES.map((size) => (
                <option key={size} value={size}>
                  {TEAM_SIZE_LABELS[size]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="demo-message" label="Message (optional)" hint="What would you like to see or ask?">
            <textarea
              id="demo-message"
              name="message"
              rows={5}
              maxLength={2000}
              aria-describedby={describedBy('demo-message', true)}
            />
          </Field>
          <button type="submit" className="button button-primary">
            Request a demo
          </button>
          <p className="fine-print">
            We use these details only to answer your request. See our <a href="/privacy">privacy policy</a>.
          </p>
        </form>
        <div id="demo-done" className="card success" tabIndex={-1} hidden>
          <h2>Request sent</h2>
          <p data-demo-message />
          <p>
            <a href="/">Back to the home page</a>
          </p>
        </div>
        <noscript>
          <p className="notice">
            This form needs JavaScript. You can also write to us at the address in our privacy policy.
          </p>
        </noscript>
      </div>
    </>
  );
}

function CalculatorForm({ calculator }: { calculator: Calculator }) {
  const first = calculator.compute(defaultValues(calculator)) ?? {};
  return (
    <form className="card form calculator" data-calculator={calculator.slug}>
      {calculator.fields.map((field) => {
        const id = `${calculator.slug}-${field.name}`;
        return (
          <Field key={field.name} id={id} label={field.label} hint={field.hint}>
            <input
              id={id}
              name={field.name}
              type="number"
              inputMode="decimal"
              min={field.min}
              step={field.step}
              defaultValue={field.value}
              aria-describedby={describedBy(id, Boolean(field.hint))}
            />
          </Field>
        );
      })}
      <dl className="results" aria-live="polite">
        {calculator.outputs.map((output) => (
          <div key={output.name}>
            <dt>{output.label}</dt>
            <dd>
              <output name={output.name} data-output={output.name}>
                {first[output.name] ?? '—'}
              </output>
            </dd>
          </div>
        ))}
      </dl>
    </form>
  );
}

export function CalculatorPage({ calculator }: { calculator: Calculator }) {
  const others = CALCULATORS.filter((other) => other.slug !== calculator.slug);
  return (
    <>
      <PageIntro title={calculator.title} lead={calculator.description} />
      <div className="container narrow section">
        <CalculatorForm calculator={calculator} />
        <p>
          Results update as you type. In Sundial, each person's weeks follow their own time zone and week start, so
          weekly totals line up with your pay period. <a href="/signuppage">Try it free</a>.
        </p>
        {others.map((other) => (
          <p key={other.slug}>
            Also: <a href={`/calculators/${other.slug}`}>{other.title}</a>
          </p>
        ))}
      </div>
    </>
  );
}

export function CalculatorsIndexPage() {
  return (
    <>
      <PageIntro title="Calculators" lead="Free calculators for freelancers, managers and HR." />
      <div className="container narrow section stack">
        {CALCULATORS.map((calculator) => (
          <article key={calculator.slug} className="card">
            <h2 className="card-title">
              <a href={`/calculators/${calculator.slug}`}>{calculator.title}</a>
            </h2>
            <p>{calculator.description}</p>
          </article>
        ))}
      </div>
    </>
  );
}
