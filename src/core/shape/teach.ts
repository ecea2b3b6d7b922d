// Teaching a progress shape (see ../progress-shape.ts): two events' texts tokenized, each token
// with the role summarize() gives it, compared token for token. Runs only when a shape is taught.
import { fits, numberChar, NUM, OTHER, STR, type Shape } from './read';

interface Token {
  start: number;
  end: number;
  kind: number;
  /** What summarize() makes of the token: `read` (method, id, a progress token, total), `progress`, `free` (nothing), `key`, `punct`. */
  role: 'read' | 'progress' | 'free' | 'key' | 'punct';
}

/** The role of a value at `path` (keys from the message object down). */
function roleOf(path: readonly string[]): Token['role'] {
  const [k0, k1, k2] = path;
  if (path.length === 1) return k0 === 'method' || k0 === 'id' || k0 === 'params' ? 'read' : 'free';
  if (k0 !== 'params') return 'free';
  if (path.length === 2) return k1 === 'progress' ? 'progress' : k1 === 'progressToken' || k1 === 'total' || k1 === '_meta' ? 'read' : 'free';
  return path.length === 3 && k1 === '_meta' && k2 === 'progressToken' ? 'read' : 'free';
}

/**
 * The tokens of a JSON text that JSON.parse read as one object, each with its role; undefined for
 * any other text, and for an object with a key twice. Run only when a shape is taught.
 */
function tokenize(text: string): Token[] | undefined {
  const out: Token[] = [];
  // Per open container: its keys so far (undefined for an array). `path`: the keys from the
  // message object down to the value being read ("[]" for an array's items).
  const frames: (Set<string> | undefined)[] = [];
  const path: string[] = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  const punct = () => out.push({ start: i, end: ++i, kind: OTHER, role: 'punct' });
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    const top = frames.length > 0 ? frames[frames.length - 1] : undefined;
    if (c === 123) {
      frames.push(new Set());
      expectKey = true;
      punct();
    } else if (c === 91) {
      if (frames.length === 0) return undefined;
      frames.push(undefined);
      path.push('[]');
      expectKey = false;
      punct();
    } else if (c === 125) {
      if (top!.size > 0) path.pop();
      frames.pop();
      expectKey = false;
      punct();
    } else if (c === 93) {
      path.pop();
      frames.pop();
      punct();
    } else if (c === 44) {
      if (top !== undefined) {
        path.pop();
        expectKey = true;
      }
      punct();
    } else if (c === 58) punct();
    else {
      if (frames.length === 0) return undefined;
      let end = i + 1;
      let kind = OTHER;
      if (c === 34) {
        kind = STR;
        while (end < n && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 ? 2 : 1;
        end++;
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        kind = NUM;
        while (end < n && numberChar(text.charCodeAt(end))) end++;
      } else while (end < n && text.charCodeAt(end) >= 97 && text.charCodeAt(end) <= 122) end++; // true, false, null
      if (expectKey && top !== undefined) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.has(key)) return undefined;
        top.add(key);
        path.push(key);
        expectKey = false;
        out.push({ start: i, end, kind, role: 'key' });
      } else out.push({ start: i, end, kind, role: path.includes('[]') ? 'free' : roleOf(path) });
      i = end;
    }
  }
  return frames.length === 0 ? out : undefined;
}

/** The shape of `b`, if `a` has the same one: their tokens differ only where holes may be. */
export function shapeOf(a: string, b: string): Shape | undefined {
  const ta = tokenize(a);
  const tb = ta && tokenize(b);
  if (!ta || !tb || ta.length !== tb.length) return undefined;
  const segs: string[] = [];
  const holes: number[] = [];
  let from = 0;
  let progress = -1;
  for (let k = 0; k < tb.length; k++) {
    const x = ta[k]!;
    const y = tb[k]!;
    if (x.kind !== y.kind || x.role !== y.role) return undefined;
    const same = a.slice(x.start, x.end) === b.slice(y.start, y.end);
    if (y.role === 'progress' ? y.kind !== NUM : same) continue;
    if ((y.role !== 'free' && y.role !== 'progress') || y.kind === OTHER) return undefined;
    // A string's hole is its inside: the quotes stay in the text around it.
    const at = y.kind === STR ? y.start + 1 : y.start;
    segs.push(b.slice(from, at));
    if (y.role === 'progress') progress = holes.length;
    holes.push(y.kind);
    from = y.kind === STR ? y.end - 1 : y.end;
  }
  if (progress === -1) return undefined;
  segs.push(b.slice(from));
  // The text around the holes must be the same in both: then both are this shape.
  const pa = fits(a, segs, holes, progress);
  if (pa !== pa) return undefined;
  return { segs, holes, progress };
}

