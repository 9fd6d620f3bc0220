import { z } from 'zod';

/**
 * zod as the schemas use it. In the browser the pages run under a CSP without 'unsafe-eval', so
 * zod's compiled parsers (built with `new Function`) cannot run there anyway; `jitless` stops it
 * from trying, which the browser would report as a policy violation on every staff page. Schemas
 * import `z` from here, so this runs before any of them is built.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
