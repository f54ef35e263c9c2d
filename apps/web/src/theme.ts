import {
  Anchor,
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  Drawer,
  defaultVariantColorsResolver,
  Modal,
  type VariantColorsResolver,
} from '@mantine/core';
import { contrastRatio, DARK_TEXT, darkenToContrast, LIGHT_TEXT, readableTextColor } from '@sundial/core';

/**
 * Sundial's Mantine theme, held to WCAG 2.2 AA (4.5:1 for text) in the light scheme. Mantine's
 * defaults are not: dimmed grey is 3.32:1 on white, the blue link 3.18:1 on the trial banner.
 * Rather than patch elements one by one, every text colour is computed here from Mantine's own
 * palette, darkened just enough to reach 4.5:1 on every background the app paints.
 */

const SHADE = 6;
const colors = DEFAULT_THEME.colors;
const names = Object.keys(colors).filter((name) => name !== 'dark');
const shadeOf = (name: string): string => colors[name]?.[SHADE] ?? '#000000';

/** A light variant (the trial banner, badges, the active nav entry) fills with shade 1, hovers with 2. */
const shade = (name: string, index: number): string => colors[name]?.[index] ?? '#ffffff';

/** White cards and bars, the grey page, table stripes, the auth pages' warm gradient, every light fill. */
const BACKGROUNDS = ['#ffffff', colors.gray[0], colors.gray[1], '#fff8e6', ...names.map((name) => shade(name, 1))];

/** Text in a colour (light, subtle, outline, white variants; `c="blue"`), readable on its own fills and the page. */
const textColorOf = (name: string): string =>
  darkenToContrast(shadeOf(name), [
    '#ffffff',
    colors.gray[0],
    colors.gray[1],
    shade(name, 0),
    shade(name, 1),
    shade(name, 2),
  ]);

/** A filled fill keeps white text where the hue allows (blue, red, green), else takes dark text (yellow). */
function filledOf(name: string): { background: string; hover: string; color: string } {
  const base = shadeOf(name);
  if (contrastRatio(LIGHT_TEXT, base) < 3 && readableTextColor(base) === DARK_TEXT) {
    return { background: base, hover: colors[name]?.[SHADE + 1] ?? base, color: DARK_TEXT };
  }
  const background = darkenToContrast(base, [LIGHT_TEXT]);
  return { background, hover: darkenToContrast(background, [LIGHT_TEXT], 5.5), color: LIGHT_TEXT };
}

export const DIMMED = darkenToContrast(colors.gray[6], BACKGROUNDS);
export const LINK = darkenToContrast(shadeOf('blue'), BACKGROUNDS);

const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-anchor': LINK,
  };
  const dark: Record<string, string> = {};
  for (const name of names) {
    const text = textColorOf(name);
    const filled = filledOf(name);
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-light-color`] = text;
    light[`--mantine-color-${name}-outline`] = text;
    light[`--mantine-color-${name}-filled`] = filled.background;
    light[`--mantine-color-${name}-filled-hover`] = filled.hover;
    light[`--sundial-color-${name}-on-filled`] = filled.color;
    // The dark scheme keeps Mantine's colours (its audit is a later step); only the text on a fill is ours.
    dark[`--sundial-color-${name}-on-filled`] = readableTextColor(shade(name, 8));
  }
  return { variables: {}, light, dark };
};

/**
 * Variants point at the scheme's variables rather than fixed colours, so the dark scheme keeps
 * working: filled fills take the text colour their fill needs, the others the colour's text shade.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const result = defaultVariantColorsResolver(input);
  const name = typeof input.color === 'string' ? input.color : input.theme.primaryColor;
  if (!names.includes(name)) return result;
  if (input.variant === 'filled') return { ...result, color: `var(--sundial-color-${name}-on-filled)` };
  if (['light', 'subtle', 'transparent'].includes(input.variant)) {
    return { ...result, color: `var(--mantine-color-${name}-light-color)` };
  }
  if (input.variant === 'white') return { ...result, color: textColorOf(name) };
  return result;
};

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: SHADE, dark: 8 },
  fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  variantColorResolver,
  components: {
    // A link must not be told from the text around it by colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Mantine's close buttons are an icon only: give them a name (WCAG 4.1.2).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
  },
});

export { cssVariablesResolver };
