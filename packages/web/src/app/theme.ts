import { createTheme, darken, DEFAULT_THEME, lighten, Loader, luminance, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  components: {
    // A spinner is a status: its "Loading" label is then allowed and read out (a plain div takes no label).
    Loader: Loader.extend({ defaultProps: { role: 'status' } }),
    // A status never reads "COMP…" or "VENCI…": a badge keeps its whole word and the column makes room.
    // A plain object, not Badge.extend(): naming the component would put it in the sign-in page's code.
    Badge: {
      styles: {
        root: { flexShrink: 0, minWidth: 'max-content', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    },
    // A dialog's × button needs a name a screen reader can say (axe: button-name), in the page's language
    // (the shell keeps <html lang> on the person's language). Screens may still name it themselves.
    Modal: { defaultProps: () => ({ closeButtonProps: { 'aria-label': closeLabel() } }) },
    Drawer: { defaultProps: () => ({ closeButtonProps: { 'aria-label': closeLabel() } }) },
  },
});

/**
 * "Close dialog" in the page's language; the theme is built before any catalogue is loaded, so the four
 * texts live here. Not a bare "Close": a dialog that closes a record (a permit, an action) has a "Close"
 * button of its own, and the two must not share a name.
 */
const CLOSE: Record<string, string> = { en: 'Close dialog', es: 'Cerrar diálogo', tr: 'Pencereyi kapat', zh: '关闭对话框' };
function closeLabel(): string {
  const lang = typeof document === 'undefined' ? 'en' : document.documentElement.lang.slice(0, 2);
  return CLOSE[lang] ?? CLOSE['en']!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour moved toward black (light scheme) or white (dark scheme) in small steps until text in it, or
 * white text on it, reads at WCAG AA (4.5:1) on every one of the backgrounds.
 */
function readable(color: string, backgrounds: readonly string[], scheme: 'light' | 'dark'): string {
  let result = color;
  for (let step = 1; step <= 19 && backgrounds.some((b) => contrast(result, b) < 4.6); step += 1)
    result = (scheme === 'light' ? darken : lighten)(color, step * 0.05);
  return result;
}

/**
 * Mantine's default shades put grey and coloured text (dimmed text, links, outline and light badges, white
 * on filled buttons) under 4.5:1 in both schemes; issue 15 wants no such axe violation on any screen. The
 * same colours, darkened (light) or lightened (dark) just enough.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const { colors, white } = DEFAULT_THEME;
  const grey = colors.gray;
  const dark = colors.dark;
  const light: Record<string, string> = {};
  const darkScheme: Record<string, string> = {};
  const lightPages = [white, grey[0], grey[1]];
  const darkPages = [dark[7], dark[6], dark[5]];
  for (const [name, shades] of Object.entries(colors)) {
    const text = readable(shades[6], lightPages, 'light');
    const filled = readable(shades[6], [white], 'light');
    Object.assign(light, {
      [`--mantine-color-${name}-text`]: text,
      [`--mantine-color-${name}-outline`]: text,
      [`--mantine-color-${name}-light-color`]: readable(shades[9], [shades[1], shades[2]], 'light'),
      [`--mantine-color-${name}-filled`]: filled,
      [`--mantine-color-${name}-filled-hover`]: darken(filled, 0.1),
    });
    const darkText = readable(shades[4], darkPages, 'dark');
    const darkFilled = readable(shades[8], [white], 'light');
    Object.assign(darkScheme, {
      [`--mantine-color-${name}-text`]: darkText,
      [`--mantine-color-${name}-outline`]: darkText,
      [`--mantine-color-${name}-filled`]: darkFilled,
      [`--mantine-color-${name}-filled-hover`]: darken(darkFilled, 0.1),
    });
  }
  Object.assign(light, {
    '--mantine-color-dimmed': readable(grey[6], lightPages, 'light'),
    '--mantine-color-anchor': readable(colors.blue[6], [...lightPages, colors.blue[0]], 'light'),
    '--mantine-color-error': readable(colors.red[6], lightPages, 'light'),
  });
  Object.assign(darkScheme, {
    '--mantine-color-dimmed': readable(dark[2], darkPages, 'dark'),
    '--mantine-color-anchor': readable(colors.blue[4], darkPages, 'dark'),
    '--mantine-color-error': readable(colors.red[6], darkPages, 'dark'),
  });
  return { variables: {}, light, dark: darkScheme };
};
