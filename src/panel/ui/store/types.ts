// The UI's view of the world. The same React UI runs live inside DevTools (records arrive from the
// capture store) and in the standalone viewer (records come from an imported file), so it only
// depends on these interfaces, never on chrome.* or on the live store directly.

import type { CaptureRecord } from '../../../core/record';
import type { AnalysisSnapshot } from '../../../core/model';

/** Where records come from. Records are append-only between `clear`s (a shrink means "cleared"). */
export interface InspectorSource {
  /** Called after records or status changed. Returns an unsubscribe function. */
  subscribe(cb: () => void): () => void;
  /** All records, ordered as the analyzer should consume them. Must return the same array
   *  (or an array with the same prefix) until records change. */
  getRecords(): readonly CaptureRecord[];
  /** Live controls (recording, preserve log, clear). Absent for a static source (the viewer). */
  controls?: SourceControls;
  /** A label for exports: the inspected page URL, the imported file name... */
  label?(): string | undefined;
  /** True when no more records will come (an imported file): the analyzer is finished. */
  complete?: boolean;
  /** Read every record still pending now (a progressive import), for exports and the test hook. */
  drain?(): void;
  /** A file being read: how much of it so far (`total` when its size is known). */
  reading?(): ReadProgress | undefined;
  /** Stop reading (the user cancelled an import). */
  cancel?(): void;
}

export interface ReadProgress {
  /** Bytes (or characters, for text already in memory) read so far. */
  read: number;
  total?: number;
}

export interface SourceStatus {
  recording: boolean;
  preserveLog: boolean;
}

export interface SourceControls {
  getStatus(): SourceStatus;
  setRecording(on: boolean): void;
  setPreserveLog(on: boolean): void;
  /** Drop all records (the UI's analysis restarts from an empty capture). */
  clear(): void;
}

/** The analyzer the core provides (`createAnalyzer()` in src/core). */
export interface Analyzer {
  push(record: CaptureRecord): void;
  snapshot(): AnalysisSnapshot;
  /** End of capture (static sources): open streams become pending, not errors. */
  finish?(): void;
}

export type AnalyzerFactory = (settings: InspectorSettings) => Analyzer;

/** Persistence for settings: chrome.storage.local in the extension, localStorage in the viewer. */
export interface StorageAdapter {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export interface IdSchemeOverride {
  /** Origin, e.g. `http://127.0.0.1:3939`. */
  origin: string;
  /** Regular expression with named groups `stream` (optional) and `counter`, e.g. `^(?<stream>[^_]+)_(?<counter>\d+)$`. */
  pattern: string;
}

/** User settings. Plain JSON; persisted under SETTINGS_KEY. */
export interface InspectorSettings {
  version: 1;
  idSchemeOverrides: IdSchemeOverride[];
  /** JSON-RPC notification methods whose content accumulates (dropping one changes the result). */
  cumulativeMethods: string[];
  /** Notification methods treated as idempotent (a lost one does not change the result). */
  idempotentMethods: string[];
  /** Dotted path in the InitializeResult capabilities that declares gapless event retention. */
  gaplessKey: string;
  /** SSE `event:` names a server uses to announce an explicit resync. */
  resyncEventNames: string[];
  /** Max records kept by the capture before it drops (and reports a capture-gap). */
  captureBufferCap: number;
  /** Keep capturing in the page while DevTools is closed. */
  captureWhileClosed: boolean;
  /**
   * Let a local MCP server (`mcp-stream-inspector mcp --browser-url`) read this browser's captures
   * and arm faults over the DevTools protocol (the agent bridge page). Off by default.
   */
  agentAccess: boolean;
}

export type ExportKind = 'json' | 'har' | 'trace' | 'otlp' | 'markdown';

export type Theme = 'light' | 'dark';

/** Read-only hook for end-to-end tests, installed as `globalThis.__MSI_UI__`. */
export interface UiTestHook {
  snapshot(): AnalysisSnapshot;
  exportAs(kind: ExportKind, sessionKey?: string): string;
  records(): readonly CaptureRecord[];
  /** While a backlog is analysed in slices (an import): records fed / total; else undefined. Does not flush. */
  progress?(): { fed: number; total: number; importing: boolean } | undefined;
  /** The navigation state (selection, tab, filter, search): what the user is looking at. */
  view?(): unknown;
  /**
   * When the store last changed what the views show (epoch ms, performance.timeOrigin + now; 0
   * before the first change): the bench's catch-up row (1c) ends there. Does not flush.
   */
  lastChange?(): number;
}
