import type { z } from 'zod';

/**
 * A faster safeParse for schemas checked on a hot path (the device link reads thousands of messages a
 * second), derived once from the zod schema itself, which stays the only definition of the rules.
 *
 * zod's own parse walks the schema for every value and builds a new output object at every level. Most
 * values on a hot path are valid and already in their output shape (JSON with no unknown keys), so the
 * schema is turned once into a plain predicate: true only when zod would accept the value AND its output
 * would be the value itself (no key stripped, no default filled in, no transform), compiled to one function
 * (compilePredicate). Such a value is answered at once, as it is; anything else (invalid, or valid only
 * after zod reshapes it) goes to zod's own safeParse, which gives the exact output or the exact issues. A
 * schema with parts the predicate does not know (transforms, pipes, lazy schemas, unfamiliar checks) is
 * always answered by zod.
 */
export function fastSafeParse<S extends z.ZodType>(schema: S): (value: unknown) => z.ZodSafeParseResult<z.output<S>> {
  // Compiled on first use: a module that only imports the schemas (the web app) never compiles them, and a
  // page whose content security policy forbids compiling code simply keeps zod.
  let accepts: Predicate | null | undefined;
  return (value) => {
    if (accepts === undefined) accepts = compilePredicate(schema);
    return accepts?.(value) ? { success: true, data: value as z.output<S> } : schema.safeParse(value);
  };
}

type Predicate = (value: unknown) => boolean;

/** The parts of zod's internal definitions read here (zod 4's `_zod.def`). */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef; check(payload: { value: unknown; issues: unknown[] }): void } }[];
  shape?: Record<string, Node>;
  catchall?: Node;
  options?: Node[];
  innerType?: Node;
  element?: Node;
  keyType?: Node;
  valueType?: Node;
  coerce?: boolean;
}
interface CheckDef {
  check: string;
  value?: number;
  inclusive?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
  length?: number;
}
interface Node {
  _zod: { def: Def; optin?: 'optional' | 'defaulted'; values?: Set<unknown> };
}

const INT_RANGES: Record<string, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/**
 * The predicate as one generated function (`new Function`), so that checking a message is straight-line
 * code with direct calls, not a walk through a tree of closures (each call site in such a walk sees every
 * kind of node and cannot be inlined). Steps:
 * 1. Every node of the schema becomes a JavaScript expression over a variable that holds the value; a node
 *    with parts of its own (object, array, record, union) becomes a function of its own in the generated
 *    source (`n<i>`), called directly by its parent.
 * 2. Values the source cannot spell safely (refinements, literals other than strings, finite numbers,
 *    booleans and null) are handed in as `refs` and read from there.
 * 3. Any part the compiler does not know makes the whole schema zod's (null); so does a failure to compile
 *    (a page that forbids compiling code).
 */
export function compilePredicate(schema: unknown): Predicate | null {
  const out = new Compiler();
  try {
    const root = out.expr(schema as Node, 'v');
    if (root === null) return null;
    const source = `"use strict";\n${out.functions.join('\n')}\nreturn function accepts(v) { return ${root}; };`;
    return new Function('refs', 'custom', source)(out.refs, runCustom) as Predicate;
  } catch {
    return null;
  }
}

/** A refinement: zod's own check, on a value that is already in its output shape. */
function runCustom(check: { _zod: { check(payload: { value: unknown; issues: unknown[] }): unknown } }, value: unknown): boolean {
  const payload = { value, issues: [] as unknown[] };
  // An asynchronous refinement cannot be answered here: zod's turn (its safeParse refuses it as zod does).
  if (check._zod.check(payload) instanceof Promise) return false;
  return payload.issues.length === 0;
}

/** A value as source text, when it can be written as a literal compared with `===`; else null. */
function literal(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return String(value);
  return null;
}

/**
 * Whether zod refuses every value the node's predicate does not pass (it never accepts one reshaped):
 * leaves (whose checks only refuse) with every check compiled, optional or nullable ones, and unions of such.
 */
function exact(node: Node | undefined): boolean {
  if (!node) return false;
  const def = node._zod.def;
  switch (def.type) {
    case 'number':
    case 'string':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'unknown':
    case 'any':
    case 'custom':
      // Its predicate is zod's rule only when every check of it compiles.
      return new Compiler().expr(node, 'v') !== null;
    case 'optional':
    case 'nullable':
      return exact(def.innerType) && !def.checks?.length;
    case 'union':
      return !def.checks?.length && (def.options ?? []).every(exact);
    default:
      return false;
  }
}

class Compiler {
  readonly functions: string[] = [];
  readonly refs: unknown[] = [];

  private ref(value: unknown): string {
    this.refs.push(value);
    return `refs[${this.refs.length - 1}]`;
  }

  private number(value: number): string {
    return literal(value) ?? this.ref(value);
  }

  /** A function of its own for a node with parts; answers the call of it on `v`. */
  private fn(body: string, v: string): string {
    const name = `n${this.functions.length}`;
    this.functions.push(`function ${name}(v) {\n${body}\n}`);
    return `${name}(${v})`;
  }

