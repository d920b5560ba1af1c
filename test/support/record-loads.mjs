/**
 * `node --import tsx --import ./test/support/record-loads.mjs …`: appends every module URL this
 * process resolves through the ES module loader to the file named by RECORD_LOADS (one a line),
 * before the module loads. A CommonJS package's own `require` calls do not pass here: the test reads
 * `require.cache` for those.
 */
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
let file;
export const initialize = (data) => { file = data.file; };
export const resolve = async (specifier, context, next) => {
  const answer = await next(specifier, context);
  appendFileSync(file, answer.url + '\\n');
  return answer;
};`),
  { data: { file: process.env.RECORD_LOADS } },
);
