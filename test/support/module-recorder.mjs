// Preloaded with `node --import` by tests that check what a process loads: every module it resolves
// (ES imports, including packages imported from ES modules) is appended, as a file: URL per line, to
// the file named by MODULE_RECORDER_FILE. The hooks run on Node's loader thread: see
// module-recorder-hooks.mjs.
import { register } from 'node:module';

register('./module-recorder-hooks.mjs', { parentURL: import.meta.url, data: { file: process.env.MODULE_RECORDER_FILE } });
