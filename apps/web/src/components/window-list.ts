import { useWindowVirtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';

type Options = Pick<
  VirtualizerOptions<Window, Element>,
  'count' | 'estimateSize' | 'getItemKey' | 'overscan' | 'rangeExtractor'
>;

/**
 * A long list scrolled by the window that mounts only the items near the viewport. The list
 * element (`listRef`) may sit anywhere on the page: its distance from the top (`scrollMargin`,
 * already included in each item's `start`) is read after every render, since what sits above it
 * (a toolbar, a bar shown while items are selected) grows and shrinks.
 */
export function useWindowList<E extends HTMLElement = HTMLDivElement>(options: Options) {
  const listRef = useRef<E>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const top = (listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
    if (Math.abs(top - scrollMargin) >= 1) setScrollMargin(top);
  });
  const virtualizer = useWindowVirtualizer({ ...options, scrollMargin });
  return { listRef, scrollMargin, virtualizer };
}
