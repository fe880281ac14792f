// `npm run docs:config`: rewrites docs/configuration.md from the settings classes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configurationReference, CONFIGURATION_REFERENCE } from './config/configuration-reference.js';
import { SETTINGS } from './settings.js';

const path = fileURLToPath(CONFIGURATION_REFERENCE);
writeFileSync(path, configurationReference(SETTINGS));
console.log(`wrote ${path}`);
