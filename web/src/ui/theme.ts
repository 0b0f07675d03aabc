import { Badge, createTheme, Input } from '@mantine/core';

// theme is the workspace's one design: Mantine's components with the bank-blue primary, the
// system's Liberation Sans (installed with Chromium on Debian) and contrast that passes WCAG AA
// for text on every surface (docs/guide/dashboard.md "Design system").
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 5 },
  fontFamily: "'Liberation Sans', Arial, sans-serif",
  headings: { fontFamily: "'Liberation Sans', Arial, sans-serif" },
  defaultRadius: 'sm',
  // Mantine's dimmed grey (gray.6) is 3.3:1 on white: field descriptions use gray.7 (axe
  // color-contrast on the settings' time zone description).
  components: {
    InputWrapper: Input.Wrapper.extend({ styles: { description: { color: 'var(--mantine-color-gray-7)' } } }),
    // Mantine's badges print their text in capitals: a case type read "SANCTIONS HIT" beside the
    // "Sanctions hit" of every other screen. Badges show the one spelling (enumLabel) as written.
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
  },
});
