// Writes docs/calls.md from the contracts call registry, so the reference cannot drift from the code.
// Run: node --import tsx scripts/calls-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { CALL_LIST, DEFAULT_SERVICE_BASES, callUrl, type CallDef } from '@nest/contracts';
import { z } from 'zod';

function fieldNames(def: CallDef): string[] {
  let schema: z.ZodType = def.fields;
  // Unwrap refinements/pipes down to the object, whatever zod wrapped around it.
  for (let i = 0; i < 5; i++) {
    const inner = (schema as unknown as { def?: { in?: z.ZodType; schema?: z.ZodType } }).def;
    if (schema instanceof z.ZodObject) break;
    const next = inner?.in ?? inner?.schema;
    if (!next) break;
    schema = next;
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

const flags = (def: CallDef): string =>
  [
    def.timestamp && 'timestamp',
    def.joint && 'joint',
    def.multipart && 'multipart',
    def.separateUrl && 'separate URL',
    def.publicKey && `key: ${def.publicKey}`,
  ]
    .filter(Boolean)
    .join(', ');

export function renderCallsDoc(): string {
  const lines = [
    '# Calls',
    '',
    'Generated from `packages/contracts/src/calls.ts` by `npm run docs`; do not edit by hand.',
    '',
    'Every call is `POST` with a form-encoded body (multipart where flagged) carrying the common fields',
    '(`app_type`, `app_ids`, `app_code`, `app_flavor`, `os_timestamp`, `os_language`, `token`, `pmd`) and',
    'answers `{code, msg, data}`. `pmd` = MD5 of [`os_timestamp` when timestamp-flagged] + token + the',
    'concatenated values of the pmd fields. Access: `public` (no token), `session` (any signed-in user), or',
    'the function id the caller must hold (super_administrator holds all).',
    '',
    '| Name | URL (default bases) | Access | Fields | pmd | Flags | Notes |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const def of CALL_LIST) {
    lines.push(
      `| ${def.name} | \`${callUrl(def, DEFAULT_SERVICE_BASES)}\` | ${def.access} | ${fieldNames(def).join(', ')} | ${def.pmd.join(' + ')} | ${flags(def)} | ${def.summary.replace(/\|/g, '\\|')} |`,
    );
  }
  return lines.join('\n') + '\n';
}

const target = new URL('../docs/calls.md', import.meta.url);
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== renderCallsDoc()) {
    console.error('docs/calls.md is out of date: run npm run docs');
    process.exit(1);
  }
} else if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(target, renderCallsDoc());
  console.log('wrote docs/calls.md');
}
