import { Anchor, Code, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** **bold**, *italic*, `code` and [links](https://…) inside one line; links only to http(s) and mailto. */
function inline(text: string, keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(pattern)) {
    const token = match[0];
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const key = `${keyPrefix}-${n++}`;
    if (token.startsWith('**')) out.push(<strong key={key}>{token.slice(2, -2)}</strong>);
    else if (token.startsWith('`')) out.push(<Code key={key}>{token.slice(1, -1)}</Code>);
    else if (token.startsWith('[')) {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
      const href = link?.[2] ?? '';
      out.push(
        /^(https?:|mailto:)/i.test(href) ? (
          <Anchor key={key} href={href} target="_blank" rel="noopener noreferrer" size="sm">
            {link?.[1]}
          </Anchor>
        ) : (
          token
        ),
      );
    } else out.push(<em key={key}>{token.slice(1, -1)}</em>);
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * A small, safe Markdown view for descriptions: headings, bullet and numbered lists, paragraphs
 * and inline emphasis. It builds React elements, never HTML, so nothing typed can inject markup.
 */
export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = [];
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const key = `b${i}`;
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      const level = (heading[1]?.length ?? 1) + 3;
      blocks.push(
        <Title key={key} order={level as 4 | 5 | 6} mt={4}>
          {inline(heading[2] ?? '', key)}
        </Title>,
      );
      i++;
    } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: ReactNode[] = [];
      while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i] ?? '')) {
        const text = (lines[i] ?? '').replace(/^\s*([-*]|\d+\.)\s+/, '');
        items.push(<List.Item key={`i${i}`}>{inline(text, `i${i}`)}</List.Item>);
        i++;
      }
      blocks.push(
        <List key={key} type={ordered ? 'ordered' : 'unordered'} size="sm" withPadding>
          {items}
        </List>,
      );
    } else if (line.trim() === '') {
      i++;
    } else {
      const para: string[] = [];
      while (
        i < lines.length &&
        (lines[i] ?? '').trim() !== '' &&
        !/^(#{1,3}\s|\s*([-*]|\d+\.)\s)/.test(lines[i] ?? '')
      ) {
        para.push(lines[i] ?? '');
        i++;
      }
      blocks.push(
        <Text key={key} size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {inline(para.join('\n'), key)}
        </Text>,
      );
    }
  }
  return <>{blocks}</>;
}
