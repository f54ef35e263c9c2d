interface ApiError {
  error?: { message?: string; fields?: Record<string, string> };
}

/** Sends the demo request as JSON and shows the API's messages beside the fields. */
export function initDemoForm(): void {
  const form = document.getElementById('demo-form') as HTMLFormElement | null;
  const done = document.getElementById('demo-done');
  const alert = document.getElementById('demo-form-alert');
  if (!form || !done || !alert) return;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');

  const showErrors = (message: string, fields: Record<string, string> = {}) => {
    alert.textContent = message;
    alert.hidden = false;
    for (const slot of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
      const id = slot.dataset.errorFor ?? '';
      const text = fields[id.replace(/^demo-/, '')] ?? '';
      slot.textContent = text;
      document.getElementById(id)?.setAttribute('aria-invalid', String(Boolean(text)));
    }
    const firstInvalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    firstInvalid?.focus();
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form));
    if (submit) submit.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => ({}))) as ApiError & { message?: string };
      if (!response.ok) {
        showErrors(answer.error?.message ?? 'Something went wrong. Please try again.', answer.error?.fields);
        return;
      }
      const message = done.querySelector('[data-demo-message]');
      if (message) message.textContent = answer.message ?? '';
      form.hidden = true;
      done.hidden = false;
      done.focus();
    } catch {
      showErrors('We could not reach the server. Check your connection and try again.');
    } finally {
      if (submit) submit.disabled = false;
    }
  });
}
