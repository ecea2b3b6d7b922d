// What the live panel's fault control gives the UI (src/panel/live/faults.ts builds it; the
// standalone viewer has none and the faults menu renders nothing). Plain data.
import type { FaultSpec } from '../../../core/faults/spec';

export interface ArmedFaultView {
  id: string;
  spec: FaultSpec;
  /** describeFault: what it does, to what, how many times. */
  text: string;
  /** Preset it came from, if any. */
  preset?: string;
  /** Connections it changed so far. */
  used: number;
}

export interface FaultControlSnapshot {
  armed: readonly ArmedFaultView[];
  /** Presets armed (and not disarmed) in this panel, in order: their verdicts stay shown. */
  presets: readonly string[];
}

export interface FaultControlSource {
  subscribe(fn: () => void): () => void;
  getSnapshot(): FaultControlSnapshot;
  /** Arms faults written by hand (short form, JSON or a preset id); returns an error message, or undefined. */
  arm(text: string): string | undefined;
  armPreset(id: string): void;
  disarm(id: string): void;
  disarmAll(): void;
}
