import type { Config } from 'tailwindcss';
import app from './tailwind.config';

/**
 * The staff's and shippers' stylesheet (app/styles/staff.css): everything but the public site's
 * pages and the components only they use.
 */
export default {
  ...app,
  content: [
    './app/**/*.{ts,tsx}',
    '!./app/routes/_public*',
    '!./app/components/tracking-public/**',
    '!./app/components/public/{card-lists,faq-accordion,hero-carousel,honeypot-field,inquiry-form,legal-page,page-hero,parcel-prices,services-section,site-footer,site-header,tracking-box}.tsx',
  ],
} satisfies Config;
