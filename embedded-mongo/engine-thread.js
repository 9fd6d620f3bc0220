// Entry of the engine's thread when running from the TypeScript sources.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
