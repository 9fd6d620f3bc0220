import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js, run on imports a file in each folder might be given.
const eslint = new ESLint();

async function restricted(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('the layers', () => {
  it('refuse a model importing a service, an e-mail body or a route', async () => {
    const file = 'app/models/example.server.ts';
    expect(await restricted(file, "import { audit } from '~/services/audit.server';")).toEqual([
      expect.stringContaining('app/models lies below app/services'),
    ]);
    expect(await restricted(file, "import { x } from '../services/mailer.server';")).toHaveLength(
      1,
    );
    expect(await restricted(file, "import { x } from '~/emails/inquiry.server';")).toHaveLength(1);
    expect(await restricted(file, "import { x } from '~/routes/api.parcels';")).toHaveLength(1);
    expect(await restricted(file, "import { env } from '~/lib/env.server';")).toEqual([]);
    expect(await restricted(file, "import { Parcel } from './parcel.server';")).toEqual([]);
  });

  it('refuse the ground floor importing anything of ours above it', async () => {
    const file = 'app/lib/example.server.ts';
    for (const above of ['models/parcel.server', 'services/audit.server', 'routes/api.parcels'])
      expect(await restricted(file, `import { x } from '~/${above}';`)).toHaveLength(1);
    expect(await restricted(file, "import { z } from '~/schemas/zod';")).toEqual([]);
  });

  it('refuse a service importing a route, and let a route import every layer', async () => {
    expect(
      await restricted(
        'app/services/example.server.ts',
        "import { x } from '~/routes/api.parcels';",
      ),
    ).toHaveLength(1);
    const route = 'app/routes/example.tsx';
    for (const below of ['services/parcels.server', 'models/parcel.server', 'lib/db.server'])
      expect(await restricted(route, `import { x } from '~/${below}';`)).toEqual([]);
  });

  it('keep services free of HTTP: no adapter, no framework request or answer helpers', async () => {
    const file = 'app/services/example.server.ts';
    expect(await restricted(file, "import { ApiError } from '~/http/api.server';")).toEqual([
      expect.stringContaining('app/services lies below app/http'),
    ]);
    expect(await restricted(file, "import { json } from '@remix-run/node';")).toEqual([
      expect.stringContaining('speak the domain'),
    ]);
    expect(await restricted(file, "import { ConflictError } from '~/lib/errors.server';")).toEqual(
      [],
    );
    const adapter = 'app/http/example.server.ts';
    expect(await restricted(adapter, "import { json } from '@remix-run/node';")).toEqual([]);
    expect(await restricted(adapter, "import { x } from '~/services/parcels.server';")).toEqual([]);
    expect(await restricted(adapter, "import { x } from '~/routes/api.parcels';")).toHaveLength(1);
  });
});
