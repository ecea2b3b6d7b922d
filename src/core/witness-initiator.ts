// Chrome's `_initiator` of a network entry: the JS call stack that started a request (CDP
// Runtime.StackTrace, async callers under `parent`). Read by the witness's rules
// (core/witness.ts, core/witness-redirects.ts). HAR and page data: untrusted, read bounded.

/** Chrome's `_initiator.stack`. */
export interface InitiatorStack {
  callFrames?: { url?: string; lineNumber?: number; columnNumber?: number; functionName?: string }[];
  parent?: InitiatorStack;
}

/** The call stack's own frames as one string (url:line:column each), '' when there is none. */
export function initiatorFrames(stack: InitiatorStack | undefined): string {
  const frames = stack?.callFrames;
  if (!Array.isArray(frames)) return '';
  return frames
    .slice(0, 32)
    .map((f) => `${String(f?.url)}:${String(f?.lineNumber)}:${String(f?.columnNumber)}`)
    .join('\n');
}

/**
 * Whether a frame of the call stack (its async callers included) has a URL `test` accepts. Bounded:
 * at most 16 stacks and 256 frames are looked at.
 */
export function stackHas(stack: InitiatorStack | undefined, test: (url: string) => boolean): boolean {
  let seen = 0;
  for (let s = stack, depth = 0; s && typeof s === 'object' && depth < 16; s = s.parent, depth++) {
    const frames = s.callFrames;
    if (!Array.isArray(frames)) continue;
    for (const f of frames) {
      if (seen++ >= 256) return false;
      const url = f?.url;
      if (typeof url === 'string' && url !== '' && test(url)) return true;
    }
  }
  return false;
}
