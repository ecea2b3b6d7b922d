// Which tool the probe may call: the one the user names, tools annotated readOnlyHint: true, and
// those allowed with --allow-tool. Nothing else is ever called.

export interface ListedTool {
  name: string;
  annotations?: { readOnlyHint?: boolean };
}

export function mayCall(t: ListedTool, named: string | undefined, allowed: readonly string[]): boolean {
  return t.name === named || allowed.includes(t.name) || t.annotations?.readOnlyHint === true;
}

/** The candidates for the baseline, in the server's order: the named tool alone when there is one. */
export function candidates(tools: readonly ListedTool[], named: string | undefined, allowed: readonly string[]): { tools: ListedTool[]; refused: string[] } {
  if (named !== undefined) {
    const t = tools.find((x) => x.name === named);
    return { tools: t ? [t] : [], refused: [] };
  }
  const ok = tools.filter((t) => mayCall(t, undefined, allowed));
  return { tools: ok, refused: tools.filter((t) => !ok.includes(t)).map((t) => t.name) };
}
