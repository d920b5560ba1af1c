import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';

describe('names in the code', () => {
  it('no two exported types share a name: each type has one name, and each name one type (issue 33)', () => {
    const owners = new Map<string, string[]>();
    for (const dir of ['domain', 'application', 'adapters', 'bootstrap']) {
      for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
        for (const m of readFileSync(`${dir}/${f}`, 'utf8').matchAll(/^export (?:type|interface) (\w+)/gm)) owners.set(m[1]!, [...(owners.get(m[1]!) ?? []), `${dir}/${f}`]);
      }
    }
    expect([...owners].filter(([, files]) => files.length > 1)).to.deep.equal([]);
  });
});
