import type { z } from 'zod';

/**
 * A faster safeParse for schemas checked on a hot path (the device link reads thousands of messages a
 * second), derived once from the zod schema itself, which stays the only definition of the rules.
 *
 * zod's own parse walks the schema for every value and builds a new output object at every level. Most
 * values on a hot path are valid and already in their output shape (JSON with no unknown keys), so the
 * schema is turned once into a plain predicate: true only when zod would accept the value AND its output
 * would be the value itself (no key stripped, no default, no transform). Such a value is answered at once,
 * as it is; anything else (invalid, or valid only after zod reshapes it) goes to zod's own safeParse, which
 * gives the exact output or the exact issues. A schema with parts the predicate does not know (transforms,
 * pipes, lazy schemas, unfamiliar checks) is always answered by zod.
 */
export function fastSafeParse<S extends z.ZodType>(schema: S): (value: unknown) => z.ZodSafeParseResult<z.output<S>> {
  const accepts = predicateOf(schema);
  if (!accepts) return (value) => schema.safeParse(value);
  return (value) => (accepts(value) ? { success: true, data: value as z.output<S> } : schema.safeParse(value));
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
  values?: unknown[];
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
  _zod: { def: Def; optin?: 'optional' };
}

const INT_RANGES: Record<string, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One check as a predicate on a value of the right type; null for a check this module does not know. */
function checkOf(check: NonNullable<Def['checks']>[number]): Predicate | null {
  const d = check._zod.def;
  switch (d.check) {
    case 'greater_than': {
      const min = d.value!;
      return d.inclusive ? (v) => (v as number) >= min : (v) => (v as number) > min;
    }
    case 'less_than': {
      const max = d.value!;
      return d.inclusive ? (v) => (v as number) <= max : (v) => (v as number) < max;
    }
    case 'number_format': {
      const range = INT_RANGES[d.format ?? ''];
      if (!range) return null;
      const [lo, hi] = range;
      return (v) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
    }
    case 'min_length': {
      const min = d.minimum!;
      return (v) => (v as { length: number }).length >= min;
    }
    case 'max_length': {
      const max = d.maximum!;
      return (v) => (v as { length: number }).length <= max;
    }
    case 'length_equals': {
      const n = d.length!;
      return (v) => (v as { length: number }).length === n;
    }
    case 'custom':
      // A refinement: zod's own check, on a value that is already in its output shape.
      return (v) => {
        const payload = { value: v, issues: [] as unknown[] };
        check._zod.check(payload);
        return payload.issues.length === 0;
      };
    default:
      return null;
  }
}

/** `base` followed by every check of the node; null when one is unknown. */
function withChecks(def: Def, base: Predicate): Predicate | null {
  const checks: Predicate[] = [];
  for (const c of def.checks ?? []) {
    const p = checkOf(c);
    if (!p) return null;
    checks.push(p);
  }
  if (checks.length === 0) return base;
  return (v) => {
    if (!base(v)) return false;
    for (const c of checks) if (!c(v)) return false;
    return true;
  };
}

function predicateOf(schema: unknown): Predicate | null {
  const def = (schema as Node)._zod.def;
  if (def.coerce) return null;
  switch (def.type) {
    case 'number':
      return withChecks(def, (v) => typeof v === 'number' && Number.isFinite(v));
    case 'string':
      return withChecks(def, (v) => typeof v === 'string');
    case 'boolean':
      return withChecks(def, (v) => typeof v === 'boolean');
    case 'unknown':
    case 'any':
      return withChecks(def, () => true);
    case 'literal': {
      const values = def.values ?? [];
      return withChecks(def, (v) => values.includes(v));
    }
    case 'optional':
    case 'nullable': {
      const inner = predicateOf(def.innerType);
      if (!inner) return null;
      const empty = def.type === 'optional' ? undefined : null;
      return withChecks(def, (v) => v === empty || inner(v));
    }
    case 'union': {
      const options: Predicate[] = [];
      for (const o of def.options ?? []) {
        const p = predicateOf(o);
        if (!p) return null;
        options.push(p);
      }
      return withChecks(def, (v) => options.some((o) => o(v)));
    }
    case 'array': {
      const element = predicateOf(def.element);
      if (!element) return null;
      return withChecks(def, (v) => Array.isArray(v) && v.every((e) => element(e)));
    }
    case 'record': {
      const key = def.keyType?._zod.def;
      if (key?.type !== 'string' || (key.checks?.length ?? 0) > 0) return null;
      const value = predicateOf(def.valueType);
      if (!value) return null;
      return withChecks(def, (v) => {
        if (!isPlainObject(v)) return false;
        for (const k in v) if (!value(v[k])) return false;
        return true;
      });
    }
    case 'object': {
      const entries: [string, Predicate, boolean][] = [];
      for (const [key, node] of Object.entries(def.shape ?? {})) {
        const p = predicateOf(node);
        if (!p) return null;
        entries.push([key, p, node._zod.optin === 'optional']);
      }
      // Unknown keys: a plain object strips them (its output differs: zod's turn), a loose one keeps them.
      const catchall = def.catchall?._zod.def.type;
      if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any') return null;
      const keepsUnknown = catchall !== undefined;
      return withChecks(def, (v) => {
        if (!isPlainObject(v)) return false;
        let present = 0;
        for (const [key, p, optional] of entries) {
          const value = v[key];
          if (value === undefined) {
            // A required key that is absent, or an optional one given as undefined (not JSON): zod's turn.
            if (!optional || key in v) return false;
            continue;
          }
          present++;
          if (!p(value)) return false;
        }
        if (keepsUnknown) return true;
        // No other key: the known keys found are all there are (counted, no lookup per key).
        let keys = 0;
        for (const k in v) if (Object.hasOwn(v, k) && ++keys > present) return false;
        return keys === present;
      });
    }
    default:
      return null;
  }
}
