/** The public pages, and a path that is none (the 404 page): for checks that go through them all. */
export const PUBLIC_PAGES = [
  '/',
  '/track',
  '/services',
  '/about',
  '/contact',
  '/quote',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/no-such-page-here',
];
