import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

const html = (source: string) =>
  renderToStaticMarkup(createElement(MantineProvider, null, createElement(Markdown, { source })));

describe('Markdown', () => {
  it('renders headings, lists, emphasis and code', () => {
    const out = html('# Plan\n\nShip **now** and *then* `npm test`\n\n- copy\n- design\n\n1. one\n2. two');
    expect(out).toMatch(/<h4[^>]*>Plan<\/h4>/);
    expect(out).toContain('<strong>now</strong>');
    expect(out).toContain('<em>then</em>');
    expect(out).toMatch(/<code[^>]*>npm test<\/code>/);
    expect(out).toMatch(/<ul[^>]*>.*copy.*design.*<\/ul>/s);
    expect(out).toMatch(/<ol[^>]*>.*one.*two.*<\/ol>/s);
  });

  it('shows raw HTML as text, never as markup', () => {
    const out = html('<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)>');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;');
  });

  it('opens http(s) and mailto links in a new tab and drops other schemes', () => {
    const out = html('[site](https://example.com) [mail](mailto:a@b.c) [bad](javascript:alert(1)) [rel](/admin)');
    expect(out).toMatch(/<a[^>]*href="https:\/\/example.com"[^>]*target="_blank"[^>]*rel="noopener noreferrer"/);
    expect(out).toContain('href="mailto:a@b.c"');
    expect(out).not.toContain('javascript:');
    expect(out).not.toContain('href="/admin"');
    expect(out).toContain('bad');
  });

  it('does not load images, showing their alt text', () => {
    const out = html('![a pixel](https://tracker.example/p.gif)');
    expect(out).not.toContain('<img');
    expect(out).toContain('a pixel');
  });
});
