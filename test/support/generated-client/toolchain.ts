/**
 * What a client of the API does with the served document: openapi-typescript turns it into types,
 * TypeScript 5 checks the client against them, and the client runs. Both tools come from this folder's
 * own node_modules (an npm workspace of the repo): openapi-typescript needs the TypeScript 5 compiler
 * API, which the repo's own TypeScript 7 (native) does not have.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The committed client that is checked and run. */
export const CLIENT_FIXTURE = join(here, 'client.ts');
/** The repo's node_modules, where openapi-fetch (the client's only dependency) is installed. */
const NODE_MODULES = join(here, '..', '..', '..', 'node_modules');

/** The TypeScript that checks the client (5.x; the repo's own is 7). */
export const typescriptVersion = ts.version;

/** The options a strict client project compiles with. */
export const CLIENT_COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  skipLibCheck: true,
};

/** openapi-typescript's output for a document: the `paths` and `components` a client imports. */
export const generateTypes = async (document: object): Promise<string> => astToString(await openapiTS(structuredClone(document) as never));

/** A client project in a temporary folder: the client, the generated schema.ts, and the repo's node_modules. */
export interface ClientProject {
  readonly dir: string;
  readonly client: string;
  readonly schema: string;
  dispose(): void;
}

export const clientProject = (schemaSource: string): ClientProject => {
  const dir = mkdtempSync(join(tmpdir(), 'bizops-generated-client-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'junction');
  writeFileSync(join(dir, 'schema.ts'), schemaSource);
  copyFileSync(CLIENT_FIXTURE, join(dir, 'client.ts'));
  return { dir, client: join(dir, 'client.ts'), schema: join(dir, 'schema.ts'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
};

/** Type-checks the project's client; returns every diagnostic as `file:line:col message`, none when it compiles. */
export const typeCheck = (project: ClientProject, oldProgram?: ts.Program): { diagnostics: string[]; program: ts.Program } => {
  const program = ts.createProgram({ rootNames: [project.client], options: CLIENT_COMPILER_OPTIONS, ...(oldProgram ? { oldProgram } : {}) });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return text;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName.slice(project.dir.length + 1)}:${line + 1}:${character + 1} ${text}`;
  });
  return { diagnostics, program };
};

/** What in the client's own source escapes the types: `as` and `<T>` casts, `!` assertions, `any`, ts-ignore comments. */
export const escapeHatches = (text: string): string[] => {
  const source = ts.createSourceFile('client.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => `line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) found.push(`${at(node)}: cast ${node.getText()}`);
    if (ts.isNonNullExpression(node)) found.push(`${at(node)}: non-null assertion ${node.getText()}`);
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`${at(node)}: any`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const [i, line] of text.split('\n').entries()) {
    if (/@ts-(ignore|expect-error|nocheck)|eslint-disable/.test(line)) found.push(`line ${i + 1}: ${line.trim()}`);
    if (/\sas\s/.test(line) || /\bany\b/.test(line)) found.push(`line ${i + 1}: says "as" or "any": ${line.trim()}`);
  }
  return found;
};

/** Compiles the client with TypeScript 5 and imports it from its project folder (where openapi-fetch resolves). */
export const loadClient = async (project: ClientProject): Promise<Record<string, unknown>> => {
  const { outputText } = ts.transpileModule(readFileSync(project.client, 'utf8'), { compilerOptions: { ...CLIENT_COMPILER_OPTIONS, noEmit: false, module: ts.ModuleKind.ES2022 }, fileName: project.client });
  const out = join(project.dir, 'client.mjs');
  writeFileSync(out, outputText);
  return (await import(pathToFileURL(out).href)) as Record<string, unknown>;
};
