import { type FocusEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';

/**
 * A value shown as a light button whose editor takes its place while open (a field, a picker:
 * costly to mount on every row of a long list). After a save or Escape the keyboard goes back to
 * the button; a click elsewhere keeps its own focus.
 */
export function useInPlace() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!open && refocus.current) {
      refocus.current = false;
      button.current?.focus();
    }
  }, [open]);
  const close = (keepFocus: boolean) => {
    refocus.current = keepFocus;
    setOpen(false);
  };
  /** Whether focus leaves the editor (rather than moving to another of its own parts). */
  const leaving = (event: FocusEvent<HTMLElement>) => !event.currentTarget.contains(event.relatedTarget as Node | null);
  /** Enter saves (keeping the keyboard here), Escape gives up. */
  const keys = (save: (keepFocus: boolean) => void) => (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save(true);
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    }
  };
  return { open, setOpen, button, close, leaving, keys };
}
