// The redaction's two constants, apart so credentials.ts and redact.ts need not import each other.

export const REDACTED = '[redacted by probe]';

/** Values at least this long are replaced wherever they occur; shorter ones only as whole tokens. */
export const ANYWHERE_FROM = 8;
