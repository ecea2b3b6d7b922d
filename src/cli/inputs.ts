// Reading the files a command is given: size limit, file-system errors in plain words, the
// importers (HAR, CaptureFile, record arrays), the analysis. One line on stderr per bad file, never
// a stack; the caller returns 2.
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { analyzeRecords } from '../core/analyzer';
import { IMPORT_LIMIT_BYTES, importText, isImportError } from '../core/import/index';
import type { AnalysisSnapshot } from '../core/model';
import { terminalSafe } from './report';

export const NAME = 'mcp-stream-inspector';

/**
 * Largest input file, in MB (10^6 bytes). A file is read whole and parsed as JSON, which takes a
 * few times its size in memory: above this the command says so instead of running out of heap.
 * `--max-size` changes it.
 */
export const DEFAULT_MAX_MB = IMPORT_LIMIT_BYTES / 1e6;

export interface LoadedInput {
  file: string;
  /** 'HAR', 'capture' or 'records'. */
  format: string;
  snap: AnalysisSnapshot;
}

function fsError(e: unknown): string {
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return e instanceof Error ? e.message.split('\n')[0]! : String(e);
  }
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

/** `--max-size` in bytes, or an error line. */
export function maxBytesOf(value: string | undefined): { maxMb: number; maxBytes: number } | string {
  const maxMb = value === undefined ? DEFAULT_MAX_MB : Number(value);
  if (!Number.isFinite(maxMb) || maxMb <= 0) return `${NAME}: --max-size must be a positive number of megabytes, not "${terminalSafe(value ?? '')}"\n`;
  return { maxMb, maxBytes: Math.floor(maxMb * 1e6) };
}

/** Read, import and analyse each file; undefined (after one line on stderr) at the first that fails. */
export async function loadInputs(files: readonly string[], limit: { maxMb: number; maxBytes: number }, stderr: (s: string) => void): Promise<LoadedInput[] | undefined> {
  const out: LoadedInput[] = [];
  for (const file of files) {
    const name = terminalSafe(file);
    let text: string;
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
      if (st.size > limit.maxBytes) {
        stderr(`${NAME}: ${name}: the file is ${(st.size / 1e6).toFixed(1)} MB, over the ${limit.maxMb} MB limit (raise it with --max-size)\n`);
        return undefined;
      }
      text = await readFile(file, 'utf8');
    } catch (e) {
      stderr(`${NAME}: ${name}: ${terminalSafe(fsError(e))}\n`);
      return undefined;
    }
    let imported;
    try {
      // Playwright's `content: 'attach'` keeps bodies in files beside the HAR.
      const readAttachment = (name: string): Uint8Array | undefined => {
        try {
          return readFileSync(join(dirname(file), basename(name)));
        } catch {
          return undefined;
        }
      };
      imported = importText(text, { readAttachment });
    } catch (e) {
      const msg = isImportError(e) ? e.message : `cannot read it (${firstLine(e)})`;
      stderr(`${NAME}: ${name}: ${terminalSafe(msg)}\n`);
      return undefined;
    }
    try {
      const format = imported.format === 'har' ? 'HAR' : imported.format === 'capture' ? 'capture' : 'records';
      out.push({ file, format, snap: analyzeRecords(imported.records) });
    } catch (e) {
      // Should not happen (the analyzer tolerates any records); still one line, no stack.
      stderr(`${NAME}: ${name}: analysis failed (${terminalSafe(firstLine(e))})\n`);
      return undefined;
    }
  }
  return out;
}
