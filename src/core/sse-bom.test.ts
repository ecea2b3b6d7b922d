import { it, expect } from 'vitest';
import { createSseConnectionParser } from './sse';
// Found by the eventsource-parser oracle property test (seed -1150880425): a stream-leading BOM
// followed by a blank line lost the next event.
it('a leading BOM followed by a blank line keeps the event after it (also with the BOM in its own chunk)', () => {
  const p = createSseConnectionParser();
  const b = [...p.feed('\uFEFF\ndata: {"a":1}\n\n'), ...p.end()];
  expect(b.map((x) => x.data)).toEqual(['{"a":1}']);
  const q = createSseConnectionParser();
  const c = [...q.feed('\uFEFF'), ...q.feed('\ndata: x\n\n'), ...q.end()];
  expect(c.map((x) => x.data)).toEqual(['x']);
});