  /** One check as a condition on `v`, a value of the right type; null for a check this module does not know. */
  private check(check: NonNullable<Def['checks']>[number], v: string): string | null {
    const d = check._zod.def;
    switch (d.check) {
      case 'greater_than':
        return `${v} ${d.inclusive ? '>=' : '>'} ${this.number(d.value!)}`;
      case 'less_than':
        return `${v} ${d.inclusive ? '<=' : '<'} ${this.number(d.value!)}`;
      case 'number_format': {
        const range = INT_RANGES[d.format ?? ''];
        if (!range) return null;
        return `Number.isInteger(${v}) && ${v} >= ${this.number(range[0])} && ${v} <= ${this.number(range[1])}`;
      }
      case 'min_length':
        return `${v}.length >= ${this.number(d.minimum!)}`;
      case 'max_length':
        return `${v}.length <= ${this.number(d.maximum!)}`;
      case 'length_equals':
        return `${v}.length === ${this.number(d.length!)}`;
      case 'custom':
        return `custom(${this.ref(check)}, ${v})`;
      default:
        return null;
    }
  }

  /** `base` and every check of the node, as one condition; null when a check is unknown. */
  private withChecks(def: Def, base: string, v: string): string | null {
    const parts = [base];
    for (const c of def.checks ?? []) {
      const p = this.check(c, v);
      if (p === null) return null;
      parts.push(`(${p})`);
    }
    return parts.length === 1 ? base : `(${parts.join(' && ')})`;
  }

  /** The node as a condition on `v` (an identifier), true when zod accepts the value as it is; null: zod's. */
  expr(node: Node | undefined, v: string): string | null {
    if (!node) return null;
    const def = node._zod.def;
    if (def.coerce) return null;
    switch (def.type) {
      case 'number':
        return this.withChecks(def, `(typeof ${v} === "number" && Number.isFinite(${v}))`, v);
      case 'string':
        return this.withChecks(def, `typeof ${v} === "string"`, v);
      case 'boolean':
        return this.withChecks(def, `typeof ${v} === "boolean"`, v);
      case 'unknown':
      case 'any':
        return this.withChecks(def, 'true', v);
      case 'literal':
      case 'enum': {
        // zod's own set of the values it accepts (an enum's values without a numeric enum's reverse keys).
        const values = node._zod.values;
        if (!values) return null;
        const spelled = [...values].map(literal);
        const base =
          spelled.length > 0 && spelled.length <= 8 && spelled.every((l) => l !== null)
            ? `(${spelled.map((l) => `${v} === ${l}`).join(' || ')})`
            : `${this.ref(values)}.has(${v})`;
        return this.withChecks(def, base, v);
      }
      case 'custom':
        // z.custom: the node is its own first check.
        return this.withChecks(def, `custom(${this.ref(node)}, ${v})`, v);
      case 'default': {
        // Absent, zod gives the default (another output): zod's turn; present, the inner schema decides.
        const inner = this.expr(def.innerType, v);
        if (inner === null) return null;
        return this.withChecks(def, `(${v} !== undefined && ${inner})`, v);
      }
      case 'optional':
      case 'nullable': {
        // Optional over a default: zod fills the default in for undefined, wherever it stands: zod's.
        if (def.type === 'optional' && def.innerType?._zod.optin === 'defaulted') return null;
        const inner = this.expr(def.innerType, v);
        if (inner === null) return null;
        return this.withChecks(def, `(${v} === ${def.type === 'optional' ? 'undefined' : 'null'} || ${inner})`, v);
      }
      case 'union': {
        // zod answers with the first option that accepts the value. An option may be taken as it is only
        // when every option before it refuses what it does not pass (exact): one that would accept the
        // value reshaped (an object stripping a key, a transform) comes first in zod's order. So the
        // options are read in order up to the first that is not exact, or before the first this module
        // cannot compile; a value none of them passes is zod's.
        const options: string[] = [];
        for (const o of def.options ?? []) {
          const p = this.expr(o, 'v');
          if (p === null) break;
          options.push(p);
          if (!exact(o)) break;
        }
        if (options.length === 0) return null;
        return this.withChecks(def, this.fn(`return ${options.join(' || ')};`, v), v);
      }
      case 'array': {
        const element = this.expr(def.element, 'e');
        if (element === null) return null;
        const body = `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) { const e = v[i]; if (!(${element})) return false; }\nreturn true;`;
        return this.withChecks(def, this.fn(body, v), v);
      }
      case 'record': {
        const key = def.keyType?._zod.def;
        if (key?.type !== 'string' || (key.checks?.length ?? 0) > 0) return null;
        const value = this.expr(def.valueType, 'e');
        if (value === null) return null;
        const body = `if (typeof v !== "object" || v === null || Array.isArray(v)) return false;\nfor (const k in v) { const e = v[k]; if (!(${value})) return false; }\nreturn true;`;
        return this.withChecks(def, this.fn(body, v), v);
      }
      case 'object': {
        // Unknown keys: a plain object strips them (its output differs: zod's turn), a loose one keeps them.
        const catchall = def.catchall?._zod.def.type;
        if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any') return null;
        const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;', 'let present = 0;', 'let e;'];
        for (const [key, child] of Object.entries(def.shape ?? {})) {
          const p = this.expr(child, 'e');
          if (p === null) return null;
          const k = JSON.stringify(key);
          // A required key that is absent, or an optional one given as undefined (not JSON): zod's turn.
          const absent = child._zod.optin === 'optional' ? `{ if (${k} in v) return false; }` : 'return false;';
          lines.push(`e = v[${k}]; if (e === undefined) ${absent} else { present++; if (!(${p})) return false; }`);
        }
        if (catchall !== undefined) lines.push('return true;');
        // No other key: the known keys found are all there are (counted, no lookup per key).
        else lines.push('let keys = 0;', 'for (const k in v) if (Object.hasOwn(v, k) && ++keys > present) return false;', 'return keys === present;');
        return this.withChecks(def, this.fn(lines.join('\n'), v), v);
      }
      default:
        return null;
    }
  }
}
