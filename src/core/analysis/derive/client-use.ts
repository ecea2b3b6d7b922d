// What the page's MCP client did with the stream (issue 19, items 3-6), at snapshot time after the
// verdicts: a reconnect without its cursor, lossy or partial output fed into a later request,
// loops of failing attempts, listens acknowledged for less than they asked.
import type { RequestInfo } from '../../model';
import type { Derivation } from './context';
import { cursorLost } from './client-cursor';
import { carriedOutput } from './client-carried';
import { retryLoops } from './client-loops';
import { listenNarrowed } from './client-listen';

export function clientUse(D: Derivation, requests: RequestInfo[]): void {
  cursorLost(D);
  carriedOutput(D, requests);
  retryLoops(D);
  listenNarrowed(D);
}
