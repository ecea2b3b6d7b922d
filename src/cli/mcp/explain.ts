// What a finding code means and what to do about it: the core's help (src/core/findings-help.ts,
// generated from docs/findings.md), its title and default severity from the core.
import { ALL_CODES, SEVERITY, TITLE } from '../../core/findings';
import { FINDING_HELP } from '../../core/findings-help';
import type { FindingCode } from '../../core/model';

export const isFindingCode = (c: string): c is FindingCode => (ALL_CODES as string[]).includes(c);

/** The refusal of a code that is none, with the codes there are (explain_finding needs one). */
export const notAFindingCode = (c: string) => `"${c.slice(0, 64)}" is not a finding code; the codes: ${ALL_CODES.join(', ')}`;

export interface Explanation {
  code: FindingCode;
  title: string;
  severity: string;
  /** The one line of docs/findings.md's table. */
  summary: string;
  /** The code's section of docs/findings.md, Markdown. */
  explanation: string;
  /** Its "What to do." paragraph, when it has one. */
  whatToDo?: string;
}

export function explainCode(code: FindingCode): Explanation {
  const help = FINDING_HELP[code];
  // docs/findings.md starts the paragraph "**What to do.**" in most sections, "What to do:" in some.
  const todo = /(?:^|\n\n)(?:\*\*What to do\.\*\*|What to do:)\s*([\s\S]*?)(?:\n\n|$)/.exec(help.markdown)?.[1]?.replace(/\s*\n\s*/g, ' ').trim();
  return { code, title: TITLE[code], severity: SEVERITY[code], summary: help.summary, explanation: help.markdown, ...(todo ? { whatToDo: todo } : {}) };
}

/** The "What to do." of a code, in one paragraph. */
export const adviceFor = (code: FindingCode): string | undefined => explainCode(code).whatToDo;
