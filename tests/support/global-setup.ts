import type { TestProject } from 'vitest/node';
import { startEmbeddedMongo } from '../../embedded-mongo';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoBaseUri: string;
    /** The suites run on the MongoDB given in MONGODB_URI rather than the in-memory engine. */
    externalMongo: boolean;
  }
}

/** One in-memory engine for the run (or the MONGODB_URI given); each test file gets its own database. */
export default async function setup(project: TestProject) {
  if (process.env.MONGODB_URI) {
    const url = new URL(process.env.MONGODB_URI);
    url.pathname = '/';
    project.provide('mongoBaseUri', url.toString());
    project.provide('externalMongo', true);
    return;
  }
  const engine = await startEmbeddedMongo();
  project.provide('mongoBaseUri', engine.uri.endsWith('/') ? engine.uri : `${engine.uri}/`);
  project.provide('externalMongo', false);
  return async () => {
    await engine.stop();
  };
}
