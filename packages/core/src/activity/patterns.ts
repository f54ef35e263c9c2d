/**
 * The one pattern language of Computer time (issue 35), shared by the agent's exclusion rules and
 * the categories' rules: a pattern matches when the value contains it, ignoring case; `*` stands
 * for any run of characters (`slack*private` matches "Slack - private channel"). No regular
 * expressions: a rule typed by an admin can neither fail to compile nor take exponential time on a
 * long title.
 */
export function compilePattern(pattern: string): (value: string) => boolean {
  const parts = pattern.toLowerCase().split('*');
  return (value) => {
    const text = value.toLowerCase();
    let from = 0;
    for (const part of parts) {
      const at = text.indexOf(part, from);
      if (at < 0) return false;
      from = at + part.length;
    }
    return true;
  };
}

/** Scheme, host and path of an http(s) address; the query, the fragment and any user:password@ go. */
export function stripUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * A site rule's pattern: matched against a site (`docs.google.com/document/d/1`) from the start of
 * its host or of one of its host's labels, and ending where the host or a path segment ends, unless
 * the pattern ends with `*`; `*` elsewhere stands for any run of characters, case is ignored. So
 * `x.com` matches x.com and mobile.x.com but not netflix.com or x.community.org, `google.com/maps`
 * matches google.com/maps/place but not google.com/mapsearch, and `*.google.com` matches
 * docs.google.com but not docs.google.com.example.net.
 */
export function compileSitePattern(pattern: string): (site: string) => boolean {
  const parts = pattern
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .split('*');
  const openEnded = parts.at(-1) === '';
  const atBoundary = (text: string, end: number) => end === text.length || text[end] === '/' || text[end] === ':';
  const fromStart = (text: string, start: number): boolean => {
    const [first = '', ...others] = parts;
    if (!text.startsWith(first, start)) return false;
    let from = start + first.length;
    if (others.length === 0) return atBoundary(text, from);
    for (const [i, part] of others.entries()) {
      const last = i === others.length - 1;
      // The last part is taken where it last occurs, so that its end may fall on a boundary.
      const at = last ? text.lastIndexOf(part) : text.indexOf(part, from);
      if (at < from) return false;
      from = at + part.length;
    }
    return openEnded || atBoundary(text, from);
  };
  return (site) => {
    const text = site.toLowerCase();
    const hostEnd = text.search(/[/:]/) === -1 ? text.length : text.search(/[/:]/);
    if (fromStart(text, 0)) return true;
    for (let dot = text.indexOf('.'); dot !== -1 && dot < hostEnd; dot = text.indexOf('.', dot + 1)) {
      if (fromStart(text, dot + 1)) return true;
    }
    return false;
  };
}

/** What a site rule reads of an address: its host and path (`github.com/acme/app`), no scheme, no www. */
export function siteOf(url: string | null): string | null {
  if (url === null) return null;
  const stripped = stripUrl(url);
  return stripped === null ? null : stripped.replace(/^https?:\/\//, '').replace(/^www\./, '');
}

/**
 * The host of a page without "www." ("github.com"), or null: what the daily rollups keep of a site,
 * so that a day holds one row per site visited, not one per page.
 */
export function hostOf(url: string | null): string | null {
  const site = siteOf(url);
  if (site === null) return null;
  const slash = site.indexOf('/');
  return slash === -1 ? site : site.slice(0, slash);
}
