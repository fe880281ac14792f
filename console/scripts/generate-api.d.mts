// Types of generate-api.mjs's exports, for the test that checks the generated files (test/console/openapi-client.e2e-spec.ts).
import type { OpenAPI3 } from 'openapi-typescript';

export const SCHEMA_FILE: string;
export const SOURCES_FILE: string;
export const OPERATOR_PATHS: RegExp;
export function schemaText(document: OpenAPI3): Promise<string>;
export function sourcesText(document: OpenAPI3): string;
