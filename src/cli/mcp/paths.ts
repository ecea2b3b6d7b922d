// Tool inputs are untrusted (a model may be steered by a hostile page): every path a tool is given
// is resolved against --root and refused when it leaves it, symlinks included (the real path is
// checked, not the spelling).
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export class PathRefused extends Error {}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `root` (it must exist). */
export function realRoot(root: string): string {
  return realpathSync(resolve(root));
}

/**
 * `input` resolved against `root`; refused when it (or, for a file still to be written, its
 * directory) is outside root once symlinks are followed.
 */
export function confine(root: string, input: string, opts: { mustExist: boolean }): string {
  if (typeof input !== 'string' || input.length === 0) throw new PathRefused('an empty path');
  if (input.length > 4096 || input.includes('\0')) throw new PathRefused('not a usable path');
  const abs = resolve(root, input);
  if (!inside(root, abs)) throw new PathRefused(`${input} is outside the server's root (${root}); start it with --root to allow another folder`);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (e) {
    if (opts.mustExist) throw new PathRefused((e as { code?: string }).code === 'ENOENT' ? `${input}: no such file or folder` : `${input}: cannot be read`);
    // A link whose target does not exist yet: writing would create its target, wherever it is.
    let link = false;
    try {
      link = lstatSync(abs).isSymbolicLink();
    } catch {
      /* nothing there: a new file */
    }
    if (link) throw new PathRefused(`${input} is a link to a file that does not exist; not written`);
    let dir: string;
    try {
      dir = realpathSync(dirname(abs));
    } catch {
      throw new PathRefused(`${input}: its folder does not exist`);
    }
    if (!inside(root, dir)) throw new PathRefused(`${input} is outside the server's root (${root})`);
    return abs;
  }
  if (!inside(root, real)) throw new PathRefused(`${input} leads outside the server's root (${root}) through a link`);
  return real;
}
