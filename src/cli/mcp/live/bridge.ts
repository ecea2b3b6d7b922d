// Placeholder until the live bridge lands.
import type { CaptureSet } from '../captures';
import { LiveRefused, type LiveAccess } from './access';

export interface BrowserOptions {
  browserUrl: string;
  extensionId?: string;
  captures: CaptureSet;
}

export function connectBrowser(_o: BrowserOptions): LiveAccess {
  const no = () => Promise.reject(new LiveRefused('live access is not available in this build'));
  return { tabs: no, openTab: no, armFaults: no, listFaults: no, disarmFaults: no, close: async () => {} };
}
