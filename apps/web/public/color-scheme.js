// Sets the colour scheme before the first paint, so a dark-mode user never sees a white flash.
// An external file rather than an inline script: the Content-Security-Policy runs no unhashed inline code.
// Mirrors Mantine's ColorSchemeScript and apps/web/src/color-scheme.ts (same storage key, "auto" by default).
// The app and the public site (landing.html) both load it; the site's stylesheet reads the same attribute.
(() => {
  let scheme = 'auto';
  try {
    const stored = window.localStorage.getItem('sundial-color-scheme');
    if (stored === 'light' || stored === 'dark') scheme = stored;
  } catch (_) {
    // No storage (private mode, blocked): follow the system.
  }
  if (scheme === 'auto') scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
