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
