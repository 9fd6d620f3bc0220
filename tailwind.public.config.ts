import type { Config } from 'tailwindcss';
import app from './tailwind.config';

/** The public site's stylesheet (app/styles/public.css): everything but the staff's and shippers' screens. */
export default {
  ...app,
  content: [
    './app/**/*.{ts,tsx}',
    '!./app/routes/{dashboard,account}.*',
    '!./app/routes/{dashboard,account}.tsx',
    '!./app/components/{account,audit,dashboard,dispatch,notifications,parcels,receipts,scan,settings,statements,tracking,users}/**',
  ],
} satisfies Config;
