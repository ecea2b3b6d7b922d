/** Input that cannot be imported. `message` is one line, fit to print after the file name. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

export function isImportError(e: unknown): e is ImportError {
  return e instanceof ImportError;
}

/**
 * File data quoted in an error message, cut to `max` characters: a message stays one short line
 * whatever the file holds (a version field set to a large object, a URL of megabytes).
 */
export function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
