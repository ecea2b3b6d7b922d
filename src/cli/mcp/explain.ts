// What a finding code means and what to do about it: the section of docs/findings.md (bundled
// into the CLI at build time, so the installed command needs no docs folder), its title and
// default severity from the core.
import findingsDoc from '../../../docs/findings.md?raw';
import { ALL_CODES, SEVERITY, TITLE } from '../../core/findings';
import type { FindingCode } from '../../core/model';

const sections = new Map<string, string>();
{
  const parts = findingsDoc.split(/^## /m);
  for (const p of parts.slice(1)) {
    const nl = p.indexOf('\n');
    const head = p.slice(0, nl).trim();
    sections.set(head, p.slice(nl + 1).trim());
  }
}

export const isFindingCode = (c: string): c is FindingCode => (ALL_CODES as string[]).includes(c);

export interface Explanation {
  code: FindingCode;
  title: string;
  severity: string;
  /** The whole section of docs/findings.md, Markdown. */
  explanation: string;
  /** Its "What to do." paragraph, when it has one. */
  whatToDo?: string;
}

export function explainCode(code: FindingCode): Explanation {
  const text = sections.get(code) ?? '';
  const todo = /\*\*What to do\.\*\*\s*([\s\S]*?)(?:\n\n|$)/.exec(text)?.[1]?.replace(/\s*\n\s*/g, ' ').trim();
  return { code, title: TITLE[code], severity: SEVERITY[code], explanation: text, ...(todo ? { whatToDo: todo } : {}) };
}

/** The "What to do." of a code, in one paragraph. */
export const adviceFor = (code: FindingCode): string | undefined => explainCode(code).whatToDo;
