/** A small colour mark before a name (a project's colour, a chart's slice); hidden from screen readers. */
export function Swatch({ color, size = 10, round = true }: { color?: string | null; size?: number; round?: boolean }) {
  if (!color) return null;
  // Mantine colour names ("blue.6") are its CSS variables; anything else is a CSS colour.
  const background = /^[a-z]+\.\d$/.test(color) ? `var(--mantine-color-${color.replace('.', '-')})` : color;
  return (
    <span
      aria-hidden="true"
      style={{
        display: 'inline-block',
        width: size,
        height: size,
        borderRadius: round ? size / 2 : 2,
        marginRight: 6,
        background,
      }}
    />
  );
}
