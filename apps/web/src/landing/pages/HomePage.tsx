import { PlanGrid } from '../components/Pricing';
import { Badge, EmailSignupForm, PostCard, Section } from '../components/ui';
import type { Post } from '../content';
import { AUDIENCES, CLOSING, DEMO_BANNER, FACTS, FAQ, type Feature, HERO, INTEGRATIONS, STATUS_LABELS } from '../copy';

function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero-grid">
        <div>
          <h1 id="hero-title">{HERO.title}</h1>
          <p className="hero-lead">{HERO.lead}</p>
          <EmailSignupForm id="hero-email" />
          <ul className="hero-fine">
            {HERO.fine.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
        <TimerIllustration />
      </div>
    </section>
  );
}

/** A drawing of the timer and the week, in the app's own terms; no customer data. */
function TimerIllustration() {
  const week = [
    ['Mon', 7.5],
    ['Tue', 8],
    ['Wed', 6.5],
    ['Thu', 8.25],
    ['Fri', 5],
  ] as const;
  return (
    <figure className="illustration" aria-hidden="true">
      <div className="timer-row">
        <span className="timer-dot" />
        <span className="timer-text">
          <strong>Website redesign</strong>
          <span>Design review</span>
        </span>
        <span className="timer-clock">01:24:07</span>
        <span className="timer-stop">Stop</span>
      </div>
      <div className="week">
        {week.map(([day, hours]) => (
          <div key={day} className="week-day">
            <span className="week-bar" style={{ height: `${hours * 10}px` }} />
            <span>{day}</span>
          </div>
        ))}
      </div>
      <p className="week-total">This week: 35:15 h</p>
    </figure>
  );
}

function Facts() {
  return (
    <section className="facts" aria-labelledby="facts-title">
      <div className="container">
        <h2 id="facts-title" className="facts-title">
          {FACTS.heading}
        </h2>
        <ul className="facts-grid">
          {FACTS.items.map((fact) => (
            <li key={fact.title}>
              <strong>{fact.title}</strong>
              <span>{fact.text}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function DemoBanner() {
  return (
    <section className="banner" aria-labelledby="demo-banner-title">
      <div className="container banner-row">
        <div>
          <h2 id="demo-banner-title">{DEMO_BANNER.title}</h2>
          <p>{DEMO_BANNER.text}</p>
        </div>
        <a href={DEMO_BANNER.cta.href} className="button button-primary">
          {DEMO_BANNER.cta.label}
        </a>
      </div>
    </section>
  );
}

function FeatureItem({ feature, open }: { feature: Feature; open: boolean }) {
  return (
    <details className="accordion" open={open}>
      <summary>
        <span className="summary-text">
          {feature.title}
          {feature.status === 'building' && <Badge tone="soon">{STATUS_LABELS.building}</Badge>}
        </span>
      </summary>
      <div className="accordion-body">
        <p>{feature.text}</p>
        <a href={feature.link.href}>
          {feature.link.label}
          <span className="visually-hidden">: {feature.title}</span>
        </a>
      </div>
    </details>
  );
}

function Features() {
  return (
    <Section
      id="features"
      title="Everything a team needs to track time"
      lead="One app for the people who track, the people who plan and the people who pay. Each item links to its screen in the app or to the page that documents it."
    >
      <div className="audiences">
        {AUDIENCES.map((audience) => (
          <div key={audience.id} className="audience" id={audience.id}>
            <h3>{audience.title}</h3>
            <p className="muted">{audience.lead}</p>
            {audience.features.map((feature, index) => (
              <FeatureItem key={feature.title} feature={feature} open={index === 0} />
            ))}
          </div>
        ))}
      </div>
    </Section>
  );
}

function Integrations() {
  return (
    <Section
      id="integrations"
      title="Integrations"
      lead="Connect Sundial to the tools you run. We list only what exists or is being built, and say which is which; no logos of tools we do not connect to."
      tone="alt"
    >
      <ul className="grid-3">
        {INTEGRATIONS.map((integration) => (
          <li key={integration.id} className="card">
            <h3 className="card-title">
              <a href={`/integrations#${integration.id}`}>{integration.title}</a>
            </h3>
            <Badge tone={integration.status === 'available' ? 'ok' : 'soon'}>{STATUS_LABELS[integration.status]}</Badge>
            <p>{integration.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Faq() {
  return (
    <Section id="faq" title="Frequently asked questions" tone="alt">
      <div className="faq">
        {FAQ.map((item) => (
          <details key={item.question} className="accordion">
            <summary>{item.question}</summary>
            <div className="accordion-body">
              <p>{item.answer}</p>
            </div>
          </details>
        ))}
      </div>
    </Section>
  );
}

function BlogTeasers({ posts }: { posts: Post[] }) {
  return (
    <Section id="blog" title="From the blog">
      <div className="grid-3">
        {posts.slice(0, 3).map((post) => (
          <PostCard key={post.slug} post={post} />
        ))}
      </div>
      <p className="more">
        <a href="/blog">All posts</a>
      </p>
    </Section>
  );
}

function Closing() {
  return (
    <section className="closing" aria-labelledby="closing-title">
      <div className="container closing-inner">
        <h2 id="closing-title">{CLOSING.title}</h2>
        <p>{CLOSING.text}</p>
        <EmailSignupForm id="closing-email" button="Sign up free" />
      </div>
    </section>
  );
}

export function HomePage({ posts }: { posts: Post[] }) {
  return (
    <>
      <Hero />
      <Facts />
      <DemoBanner />
      <Features />
      <Integrations />
      <Section id="pricing" title="Simple pricing per license" lead="Start free. Pay for what your team uses.">
        <PlanGrid />
      </Section>
      <Faq />
      <BlogTeasers posts={posts} />
      <Closing />
    </>
  );
}
