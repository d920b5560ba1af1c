import { appendFileSync } from 'node:fs';
let t0 = 0;
export const mochaHooks = {
  beforeAll(this: Mocha.Context) { t0 = Date.now(); },
  afterAll(this: Mocha.Context) {
    const root = this.test?.parent; const file = root?.suites[0]?.file ?? root?.file ?? '?';
    appendFileSync('/tmp/file-times.txt', `${Date.now() - t0}\t${file}\n`);
  },
};
