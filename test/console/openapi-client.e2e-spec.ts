import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { useServiceWithDatabase } from '../support/test-app.js';

const SCHEMA_FILE = new URL('../../console/src/api/schema.d.ts', import.meta.url);
const SOURCES_FILE = new URL('../../console/src/api/sources.ts', import.meta.url);

/**
 * The console's typed client is generated from the service's OpenAPI document (the source of
 * truth): the committed console/src/api/schema.d.ts must be what openapi-typescript makes of
 * the document this code serves (its operator routes), the same way console/scripts/generate-api.mjs
 * makes it. (Only those: @nestjs/terminus documents /health differently under jest's module loader.)
 */
describe('console API client', () => {
  const context = useServiceWithDatabase();

  it('console/src/api/schema.d.ts equals the types generated from /docs-json', async () => {
    const response = await fetch(`${context.service.baseUrl}/docs-json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as OpenAPI3;
    // As console/scripts/generate-api.mjs does: the operator API's routes only.
    const paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([path]) => /^\/(messages|deliveries|destinations)(\/|$)/.test(path)));
    const generated = `${COMMENT_HEADER}${astToString(await openapiTS({ ...document, paths }))}`;
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    if (generated !== committed) {
      const actual = new URL('../../test-artifacts/console/schema.generated.d.ts', import.meta.url);
      mkdirSync(new URL('.', actual), { recursive: true });
      writeFileSync(actual, generated);
      throw new Error(
        'console/src/api/schema.d.ts is out of date with the OpenAPI document: run npm run console:api (after npm run build); ' +
          'what the document gives now is in test-artifacts/console/schema.generated.d.ts',
      );
    }
  });

  it('console/src/api/sources.ts equals the source enum generated from /docs-json', async () => {
    const document = (await (await fetch(`${context.service.baseUrl}/docs-json`)).json()) as OpenAPI3;
    // The generator's own function: the file's format is written in one place.
    const { sourcesText } = await import('../../console/scripts/generate-api.mjs');
    if (sourcesText(document) !== readFileSync(SOURCES_FILE, 'utf8')) {
      throw new Error('console/src/api/sources.ts is out of date with the OpenAPI document: run npm run console:api (after npm run build)');
    }
  });
});
