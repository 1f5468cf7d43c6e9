// Writes docs/calls.md from the contracts call registry, so the reference cannot drift from the code.
// Run: node --import tsx scripts/calls-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CALL_LIST,
  CONTROL_REQUIREMENTS,
  DEFAULT_SERVICE_BASES,
  DEVICE_CONTROL_FUNCTION,
  DEVICE_PUSH_FUNCTION,
  PUSH_ACCESS,
  PUSH_PATH,
  PUSH_VERIFY_LIMIT_MS,
  callUrl,
  controlCommandsForDocs,
  type CallDef,
} from '@nest/contracts';
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

/** A short picture of a call's answer: `null`, or its keys, lists shown as `[…]` of their items. */
function answerShape(schema: z.ZodType, depth = 0): string {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return answerShape(schema.unwrap() as z.ZodType, depth);
  if (schema instanceof z.ZodNull) return 'null';
  if (schema instanceof z.ZodArray) return `[${answerShape(schema.element as z.ZodType, depth)}]`;
  if (schema instanceof z.ZodObject) {
    if (depth > 0) return '{…}';
    const keys = Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => {
      const inner = answerShape(v, depth + 1);
      return inner.startsWith('[') || inner === 'null' ? `${k}: ${inner}` : k;
    });
    return `{${keys.join(', ')}}`;
  }
  return depth > 0 ? '…' : 'value';
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
    '## Password envelopes',
    '',
    'Fields flagged `key: password` carry a password as an RSA-OAEP (SHA-256) envelope sealed with the server\'s',
    '`password` public key (`/api/static/public-keys.json`; contracts `password.ts` `sealPassword`). Inside, as JSON:',
    '`d` the SHA-256 of the password (hex), `n` its length in characters, `c` the first 128 bits of the SHA-256 of',
    'the lower-cased password (hex), `t` the `os_timestamp` of the request that carries it, `r` a random 128-bit',
    'nonce (hex). The server refuses, with STALE_TIMESTAMP (40003) and a message saying which, and changing',
    'nothing: an envelope whose `t` is not the request\'s `os_timestamp`, one whose `t` is more than',
    '`TIMESTAMP_WINDOW_MS` (5 minutes) from its clock, and one whose nonce it accepted before (kept in the',
    'database for two windows, so every instance on it agrees). A captured envelope therefore cannot be sent again',
    'with a new timestamp and signature. Every envelope of one request (two for /user/psw) is sealed for that',
    'request\'s timestamp.',
    '',
    'New passwords (/user/add, a password set through /user/edit, /user/psw; not sign-in) must declare 6-32',
    'characters and must not be among the most common passwords (about ten thousand, lower case,',
    '`apps/server/src/auth/common-passwords.txt`): PASSWORD_COMMON (40007) with the message in the caller\'s language.',
    'The server never sees the password, so what it can check is limited: `d` against the list is a real check (the',
    'stored hash derives from `d`); `n` and `c` are declared by the client and cannot be tied to `d`, so the length',
    'and the letter-case-blind list check hold only for clients that tell the truth (the console does). Character',
    'classes and anything else about the password are checked by the browser only. `c` reveals nothing `d` does not',
    '(both are unsalted hashes of the same password, useful only to confirm a guess) and is never stored.',
    '',
    '## System-wide catalogues: super administrators only',
    '',
    'Functions (/fun/add, /fun/edit), device types (/deviceType/add, /deviceType/edit), firmware packages',
    '(/rom/add, /rom/edit) and teaching videos (/teach/add, /teach/edit, which also deletes) are one catalogue',
    'for every company. A company\'s administrator who could write them changed every company\'s console: switching',
    'off `device_list` for all (every other user then got NO_PERMISSION), renaming another company\'s firmware. These',
    'writes therefore need `super_administrator` (their access below); the function ids they used to need',
    '(`fun_add`, `rom_edit`, ...) grant nothing any more, and the console shows the buttons to super administrators',
    'only. Reading the catalogues keeps its own functions.',
    '',
    '## Calls',
    '',
    'Answer: the `data` of a successful answer (contracts `CallDef.answer`; lists show the keys of their items',
    'as `{…}`, see the schema for each field).',
    '',
    '| Name | URL (default bases) | Access | Fields | pmd | Flags | Answer | Notes |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const def of CALL_LIST) {
    lines.push(
      `| ${def.name} | \`${callUrl(def, DEFAULT_SERVICE_BASES)}\` | ${def.access} | ${fieldNames(def).join(', ')} | ${def.pmd.join(' + ')} | ${flags(def)} | ${answerShape(def.answer)} | ${def.summary.replace(/\|/g, '\\|')} |`,
    );
  }
  lines.push(...renderPushAccess());
  return lines.join('\n') + '\n';
}

/** The push messages (contracts push-access.ts): who may send or get each, and what a flight command needs. */
function renderPushAccess(): string[] {
  const lines = [
    '',
    '## Push messages',
    '',
    `Generated from \`packages/contracts/src/push-access.ts\`. The push socket (\`${PUSH_PATH}\`) speaks for one live`,
    `session holding \`${DEVICE_PUSH_FUNCTION}\` (or super_administrator), verified by message 100 within`,
    `${PUSH_VERIFY_LIMIT_MS / 1000} s of opening. Every frame in and out is bound to that session: sign-out, the user's`,
    'deletion or disabling, a password change, the end of the validity period, and a change of functions or',
    'collaboration groups end (46010 as the answer to 101, then close 1000) or re-scope the user\'s sockets at once,',
    'on every instance. Scope `view`: devices of the user\'s company (super_administrator: all) and devices shared',
    'with them through collaboration groups; `control`: devices of the user\'s company only, with the control',
    'connection held by the user; `company`: the user\'s company; `user`: the user\'s own jobs.',
    '',
    '| msg_id | Direction | Function besides the push function | Scope | What |',
    '|---|---|---|---|---|',
  ];
  for (const a of PUSH_ACCESS) {
    lines.push(`| ${a.msgId} | ${a.direction === 'in' ? 'browser -> server' : 'server -> browser'} | ${a.fun ?? '-'} | ${a.scope} | ${a.summary.replace(/\|/g, '\\|')} |`);
  }
  lines.push(
    '',
    '### Flight commands (401, 473)',
    '',
    `Every 401 cmd_type and every 473 control_cmd needs the same, checked in this order; a refused command sends`,
    'nothing to the device and is answered in the language of message 100:',
    '',
    '| Step | Refusal |',
    '|---|---|',
    ...CONTROL_REQUIREMENTS.map((r) => `| ${r.step} | ${r.refusal} |`),
    '',
    `| msg_id | Value | Command | Function | Hold |`,
    '|---|---|---|---|---|',
    ...controlCommandsForDocs().map((c) => `| ${c.msgId} | ${c.msgId === 401 ? 'cmd_type' : 'control_cmd'} ${c.value} | ${c.label} | ${DEVICE_CONTROL_FUNCTION} | held by the sender |`),
  );
  return lines;
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
