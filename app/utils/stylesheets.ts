import type { LinksFunction } from '@remix-run/node';
import publicStylesheet from '~/styles/public.css';
import staffStylesheet from '~/styles/staff.css';

/**
 * Each side of the site has its own stylesheet, with the classes of its own pages only: the
 * public site's visitors never download the dashboard's styles, nor the staff the marketing
 * pages'. A page's layout links its side's (the root links none).
 */
export { publicStylesheet };
export const publicStyles: LinksFunction = () => [{ rel: 'stylesheet', href: publicStylesheet }];
export const staffStyles: LinksFunction = () => [{ rel: 'stylesheet', href: staffStylesheet }];
