import type { ReactNode } from 'react';
import type { SiteSettings } from '../content';
import { COOKIE_NOTICE, FOOTER_COLUMNS, NAV_LINKS, SIGN_IN, SIGN_UP } from '../copy';
import { LogoMark } from './ui';

function Header({ path }: { path: string }) {
  return (
    <header className="site-header">
      <div className="container header-row">
        <a href="/" className="brand">
          <LogoMark />
          <span>Sundial</span>
        </a>
        <button type="button" className="menu-button" aria-expanded="false" aria-controls="site-nav">
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M2 5h16M2 10h16M2 15h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          Menu
        </button>
        <nav id="site-nav" className="site-nav" aria-label="Main">
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} className="nav-link" aria-current={link.href === path ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="nav-actions">
            <a href={SIGN_IN.href} className="button button-quiet">
              {SIGN_IN.label}
            </a>
            <a href={SIGN_UP.href} className="button button-primary">
              {SIGN_UP.label}
            </a>
          </div>
        </nav>
      </div>
    </header>
  );
}

function Footer({ site, year }: { site: SiteSettings; year: number }) {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-columns">
          {FOOTER_COLUMNS.map((column) => (
            <nav key={column.title} aria-labelledby={`footer-${column.title.toLowerCase()}`}>
              <h2 id={`footer-${column.title.toLowerCase()}`} className="footer-title">
                {column.title}
              </h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.href}>
                    <a href={link.href}>{link.label}</a>
                  </li>
                ))}
                {column.title === 'Legal' && (
                  <li>
                    <button type="button" className="link-button" data-cookie-settings>
                      {COOKIE_NOTICE.settings}
                    </button>
                  </li>
                )}
              </ul>
            </nav>
          ))}
        </div>
        <div className="footer-bottom">
          <p>
            © <span data-current-year>{year}</span> Sundial contributors. Sundial is free software under the
            AGPL-3.0-or-later.
          </p>
          <ul className="social" aria-label="Follow Sundial">
            {site.social.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}

function CookieNotice() {
  return (
    <section id="cookie-notice" className="cookie-notice" aria-labelledby="cookie-title" hidden>
      <div className="cookie-text">
        <h2 id="cookie-title">{COOKIE_NOTICE.title}</h2>
        <p>
          {COOKIE_NOTICE.text} <a href="/privacy">Privacy policy</a>
        </p>
      </div>
      <div className="cookie-actions">
        <button type="button" className="button button-secondary" data-consent="declined">
          {COOKIE_NOTICE.decline}
        </button>
        <button type="button" className="button button-primary" data-consent="accepted">
          {COOKIE_NOTICE.accept}
        </button>
      </div>
    </section>
  );
}

/** The chrome every public page shares: skip link, navbar, footer and the cookie notice. */
export function Layout({
  path,
  site,
  year,
  children,
}: {
  path: string;
  site: SiteSettings;
  year: number;
  children: ReactNode;
}) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header path={path} />
      <main id="main">{children}</main>
      <Footer site={site} year={year} />
      <CookieNotice />
    </>
  );
}
