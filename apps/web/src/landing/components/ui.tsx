import type { ReactNode } from 'react';
import type { Post } from '../content';
import { SIGN_UP } from '../copy';

export function LogoMark() {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="15" fill="#f59f00" />
      <path d="M16 6v10l7 4" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
export const formatDate = (isoDate: string) => dateFormat.format(new Date(`${isoDate}T00:00:00Z`));

/** A plain GET form: the address travels to the sign-up page as ?email=, with or without JavaScript. */
export function EmailSignupForm({ id, button = SIGN_UP.label }: { id: string; button?: string }) {
  return (
    <form className="email-form" action={SIGN_UP.href} method="get">
      <label htmlFor={id}>Work e-mail</label>
      <div className="email-form-row">
        <input id={id} type="email" name="email" autoComplete="email" placeholder="you@company.com" />
        <button type="submit" className="button button-primary">
          {button}
        </button>
      </div>
    </form>
  );
}

export function PostCard({ post, headingLevel = 3 }: { post: Post; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="card post-card">
      <Heading className="post-card-title">
        <a href={`/blog/${post.slug}`}>{post.title}</a>
      </Heading>
      <p className="meta">
        <time dateTime={post.date}>{formatDate(post.date)}</time> · {post.readingMinutes} min read
      </p>
      <p>{post.summary}</p>
    </article>
  );
}

export function Section({
  id,
  title,
  lead,
  tone,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  tone?: 'alt';
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={tone ? `section section-${tone}` : 'section'}>
      <div className="container">
        <h2 id={`${id}-title`} className="section-title">
          {title}
        </h2>
        {lead && <p className="section-lead">{lead}</p>}
        {children}
      </div>
    </section>
  );
}

export function Badge({ children, tone }: { children: ReactNode; tone?: 'ok' | 'soon' }) {
  return <span className={tone ? `badge badge-${tone}` : 'badge'}>{children}</span>;
}
