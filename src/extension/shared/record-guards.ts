// Shape guards for CaptureRecord (numbered) and HookRecord (as the page hook sends it): the record
// contract's one validator (src/core/contract). Records built in the page's world are untrusted:
// the page could forge them, so every field is checked for type (not for truth: a page can always
// make genuine traffic). One check per record, never per byte (chunk bytes arrive in batches the
// relay reads without this guard).
import type { CaptureRecord, HookRecord } from '../../core/record';
import { isHookRecordValue, isRecord } from '../../core/contract/validate';

export function isHookRecord(x: unknown): x is HookRecord {
  return isHookRecordValue(x);
}

export function isCaptureRecord(x: unknown): x is CaptureRecord {
  return isRecord(x);
}
