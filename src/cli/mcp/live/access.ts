// The live browser, as the tools see it (live/bridge.ts implements it over CDP).
import type { Capture } from '../captures';

export interface LiveTab {
  tabId: number;
  title: string;
  url: string;
  /** A panel or this server reads this tab's capture now. */
  recording: boolean;
}

export interface LiveFault {
  id: string;
  text: string;
  preset?: string;
}

export interface LiveAccess {
  /** Says why live access is unavailable (not loaded, turned off, another version), or lists tabs. */
  tabs(): Promise<LiveTab[]>;
  /** Reads a tab's capture as one more panel would; the capture stays open until closed. */
  openTab(tabId: number): Promise<Capture>;
  armFaults(tabId: number, text: string): Promise<LiveFault[]>;
  listFaults(tabId: number): Promise<LiveFault[]>;
  disarmFaults(tabId: number, id?: string): Promise<LiveFault[]>;
  close(): Promise<void>;
}

/** Live access refused, with the reason in words (extension missing, setting off, version). */
export class LiveRefused extends Error {}
