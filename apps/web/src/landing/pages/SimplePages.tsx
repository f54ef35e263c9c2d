import type { ReactNode } from 'react';
import { PlanGrid } from '../components/Pricing';
import { Badge, formatDate, PostCard } from '../components/ui';
import type { LegalText, Post } from '../content';
import { FAQ, INTEGRATIONS, STATUS_LABELS } from '../copy';

/** The heading block every page but the home page starts with. */
export function PageIntro({ title, lead, children }: { title: string; lead?: string; children?: ReactNode }) {
  return (
    <div className="page-intro">
      <div className="container narrow">
        <h1>{title}</h1>
        {lead && <p className="section-lead">{lead}</p>}
        {children}
      </div>
    </div>
  );
}

export function PricingPage() {
  const billing = FAQ.filter((item) => /trial|license|annual|VAT/i.test(item.question));
  return (
    <>
      <PageIntro title="Pricing" lead="Start free. Pay per license for the features your team needs." />
      <div className="container section">
        <PlanGrid headingLevel={2} />
      </div>
      <section className="section section-alt" aria-labelledby="billing-faq">
        <div className="container narrow">
          <h2 id="billing-faq" className="section-title">
            Billing questions
          </h2>
          {billing.map((item) => (
            <div key={item.question} className="qa">
              <h3>{item.question}</h3>
              <p>{item.answer}</p>
            </div>
          ))}
        </div>
      </section>
    </>
  );
}

export function IntegrationsPage() {
  return (
    <>
      <PageIntro
        title="Integrations"
        lead="How Sundial connects to the rest of your tools. Each entry says whether it is available today or being built."
      />
      <div className="container narrow section">
        {INTEGRATIONS.map((integration) => (
          <section
            key={integration.id}
            id={integration.id}
            className="integration"
            aria-labelledby={`${integration.id}-title`}
          >
            <h2 id={`${integration.id}-title`}>
              {integration.title}{' '}
              <Badge tone={integration.status === 'available' ? 'ok' : 'soon'}>
                {STATUS_LABELS[integration.status]}
              </Badge>
            </h2>
            <p>{integration.text}</p>
            <p>{integration.detail}</p>
            {integration.link && <a href={integration.link.href}>{integration.link.label}</a>}
          </section>
        ))}
      </div>
    </>
  );
}

export function BlogIndexPage({ posts }: { posts: Post[] }) {
  return (
    <>
      <PageIntro title="Blog" lead="Notes on time tracking, self-hosting and how Sundial is built." />
      <div className="container narrow section stack">
        {posts.map((post) => (
          <PostCard key={post.slug} post={post} headingLevel={2} />
        ))}
      </div>
    </>
  );
}

export function BlogPostPage({ post, others }: { post: Post; others: Post[] }) {
  return (
    <>
      <article className="container narrow section prose">
        <p className="meta">
          <a href="/blog">Blog</a> · <time dateTime={post.date}>{formatDate(post.date)}</time> · {post.readingMinutes}{' '}
          min read
        </p>
        <h1>{post.title}</h1>
        <p className="section-lead">{post.summary}</p>
        {/* Posts are Markdown written in this repository and rendered at build time. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, build-time content */}
        <div dangerouslySetInnerHTML={{ __html: post.html }} />
      </article>
      <section className="section section-alt" aria-labelledby="more-posts">
        <div className="container narrow stack">
          <h2 id="more-posts" className="section-title">
            More from the blog
          </h2>
          {others.slice(0, 2).map((other) => (
            <PostCard key={other.slug} post={other} />
          ))}
        </div>
      </section>
    </>
  );
}

export function LegalPage({ text, reviewed }: { text: LegalText; reviewed: boolean }) {
  return (
    <article className="container narrow section prose">
      <h1>{text.title}</h1>
      {!reviewed && (
        <p className="notice" role="note">
          This text is a template that the operator of this site has not yet completed.
        </p>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted, build-time content */}
      <div dangerouslySetInnerHTML={{ __html: text.html }} />
    </article>
  );
}

export function NotFoundPage() {
  return (
    <PageIntro title="Page not found" lead="This address does not lead to a page. It may have moved.">
      <p>
        <a href="/" className="button button-primary">
          Go to the home page
        </a>{' '}
        <a href="/blog" className="button button-secondary">
          Read the blog
        </a>
      </p>
    </PageIntro>
  );
}
