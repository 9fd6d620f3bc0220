// BUILD_DIR lets several builds live side by side (e.g. parallel test runs); the default is build/.
const buildDir = process.env.BUILD_DIR || 'build';

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  serverBuildPath: `${buildDir}/index.js`,
  assetsBuildDirectory: `${buildDir}/assets`,
  publicPath: '/build/',
  cacheDirectory: `.cache/${buildDir}`,
  tailwind: true,
  postcss: false,
  watchPaths: ['./embedded-mongo/**/*.ts'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: the browser gets every route in one cached manifest file. With discovery on, a
    // navigation that revalidates while a fetcher (the parcel pickers') is loading can fail with a
    // 404 the route never answered (remix-run/remix#10263, fixed only in React Router 7), and
    // /__manifest would match request-chosen paths against the route table.
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
