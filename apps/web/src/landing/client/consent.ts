export const CONSENT_KEY = 'sundial.cookie-consent';
export type Consent = 'accepted' | 'declined';

export function readConsent(): Consent | null {
  try {
    const value = localStorage.getItem(CONSENT_KEY);
    return value === 'accepted' || value === 'declined' ? value : null;
  } catch {
    return null;
  }
}

/** Loads the operator's analytics script, if one is configured, only after consent. */
function loadAnalytics(): void {
  const url = document.querySelector<HTMLMetaElement>('meta[name="sundial-analytics"]')?.content;
  if (!url || document.querySelector('script[data-analytics]')) return;
  const script = document.createElement('script');
  script.src = url;
  script.async = true;
  script.dataset.analytics = '';
  document.head.append(script);
}

/** The cookie notice: shown until the visitor chooses; the choice is kept and obeyed. */
export function initConsent(): void {
  const notice = document.getElementById('cookie-notice');
  if (!notice) return;
  const choice = readConsent();
  if (choice === 'accepted') loadAnalytics();
  notice.hidden = choice !== null;

  for (const button of notice.querySelectorAll<HTMLButtonElement>('[data-consent]')) {
    button.addEventListener('click', () => {
      const value = button.dataset.consent as Consent;
      try {
        localStorage.setItem(CONSENT_KEY, value);
      } catch {
        // Storage blocked: the choice holds for this page only.
      }
      notice.hidden = true;
      if (value === 'accepted') loadAnalytics();
    });
  }
  for (const settings of document.querySelectorAll<HTMLButtonElement>('[data-cookie-settings]')) {
    settings.addEventListener('click', () => {
      notice.hidden = false;
      notice.querySelector<HTMLButtonElement>('[data-consent]')?.focus();
    });
  }
}
