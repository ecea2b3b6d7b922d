// Tool results: the structured answer (structuredContent, checked against the outputSchema) and
// the same JSON as text for clients that read only content. Errors a model can act on come back
// as isError results with one sentence, never a stack.
import { PathRefused } from './paths';
import { OpenError } from './captures';
import { CursorError } from './cursor';
import { NotFound } from './views';

export interface ToolResult {
  [k: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function ok<T extends Record<string, unknown>>(v: T): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(v) }], structuredContent: v };
}

export function fail(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Known refusals become isError results; anything else too, with its first line only. */
export async function guarded(fn: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof PathRefused || e instanceof OpenError || e instanceof CursorError || e instanceof NotFound) return fail(e.message);
    const msg = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    return fail(msg.slice(0, 500));
  }
}
