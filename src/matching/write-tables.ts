import { catalogue } from '../catalogue/index.js';
import { buildAutomaton } from './automaton.js';
import { literalsOf } from './literals.js';
import { TABLES_FILE, writeTables } from './tables-file.js';

/**
 * `npm run build` runs this (as dist/src/matching/write-tables.js) after compiling the TypeScript: it
 * compiles the catalogue's automaton once and writes its tables beside the built matcher, which every
 * later start reads instead of compiling (tables-file.ts says why, and why it cannot go stale).
 */
const { literals } = literalsOf(catalogue);
writeTables(buildAutomaton(literals), literals);
process.stdout.write(`matcher tables: ${literals.length} literals → ${TABLES_FILE}\n`);
