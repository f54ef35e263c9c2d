// The only script of the public site: small enhancements on top of prerendered HTML.
import { initCalculators } from './calculator-forms';
import { initConsent } from './consent';
import { initDemoForm } from './demo-form';
import { initMenu } from './menu';

initMenu();
initConsent();
initDemoForm();
initCalculators();
for (const year of document.querySelectorAll('[data-current-year]'))
  year.textContent = String(new Date().getFullYear());
