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
