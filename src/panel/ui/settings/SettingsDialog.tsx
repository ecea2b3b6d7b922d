import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { checkIdPattern, DEFAULT_SETTINGS, normalizeSettings } from './settings';
import type { IdSchemeOverride, InspectorSettings } from '../store/types';

const list = (s: string) =>
  s
    .split(/[\n,]/)
    .map((x) => x.trim())
    .filter(Boolean);

export function SettingsDialog(props: { settings: InspectorSettings; onSave(s: InspectorSettings): void; onClose(): void }) {
  const s = props.settings;
  const [overrides, setOverrides] = useState<IdSchemeOverride[]>(s.idSchemeOverrides.map((o) => ({ ...o })));
  const [cumulative, setCumulative] = useState(s.cumulativeMethods.join('\n'));
  const [idempotent, setIdempotent] = useState(s.idempotentMethods.join('\n'));
  const [gaplessKey, setGaplessKey] = useState(s.gaplessKey);
  const [resync, setResync] = useState(s.resyncEventNames.join(', '));
  const [cap, setCap] = useState(String(s.captureBufferCap));
  const [whileClosed, setWhileClosed] = useState(s.captureWhileClosed);
  const [agentAccess, setAgentAccess] = useState(s.agentAccess);
  // Focus goes to the dialog itself, its start in view (the first field focused scrolled the
  // heading out of a bottom-docked panel), and back where it was when the dialog closes.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    box.current?.focus();
    return () => before?.focus({ preventScroll: true });
  }, []);
  const errors = overrides.map((o) => (o.pattern ? checkIdPattern(o.pattern) : 'Enter a pattern'));
  const capN = Number(cap);
  const capErr = !Number.isFinite(capN) || capN < 1000 ? 'At least 1000 records' : null;
  const valid = errors.every((e) => !e) && !capErr && overrides.every((o) => o.origin.trim());
  const save = () => {
    if (!valid) return;
    props.onSave(
      normalizeSettings({
        version: 1,
        idSchemeOverrides: overrides.map((o) => ({ origin: o.origin.trim(), pattern: o.pattern })),
        cumulativeMethods: list(cumulative),
        idempotentMethods: list(idempotent),
        gaplessKey: gaplessKey.trim(),
        resyncEventNames: list(resync),
        captureBufferCap: capN,
        captureWhileClosed: whileClosed,
        agentAccess,
      }),
    );
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      props.onClose();
    }
  };
  return (
    <div className="modal-back" onKeyDown={onKey} onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="msi-settings-h" data-testid="settings-dialog" tabIndex={-1} ref={box}>
        <h2 id="msi-settings-h">Settings</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <fieldset style={{ border: 0, padding: 0, margin: 0, display: 'grid', gap: 4 }}>
            <legend style={{ fontWeight: 600, padding: 0 }}>Event-id scheme overrides (per origin)</legend>
            <span className="hint">A regular expression with named groups: (?&lt;stream&gt;…) optional, (?&lt;counter&gt;\d+) required. Example: ^(?&lt;stream&gt;[^_]+)_(?&lt;counter&gt;\d+)$ — origin * applies to every origin.</span>
            {overrides.map((o, i) => (
              <div key={i}>
                <div className="row">
                  <input type="text" aria-label={`Origin ${i + 1}`} placeholder="http://127.0.0.1:3939" value={o.origin} style={{ width: 200 }} onChange={(e) => setOverrides(overrides.map((x, j) => (j === i ? { ...x, origin: e.target.value } : x)))} />
                  <input type="text" aria-label={`Pattern ${i + 1}`} placeholder="^(?<counter>\d+)$" value={o.pattern} style={{ flex: 1 }} onChange={(e) => setOverrides(overrides.map((x, j) => (j === i ? { ...x, pattern: e.target.value } : x)))} />
                  <button type="button" className="btn" aria-label={`Remove override ${i + 1}`} onClick={() => setOverrides(overrides.filter((_, j) => j !== i))}>
                    ✕
                  </button>
                </div>
                {errors[i] && <div className="field-error">{errors[i]}</div>}
              </div>
            ))}
            <div>
              <button type="button" className="btn" onClick={() => setOverrides([...overrides, { origin: '', pattern: '' }])}>
                Add override
              </button>
            </div>
          </fieldset>
          <label>
            <span>Cumulative notification methods (one per line)</span>
            <textarea ref={undefined} rows={2} value={cumulative} onChange={(e) => setCumulative(e.target.value)} />
            <span className="hint">A lost one changes the result (default: notifications/message and every notification not listed as idempotent).</span>
          </label>
          <label>
            <span>Idempotent notification methods (one per line)</span>
            <textarea rows={2} value={idempotent} onChange={(e) => setIdempotent(e.target.value)} />
          </label>
          <label>
            <span>Gapless-retention declaration key</span>
            <input type="text" value={gaplessKey} onChange={(e) => setGaplessKey(e.target.value)} placeholder={DEFAULT_SETTINGS.gaplessKey} />
            <span className="hint">Dotted path in the InitializeResult capabilities that declares gapless event retention.</span>
          </label>
          <label>
            <span>Resync event names (comma separated)</span>
            <input type="text" value={resync} onChange={(e) => setResync(e.target.value)} />
          </label>
          <label>
            <span>Capture buffer cap (records)</span>
            <input type="number" min={1000} step={1000} value={cap} onChange={(e) => setCap(e.target.value)} />
            <span className="hint">Records the page keeps for the panel while it is not reading (older ones are dropped and shown as a capture-gap). Applies to pages loaded after saving.</span>
            {capErr && <span className="field-error">{capErr}</span>}
          </label>
          <label style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <input type="checkbox" checked={whileClosed} onChange={(e) => setWhileClosed(e.target.checked)} />
            <span>Capture while DevTools is closed</span>
          </label>
          <span className="hint">
            Off (as in the Network panel): a tab is recorded only while DevTools is open on it; a stream already open when DevTools opens shows a capture-gap for what it read before. On: pages keep up to the buffer cap for a DevTools opened later. Applies at once.
          </span>
          <label style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <input type="checkbox" checked={agentAccess} onChange={(e) => setAgentAccess(e.target.checked)} data-testid="settings-agent-access" />
            <span>Let coding agents read this browser&rsquo;s MCP captures and arm faults over the DevTools protocol</span>
          </label>
          <span className="hint">
            Off by default. On: a program attached to this browser&rsquo;s remote debugging port (<code>mcp-stream-inspector mcp --browser-url</code>, for Claude Code, Cursor, VS Code…) may read the MCP traffic of any tab (page data: URLs, headers, event data) and arm faults in it, through a page of this extension it opens. Turning it off closes those connections at once.
          </span>
          <button type="submit" hidden />
        </form>
        <div className="actions">
          <button type="button" className="btn" onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="button" className="btn primary" disabled={!valid} onClick={save} data-testid="settings-save">
            Save
          </button>
        </div>
      </div>
    </div>
  );
}
