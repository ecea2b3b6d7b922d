// A yes/no checker derived from the contract's zod schemas (records.ts) by walking their
// definitions once, at load: plain closures, no compiled code, no copy of the value. zod's own
// parse (jitless, as content scripts require) builds an output object for every record it checks,
// 15–50× the cost of a typeof test; the relay checks every record the page hook sends (one per
// EventSource event), on the page's main thread. So the hot path asks this checker, and only a
// record it refuses goes through zod, for the message (validate.ts). The contract test checks
// that this checker, zod and the committed JSON Schema agree on generated records.
import type { z } from 'zod/mini';

export type Check = (v: unknown) => boolean;

interface Def {
  type: string;
  format?: string;
  checks?: { _zod: { def: { check: string; value: number; inclusive?: boolean } } }[];
  shape?: Record<string, z.ZodMiniType>;
  values?: unknown[];
  entries?: Record<string, unknown>;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  items?: z.ZodMiniType[];
  rest?: z.ZodMiniType | null;
  options?: z.ZodMiniType[];
  discriminator?: string;
}

const defOf = (s: z.ZodMiniType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function numberCheck(d: Def): Check {
  const int = d.format === 'safeint';
  const bounds = (d.checks ?? []).map((c) => c._zod.def);
  for (const b of bounds) if (b.check !== 'greater_than' && b.check !== 'less_than') throw new Error(`contract checker: number check ${b.check} is not supported`);
  return (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    if (int && !Number.isSafeInteger(v)) return false;
    for (const b of bounds) {
      if (b.check === 'greater_than' ? (b.inclusive ? v < b.value : v <= b.value) : b.inclusive ? v > b.value : v >= b.value) return false;
    }
    return true;
  };
}

function objectCheck(d: Def): Check {
  const fields = Object.entries(d.shape!).map(([k, s]) => [k, compile(s)] as const);
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (const [k, c] of fields) if (!c(v[k])) return false;
    return true;
  };
}

function unionCheck(d: Def): Check {
  const key = d.discriminator;
  if (key === undefined) throw new Error('contract checker: only discriminated unions are supported');
  const byKind = new Map<unknown, Check>();
  for (const o of d.options!) {
    const check = compile(o);
    for (const value of defOf(defOf(o).shape![key]!).values!) byKind.set(value, check);
  }
  return (v) => {
    if (!isPlainObject(v)) return false;
    const c = byKind.get(v[key]);
    return c !== undefined && c(v);
  };
}

/** The checker of `schema` (throws at load for a kind of schema the contract does not use). */
export function compile(schema: z.ZodMiniType): Check {
  const d = defOf(schema);
  switch (d.type) {
    case 'string':
      if (d.checks?.length) throw new Error('contract checker: string checks are not supported');
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      return numberCheck(d);
    case 'literal': {
      const values = new Set(d.values);
      return (v) => values.has(v);
    }
    case 'enum': {
      const values = new Set(Object.values(d.entries!));
      return (v) => values.has(v);
    }
    case 'optional': {
      const inner = compile(d.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = compile(d.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      const el = compile(d.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!el(v[i])) return false;
        return true;
      };
    }
    case 'tuple': {
      if (d.rest) throw new Error('contract checker: tuples with a rest are not supported');
      const items = d.items!.map(compile);
      return (v) => Array.isArray(v) && v.length === items.length && items.every((c, i) => c(v[i]));
    }
    case 'object':
      return objectCheck(d);
    case 'union':
      return unionCheck(d);
    default:
      throw new Error(`contract checker: schema type ${d.type} is not supported`);
  }
}
