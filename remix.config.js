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
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
