// The two rules of matching that need no schema, apart from spec.ts (which imports zod): the
// panel's fault injector runs match.ts and stream.ts in the relay, whose bundle stays zod-free.

/** Which exchanges a fault looks at when its match says nothing about it. */
export function defaultOn(a: { kind: string }): 'request' | 'resume' {
  return a.kind === 'answer-resume' ? 'resume' : 'request';
}

export function isModernVersion(protocolVersion: string | undefined): boolean | undefined {
  if (!protocolVersion || !/^\d{4}-\d{2}-\d{2}$/.test(protocolVersion)) return undefined;
  return protocolVersion >= '2026-07-28';
}
