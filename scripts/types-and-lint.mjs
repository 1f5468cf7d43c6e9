// The type check and lint of the checks before the tests, sharing their TypeScript programs: lint's rules
// that need type information (eslint.config.js: the promise rules on product code) used to build each
// workspace's program a second time (typescript-eslint's project service) beside the type check's own, about
// as much work again as the type check. Here one program per group of workspaces (scripts/typecheck.mjs)
// is built once, type-checked (the errors `tsc -p` reports), and then hands its types to those lint rules.
//
//   node scripts/types-and-lint.mjs <workspace>  type-checks the group of <workspace> and lints its files that
//                                                eslint.config.js lints with types, with the type rules only
//   node scripts/types-and-lint.mjs --untyped    lints every file (as `eslint .`) with the rules that need no
//                                                types, and fails on a file linted with types in no group
//
// Together the jobs report what `npm run typecheck` and `npm run lint` (eslint --max-warnings 0 .) report:
// each lint rule runs once on each file, and any warning fails, as there.
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import tseslint from 'typescript-eslint';
import { typecheckGroups } from './typecheck.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/** Whether a rule needs type information (typescript-eslint marks its own; no other plugin here has any). */
const PREFIX = '@typescript-eslint/';
const needsTypes = (ruleId) =>
  ruleId?.startsWith(PREFIX) === true && tseslint.plugin.rules?.[ruleId.slice(PREFIX.length)]?.meta?.docs?.requiresTypeChecking === true;

/** Whether eslint.config.js runs a rule that needs types on `file` (such a file is parsed with types). */
async function lintedWithTypes(eslint, file) {
  const config = await eslint.calculateConfigForFile(file);
  return Object.entries(config?.rules ?? {}).some(([id, entry]) => needsTypes(id) && ![0, 'off'].includes(Array.isArray(entry) ? entry[0] : entry));
}

/** A workspace group's root files, as its tsconfig lists them. */
function parseGroup(tsconfig) {
  const { config, error } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfig), undefined, tsconfig);
}

/** Prints the lint results; answers whether there was no error and no warning. */
async function report(eslint, results) {
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  if (text.trim()) console.log(text.trimEnd());
  return results.every((r) => r.errorCount === 0 && r.warningCount === 0 && r.fatalErrorCount === 0);
}

async function typedGroup(workspace) {
  const group = typecheckGroups().find((g) => g.workspaces.includes(workspace));
  if (!group) throw new Error(`${workspace} is no workspace of scripts/typecheck.mjs`);
  const parsed = parseGroup(group.tsconfig);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  // What tsc --noEmit reports, in its plain format.
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    console.log(ts.formatDiagnostics(diagnostics, host).trimEnd());
  }
  const plain = new ESLint({ cwd: root });
  const files = [];
  for (const file of parsed.fileNames) {
    if (!(await plain.isPathIgnored(file)) && (await lintedWithTypes(plain, file))) files.push(file);
  }
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
    ruleFilter: ({ ruleId }) => needsTypes(ruleId),
  });
  const linted = files.length > 0 ? await report(eslint, await eslint.lintFiles(files)) : true;
  console.log(`${group.name}: ${diagnostics.length} type errors; ${files.length} files linted with types`);
  return diagnostics.length === 0 && linted;
}

async function untyped() {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => !needsTypes(ruleId),
  });
  const results = await eslint.lintFiles(['.']);
  const ok = await report(eslint, results);
  // Every file lint checks with types belongs to a group (the type jobs lint it there), as `eslint .` fails
  // on a file that no workspace's tsconfig includes.
  const grouped = new Set(typecheckGroups().flatMap((g) => parseGroup(g.tsconfig).fileNames.map((f) => path.resolve(f))));
  const plain = new ESLint({ cwd: root });
  const orphans = [];
  for (const r of results) if (!grouped.has(r.filePath) && (await lintedWithTypes(plain, r.filePath))) orphans.push(path.relative(root, r.filePath));
  for (const f of orphans) console.log(`${f}: linted with types but in no workspace's tsconfig (scripts/typecheck.mjs)`);
  console.log(`lint without types: ${results.length} files`);
  return ok && orphans.length === 0;
}

const [arg] = process.argv.slice(2);
if (!arg) {
  console.error('usage: node scripts/types-and-lint.mjs <workspace> | --untyped');
  process.exit(2);
}
process.exit((arg === '--untyped' ? await untyped() : await typedGroup(arg)) ? 0 : 1);
