// @vitest-environment happy-dom
// Importing a file from the panel: read as it arrives, with a progress bar and Cancel; a HAR entry
// by entry like the product's own JSON; Cancel puts back the capture that was shown.
import { afterEach, describe, expect, it } from 'vitest';
import { exportHar } from '../../../export/har';
import { createMutableSource } from '../sources/static-source';
import { captureRecords, coreAnalyzer } from '../test-support/fixtures';
import { manyCalls } from '../test-support/generated';
import { $, click, mount, until, type Mounted } from '../test-support/render';
import { InspectorApp } from './InspectorApp';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

/** A file whose bytes come in 64 kB reads, the last ones only after `release()`. */
function heldFile(name: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const stream = () => {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      async pull(c) {
        if (i >= bytes.length) return c.close();
        if (i + 65536 >= bytes.length) await held;
        c.enqueue(bytes.slice(i, i + 65536));
        i += 65536;
      },
    });
  };
  return { file: { name, size: bytes.length, type: 'application/json', stream, text: async () => text }, release };
}

async function pick(file: object) {
  const input = $(m!.container, '[data-testid=import-input]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('import', () => {
  it('a large HAR: progress bar while it is read, its first sessions shown before the end; Cancel puts the live capture back', async () => {
    const text = exportHar(manyCalls(30, 400, { sid: 'imported-session' }));
    m = await mount(<InspectorApp source={createMutableSource(captureRecords('lossy'))} analyzerFactory={coreAnalyzer} mode="devtools" />);
    const live = $(m.container, '[data-testid=session-row]')!.dataset.sessionKey;
    const a = heldFile('calls.har', text);
    await pick(a.file);
    await until(() => expect($(m!.container, '[data-testid=imported-banner]')).toBeTruthy());
    // shown while still read: the progress bar says how far, the imported session is listed
    const bar = $(m.container, '[data-testid=import-progress]')!;
    expect(bar.textContent).toMatch(/Reading calls\.har: [\d.]+ [kM]?B of [\d.]+ MB/);
    expect(Number(bar.dataset.read)).toBeLessThan(Number(bar.dataset.total));
    expect($(m.container, '[data-testid=session-row]')!.dataset.sessionKey).toBe('imported-session');
    await click($(m.container, '[data-testid=import-cancel]'));
    expect($(m.container, '[data-testid=import-progress]')).toBeNull();
    expect($(m.container, '[data-testid=imported-banner]')).toBeNull();
    expect($(m.container, '[data-testid=session-row]')!.dataset.sessionKey).toBe(live);
    a.release();

    const b = heldFile('calls.har', text);
    await pick(b.file);
    await until(() => expect($(m!.container, '[data-testid=import-progress]')).toBeTruthy());
    b.release();
    await until(() => expect($(m!.container, '[data-testid=tab-requests] .count')!.textContent).toBe('31'), 20_000);
    expect($(m.container, '[data-testid=import-progress]')).toBeNull();
    expect($(m.container, '[data-testid=session-row]')!.dataset.sessionKey).toBe('imported-session');
  }, 30_000);
});
