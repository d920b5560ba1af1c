// `npm start`'s prestart (docs/adr/0047): compiles the TypeScript to dist/ only when dist/ was not built
// from the sources as they are now. Plain JavaScript, so it runs before anything is compiled.
//
// "As they are now" is a SHA-256 over every file of the compiled folders (path and content), the two
// tsconfig files and the compiler's version, written to dist/.build-hash after a build succeeds. Content,
// not modification times: a checkout, a copy with old times or a deleted file all change the hash, so
// a start never runs stale code. Hashing the ~3 MB of sources takes some tens of milliseconds; a build
// (5-15 s on a busy 2-core machine) runs only when the hash differs, from an empty dist/ (no output of
// a deleted source survives), and the hash is written only after tsc succeeded.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders tsconfig.build.json compiles, and the files that change what it emits. */
export const SOURCE_DIRS = ['domain', 'application', 'adapters', 'bootstrap'];
export const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json'];
export const STAMP = join('dist', '.build-hash');
export const ENTRY = join('dist', 'bootstrap', 'main.js');

const filesUnder = (root, dir) => {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(join(root, dir));
  return out;
};

/** The hash of what a build compiles: every source file's path and content, the tsconfig files, the compiler version. */
export const sourceHash = (root, compilerVersion) => {
  const hash = createHash('sha256').update(`compiler ${compilerVersion}\0`);
  const files = [...SOURCE_DIRS.flatMap((d) => filesUnder(root, d)), ...CONFIG_FILES.filter((f) => existsSync(join(root, f)))].sort();
  for (const file of files) hash.update(file).update('\0').update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
};

/**
 * Builds when dist/ is missing, was built from other sources, or lost its entry point; otherwise does
 * nothing. `compile` runs the compiler (throws on failure). Answers what it did.
 */
export const buildIfStale = ({ root, compilerVersion, compile, log = () => {} }) => {
  const want = sourceHash(root, compilerVersion);
  const stamp = join(root, STAMP);
  const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
  if (have === want && existsSync(join(root, ENTRY))) return 'fresh';
  log(have === null ? 'dist/ has no build of these sources: compiling the TypeScript (once)' : 'the sources changed since dist/ was built: compiling the TypeScript');
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  compile();
  writeFileSync(stamp, `${want}\n`);
  return 'built';
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const typescript = join(root, 'node_modules', 'typescript');
  const compilerVersion = JSON.parse(readFileSync(join(typescript, 'package.json'), 'utf8')).version;
  const started = Date.now();
  try {
    const did = buildIfStale({
      root,
      compilerVersion,
      compile: () => execFileSync(process.execPath, [join(typescript, 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' }),
      log: (m) => process.stderr.write(`${m}\n`),
    });
    if (did === 'built') process.stderr.write(`compiled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch {
    process.stderr.write('the TypeScript did not compile: not starting\n');
    process.exit(1);
  }
}
