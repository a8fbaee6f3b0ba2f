// Loader hooks of module-recorder.mjs: written synchronously, so the list is complete the moment a
// module is resolved, whatever happens to the process afterwards.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data?.file;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}
