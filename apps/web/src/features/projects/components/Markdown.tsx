import { Anchor, Blockquote, Code, Divider, List, Text, Title } from '@mantine/core';
import { type ComponentProps, isValidElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

/** Links may only leave for the web or a mail client; anything else (javascript:, data:, relative) is dropped. */
function safeUrl(url: string): string | null {
  return /^(https?:|mailto:)/i.test(url.trim()) ? url : null;
}

/** The text inside a fenced block: react-markdown renders it as <pre><code>…</code></pre>. */
function codeText(children: ReactNode): ReactNode {
  return isValidElement<{ children?: ReactNode }>(children) ? children.props.children : children;
}

function heading(order: 4 | 5 | 6): Components['h1'] {
  return ({ children }) => (
    <Title order={order} mt={4}>
      {children}
    </Title>
  );
}

const components: Components = {
  h1: heading(4),
  h2: heading(5),
  h3: heading(6),
  h4: heading(6),
  h5: heading(6),
  h6: heading(6),
  p: ({ children }) => (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {children}
    </Text>
  ),
  a: ({ href, children }) =>
    href ? (
      <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
        {children}
      </Anchor>
    ) : (
      children
    ),
  // Descriptions never load remote images (no tracking pixels); the alt text stands in.
  img: ({ alt }) => alt ?? null,
  ul: ({ children }) => (
    <List type="unordered" size="sm" withPadding>
      {children}
    </List>
  ),
  ol: ({ children, start }: ComponentProps<'ol'>) => (
    <List type="ordered" size="sm" withPadding start={start}>
      {children}
    </List>
  ),
  li: ({ children }) => <List.Item>{children}</List.Item>,
  code: ({ children }) => <Code>{children}</Code>,
  pre: ({ children }) => <Code block>{codeText(children)}</Code>,
  blockquote: ({ children }) => (
    <Blockquote p="xs" my={4}>
      {children}
    </Blockquote>
  ),
  hr: () => <Divider my="xs" />,
};

/**
 * Safe Markdown view for descriptions (react-markdown, CommonMark). Raw HTML is shown as text,
 * never as markup; links open in a new tab and only for http(s) and mailto.
 */
export function Markdown({ source }: { source: string }) {
  return (
    <ReactMarkdown components={components} urlTransform={safeUrl}>
      {source}
    </ReactMarkdown>
  );
}
