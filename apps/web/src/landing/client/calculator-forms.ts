import { CALCULATORS } from '../calculators';

/** Recomputes a calculator's results whenever one of its fields changes. */
export function initCalculators(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-calculator]')) {
    const calculator = CALCULATORS.find((candidate) => candidate.slug === form.dataset.calculator);
    if (!calculator) continue;
    form.addEventListener('submit', (event) => event.preventDefault());
    form.addEventListener('input', () => {
      const values: Record<string, number> = {};
      for (const field of calculator.fields) {
        const input = form.elements.namedItem(field.name) as HTMLInputElement | null;
        values[field.name] = input && input.value !== '' ? Number(input.value) : Number.NaN;
      }
      const results = calculator.compute(values);
      for (const output of form.querySelectorAll<HTMLOutputElement>('output[data-output]')) {
        output.value = results?.[output.dataset.output ?? ''] ?? '—';
      }
    });
  }
}
