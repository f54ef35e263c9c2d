import { localStorageColorSchemeManager } from '@mantine/core';

/** Where the person's Theme choice (System, Light, Dark) is kept; public/color-scheme.js reads the same key. */
export const COLOR_SCHEME_KEY = 'sundial-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });
