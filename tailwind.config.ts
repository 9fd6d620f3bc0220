import type { Config } from 'tailwindcss';
import plugin from 'tailwindcss/plugin';

/**
 * The app's own base styles and components (buttons, fields, cards), for both stylesheets:
 * each is emitted only where a page uses it.
 */
const appStyles = plugin(({ addBase, addComponents }) => {
  addBase({
    html: { '-webkit-text-size-adjust': '100%' },
    ':focus-visible': { outline: '3px solid #f97316', outlineOffset: '2px' },
    summary: { cursor: 'pointer' },
    '@keyframes spin': { to: { transform: 'rotate(360deg)' } },
  });
  const apply = (classes: string) => ({ [`@apply ${classes}`]: {} });
  addComponents({
    '.btn': apply(
      'inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60',
    ),
    '.btn-primary': apply('btn bg-brand-600 text-white hover:bg-brand-700'),
    '.btn-accent': apply('btn bg-accent-700 text-white hover:bg-accent-800'),
    '.btn-secondary': apply('btn border border-gray-300 bg-white text-gray-800 hover:bg-gray-50'),
    '.btn-danger': apply('btn bg-red-600 text-white hover:bg-red-700'),
    // Public pages are used on phones: every button and field there is a 44 px target.
    '.public-main .btn, .public-main .field-input': { minHeight: '2.75rem' },
    '.field-label': apply('mb-1 block text-sm font-medium text-gray-700'),
    '.field-input': apply(
      'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm placeholder:text-gray-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500 aria-[invalid=true]:border-red-500',
    ),
    '.field-error': apply('mt-1 text-sm text-red-600'),
    '.card': apply('rounded-lg border border-gray-200 bg-white shadow-sm'),
  });
});

export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: {
          50: '#eff6ff',
          100: '#dbeafe',
          500: '#2563eb',
          600: '#1d4ed8',
          700: '#1e40af',
          800: '#1e3a8a',
          900: '#172554',
        },
        // White on 700 and 700 on white are 5.2:1; 200 on the blue banners is at least 5:1.
        accent: {
          200: '#fed7aa',
          400: '#fb923c',
          500: '#f97316',
          600: '#ea580c',
          700: '#c2410c',
          800: '#9a3412',
        },
      },
    },
  },
  plugins: [appStyles],
  // The defaults Tailwind's utilities read (--tw-shadow, --tw-ring-…, some 50 of them) go on the
  // elements that use those utilities rather than on every element: less style work per page.
  experimental: { optimizeUniversalDefaults: true },
} satisfies Config;
