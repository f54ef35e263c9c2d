/** Stands for the site's address in prerendered files; the server puts its PUBLIC_URL in its place. */
export const ORIGIN_TOKEN = '__SUNDIAL_ORIGIN__';

export interface PageMeta {
  title: string;
  description: string;
  ogType?: 'website' | 'article';
}

export function Head({ path, meta, analyticsScriptUrl }: { path: string; meta: PageMeta; analyticsScriptUrl: string }) {
  const url = `${ORIGIN_TOKEN}${path}`;
  const title = path === '/' ? meta.title : `${meta.title} · Sundial`;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={meta.description} />
      <link rel="canonical" href={url} />
      <meta property="og:site_name" content="Sundial" />
      <meta property="og:type" content={meta.ogType ?? 'website'} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={meta.description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={`${ORIGIN_TOKEN}/og-image.png`} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta property="og:image:alt" content="Sundial: time tracking your team will actually use" />
      <meta name="twitter:card" content="summary_large_image" />
      <link rel="alternate" type="application/rss+xml" title="Sundial blog" href="/blog/rss.xml" />
      {analyticsScriptUrl && <meta name="sundial-analytics" content={analyticsScriptUrl} />}
    </>
  );
}
