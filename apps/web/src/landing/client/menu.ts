/** The navbar's menu button on narrow screens. */
export function initMenu(): void {
  const button = document.querySelector<HTMLButtonElement>('.menu-button');
  const nav = document.getElementById('site-nav');
  if (!button || !nav) return;
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    nav.toggleAttribute('data-open', open);
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && nav.hasAttribute('data-open')) {
      setOpen(false);
      button.focus();
    }
  });
  nav.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) setOpen(false);
  });
}
