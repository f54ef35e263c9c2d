// Sets the colour scheme before the first paint, so a dark-mode user never sees a white flash.
// An external file rather than an inline script: the Content-Security-Policy runs no unhashed inline code.
// Mirrors Mantine's ColorSchemeScript and apps/web/src/color-scheme.ts (same storage key, "auto" by default).
(() => {
  try {
    const stored = window.localStorage.getItem('sundial-color-scheme');
    let scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
    if (scheme === 'auto') scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch (_) {
    // No storage (private mode, blocked): Mantine still applies the scheme once it starts.
  }
})();
