import { createTheme } from '@mantine/core';

// theme is the workspace's one design: Mantine's components with the bank-blue primary, the
// system's Liberation Sans (installed with Chromium on Debian) and contrast that passes WCAG AA
// for text on every surface (docs/guide/dashboard.md "Design system").
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 5 },
  fontFamily: "'Liberation Sans', Arial, sans-serif",
  headings: { fontFamily: "'Liberation Sans', Arial, sans-serif" },
  defaultRadius: 'sm',
});
