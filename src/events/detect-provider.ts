/** Detection under its name before src/sources/ (issue 21): each source's descriptor detects its own bodies. */
export { detectSource as detectProvider } from '../sources/source-registry.js';
