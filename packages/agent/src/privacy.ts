import { type ActivityKeep, type AgentConfigView, compilePattern, stripUrl } from '@sundial/core/activity';

/** What had the focus, as the platform backend saw it (before the workspace's privacy rules). */
export interface WindowObservation {
  app: string;
  title: string | null;
  url: string | null;
}

export interface PrivacyRules {
  keep: ActivityKeep;
  exclusions: AgentConfigView['exclusions'];
}

/** The application name sent for a window an exclusion rule matched; its title and site never leave. */
export const EXCLUDED_APP = 'excluded';

/**
 * The workspace's rules applied on the computer, before anything is stored or sent: an excluded
 * window becomes `{ app: "excluded", title: null, url: null }`; titles are kept only when the
 * workspace keeps titles or sites, addresses only when it keeps sites (and then without their query
 * and fragment).
 */
export function createPrivacyFilter(rules: PrivacyRules): (window: WindowObservation) => WindowObservation {
  const matchers = rules.exclusions.map((rule) => ({ field: rule.field, matches: compilePattern(rule.pattern) }));
  const keepTitles = rules.keep === 'titles' || rules.keep === 'sites';
  const keepSites = rules.keep === 'sites';
  return (window) => {
    const excluded = matchers.some(({ field, matches }) => {
      const value = field === 'app' ? window.app : window.title;
      return value !== null && matches(value);
    });
    if (excluded) return { app: EXCLUDED_APP, title: null, url: null };
    return {
      app: window.app.slice(0, 200),
      title: keepTitles && window.title ? window.title.slice(0, 1000) : null,
      url: keepSites && window.url ? (stripUrl(window.url)?.slice(0, 2000) ?? null) : null,
    };
  };
}
