import {
  Anchor,
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  Drawer,
  defaultVariantColorsResolver,
  Loader,
  Menu,
  Modal,
  Notification,
  type VariantColorsResolver,
} from '@mantine/core';
import {
  contrastRatio,
  DARK_TEXT,
  darkenToContrast,
  LIGHT_TEXT,
  lightenToContrast,
  readableTextColor,
  shadeHex,
} from '@sundial/core';

/**
 * Sundial's Mantine theme, held to WCAG 2.2 AA (4.5:1 for text) in both colour schemes. Mantine's
 * defaults are not: dimmed grey is 3.32:1 on white, the blue link 3.18:1 on the trial banner; in
 * the dark scheme dimmed grey is 4.1:1 on the body and a green button's white text 3.3:1.
 * Rather than patch elements one by one, every text colour is computed here from Mantine's own
 * palette, darkened (light scheme) or lightened (dark scheme) just enough to reach 4.5:1 on every
 * background the app paints.
 */

const SHADE = 6;
const colors = DEFAULT_THEME.colors;
const names = Object.keys(colors).filter((name) => name !== 'dark');
const shadeOf = (name: string): string => colors[name]?.[SHADE] ?? '#000000';

/** A light variant (the trial banner, badges, the active nav entry) fills with shade 1, hovers with 2. */
const shade = (name: string, index: number): string => colors[name]?.[index] ?? '#ffffff';

/** White cards and bars, the grey page, table stripes, the auth pages' warm gradient, every light fill. */
export const BACKGROUNDS = [
  '#ffffff',
  colors.gray[0],
  colors.gray[1],
  '#fff8e6',
  ...names.map((name) => shade(name, 1)),
];

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

/*
 * The dark scheme. Mantine paints the body dark[7], inputs and default buttons dark[6], their hover
 * dark[5]; Sundial's page behind the cards is dark[8]. A light variant (badges, alerts, the trial
 * banner, the active nav entry) fills with the colour's shade 9 darkened by half, hovers with 30%.
 */
const DARK_SHADE = 8;
const dark = colors.dark;
const darkLight = (name: string): string => shadeHex(shade(name, 9), 0.5);
const darkLightHover = (name: string): string => shadeHex(shade(name, 9), 0.3);
/** The auth pages' warm glow at the top, in the dark: the yellow of the light scheme, mostly shaded away. */
const WARM_DARK = shadeHex(shade('yellow', 9), 0.8);
export const DARK_SURFACES = [dark[8], dark[7], dark[6], dark[5], WARM_DARK];
export const DARK_BACKGROUNDS = [...DARK_SURFACES, ...names.map(darkLight)];

/** Text in a colour in the dark scheme: Mantine's shade 4, lightened to read on the surfaces and its own fills. */
const darkTextColorOf = (name: string, start = 4): string =>
  lightenToContrast(shade(name, start), [...DARK_SURFACES, darkLight(name), darkLightHover(name)]);

/** The filled fill in the dark scheme (shade 8), with white text where the hue allows, else dark text. */
function darkFilledOf(name: string): { background: string; hover: string; color: string } {
  const base = shade(name, DARK_SHADE);
  if (contrastRatio(LIGHT_TEXT, base) < 3 && readableTextColor(base) === DARK_TEXT) {
    return { background: base, hover: shade(name, 7), color: DARK_TEXT };
  }
  const background = darkenToContrast(base, [LIGHT_TEXT]);
  return { background, hover: darkenToContrast(background, [LIGHT_TEXT], 5.5), color: LIGHT_TEXT };
}

/** Dimmed text sits on the surfaces and the blue of a selected row; held there, it stays quieter than text. */
export const DARK_DIMMED_BACKGROUNDS = [...DARK_SURFACES, darkLight('blue'), darkLightHover('blue')];
export const DARK_DIMMED = lightenToContrast(dark[2], DARK_DIMMED_BACKGROUNDS);
export const DARK_LINK = lightenToContrast(shade('blue', 4), DARK_BACKGROUNDS);

/**
 * Sundial's own surfaces, one variable each so no component hard-codes a light colour: the page
 * behind the cards, the bars and sidebar on it, a quiet fill (group headers, hovers), a selected
 * row, hairlines and borders.
 */
export const SURFACES = {
  light: {
    page: colors.gray[0],
    surface: '#ffffff',
    subtle: colors.gray[0],
    selected: shade('blue', 0),
    rule: colors.gray[2],
    border: colors.gray[3],
    warm: '#fff8e6',
  },
  dark: {
    page: dark[8],
    surface: dark[7],
    subtle: dark[6],
    selected: darkLight('blue'),
    rule: dark[5],
    border: dark[4],
    warm: WARM_DARK,
  },
} as const;

const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-anchor': LINK,
  };
  const darkVars: Record<string, string> = {
    '--mantine-color-dimmed': DARK_DIMMED,
    '--mantine-color-anchor': DARK_LINK,
    '--mantine-color-error': darkTextColorOf('red'),
  };
  for (const [key, value] of Object.entries(SURFACES.light)) light[`--sundial-color-${key}`] = value;
  for (const [key, value] of Object.entries(SURFACES.dark)) darkVars[`--sundial-color-${key}`] = value;
  for (const name of names) {
    const text = textColorOf(name);
    const filled = filledOf(name);
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-light-color`] = text;
    light[`--mantine-color-${name}-outline`] = text;
    light[`--mantine-color-${name}-filled`] = filled.background;
    light[`--mantine-color-${name}-filled-hover`] = filled.hover;
    light[`--sundial-color-${name}-on-filled`] = filled.color;
    const darkText = darkTextColorOf(name);
    const darkFilled = darkFilledOf(name);
    darkVars[`--mantine-color-${name}-text`] = darkText;
    darkVars[`--mantine-color-${name}-light`] = darkLight(name);
    darkVars[`--mantine-color-${name}-light-hover`] = darkLightHover(name);
    darkVars[`--mantine-color-${name}-light-color`] = darkTextColorOf(name, 0);
    darkVars[`--mantine-color-${name}-outline`] = darkText;
    darkVars[`--mantine-color-${name}-filled`] = darkFilled.background;
    darkVars[`--mantine-color-${name}-filled-hover`] = darkFilled.hover;
    darkVars[`--sundial-color-${name}-on-filled`] = darkFilled.color;
  }
  return { variables: {}, light, dark: darkVars };
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
  primaryShade: { light: SHADE, dark: DARK_SHADE },
  // Mantine's own transitions (menus, modals, drawers) stop when the system asks for less motion.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  variantColorResolver,
  components: {
    // A link must not be told from the text around it by colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Mantine's close buttons are an icon only: give them a name (WCAG 4.1.2).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    // Mantine's initial-focus placeholder is a presentational element with a tabindex inside the
    // menu, which a menu may not hold (axe: aria-required-children); focus goes to the first item.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss message' } } }),
    // A spinner's name ("Loading tags") is only allowed on an element with a role (axe:
    // aria-prohibited-attr on a bare span): every loader is a status.
    Loader: Loader.extend({ defaultProps: { role: 'status' } }),
  },
});

export { cssVariablesResolver };
