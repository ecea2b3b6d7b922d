import { main as cliMain } from '../src/cli/main';
import { loadInputs } from '../src/cli/inputs';
const gc = (globalThis as any).gc as () => void;
for (let rep = 0; rep < 3; rep++) {
  gc();
  let t = performance.now();
  const x = await loadInputs(['/tmp/h/calls.har'], { maxMb: 4000, maxBytes: 4e9 }, () => {});
  const tLoad = performance.now() - t;
  gc();
  t = performance.now();
  let out = 0;
  await cliMain(['audit', '/tmp/h/calls.har', '--fail-on', 'never', '--max-size', '4000'], { stdout: (s: string) => void (out += s.length), stderr: () => {} });
  const tAudit = performance.now() - t;
  console.log(JSON.stringify({ tLoad: tLoad | 0, tAudit: tAudit | 0, n: x?.length }));
}
