import type { Config } from 'tailwindcss';

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
  plugins: [],
  // The defaults Tailwind's utilities read (--tw-shadow, --tw-ring-…, some 50 of them) go on the
  // elements that use those utilities rather than on every element: less style work per page.
  experimental: { optimizeUniversalDefaults: true },
} satisfies Config;
