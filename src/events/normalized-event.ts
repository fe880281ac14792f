/**
 * The event type and the source names under their names before src/sources/ (issue 21): one
 * normalized event is what a source's parser makes at the edge, so it lives with the sources
 * (src/sources/shared/normalized-event.ts) and its source names come from their registry.
 */
export * from '../sources/shared/normalized-event.js';
export { SOURCE_NAMES as PROVIDER_NAMES, type SourceName as ProviderName } from '../sources/source-registry.js';
