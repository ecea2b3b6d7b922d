import type { Severity } from '../../../core/model';

/** DevTools-style severity icon drawn with CSS (no emoji font needed); the word is for screen readers. */
export function SevIcon({ sev }: { sev: Severity }) {
  return <span className={`sev-icon sev-icon-${sev}`} role="img" aria-label={sev} />;
}
