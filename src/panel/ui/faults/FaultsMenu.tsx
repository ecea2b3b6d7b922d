// Faults from the panel (issue 14): the toolbar's fault button says which faults are armed for the
// inspected tab (while any are), and opens a panel with the presets (the questions users ask, what
// a correct client does, and what this client did, read from the capture), a box for faults
// written by hand (the short form of `serve --fault`, or JSON), the armed list, and what was
// injected so far. The control comes from the live layer (FaultControlContext, app/mount.tsx); the
// standalone viewer has none, and only lists the faults a capture file records.

import { useRenderProbe } from '../common/render-probe';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useAnchoredMenu } from '../app/anchored-menu';
import { PRESETS, evaluatePreset, type PresetResult } from '../../../core/faults/presets';
import type { AnalysisSnapshot, InjectedFault } from '../../../core/model';
import { useViewModelPart } from '../store/StoreContext';
import type { FaultControlSnapshot, FaultControlSource } from './fault-types';
import { visibleLine } from '../common/text';

export const FaultControlContext = createContext<FaultControlSource | undefined>(undefined);

const noSub = () => () => {};
const none = () => undefined;

export function useFaultControl(): [FaultControlSource | undefined, FaultControlSnapshot | undefined] {
  const src = useContext(FaultControlContext);
  const snap = useSyncExternalStore(src ? src.subscribe : noSub, src ? src.getSnapshot : none, src ? src.getSnapshot : none);
  return [src, snap];
}

const OUTCOME: Record<PresetResult['outcome'], string> = { pass: 'Correct', fail: 'Not correct', 'not-seen': 'Not seen yet' };

/** What an injected fault did, in a few words. */
export function injectedSummary(f: InjectedFault): string {
  const ids = (l: string[]) => (l.length ? ` (id${l.length === 1 ? '' : 's'} ${l.slice(0, 6).map((x) => x || '—').join(', ')}${l.length > 6 ? '…' : ''})` : '');
  switch (f.fault) {
    case 'cut':
      return `${f.how === 'close' ? 'ended' : 'cut'} the stream after ${f.afterEvents ?? 0} event${f.afterEvents === 1 ? '' : 's'}${f.cursor !== undefined ? ` (last id ${f.cursor})` : ''}`;
    case 'withhold':
      return `withheld ${f.events} event${f.events === 1 ? '' : 's'}${ids(f.eventIds)}`;
    case 'delay':
      return `delayed ${f.eventIds.length} event${f.eventIds.length === 1 ? '' : 's'}${f.delayMs !== undefined ? ` (${f.delayMs} ms in all)` : ''}`;
    case 'drop-result':
      return `dropped the result${ids(f.eventIds)}`;
    case 'answer-resume':
    case 'expire-session':
      return `answered ${f.status ?? '?'} instead of the server's ${f.serverStatus ?? '?'}`;
  }
}

function PresetRow(props: { id: string; snap: AnalysisSnapshot; armed: boolean; asked: boolean; onArm(): void }) {
  const p = PRESETS.find((x) => x.id === props.id)!;
  let result: PresetResult | undefined;
  if (props.asked) {
    try {
      result = evaluatePreset(p, props.snap);
    } catch {
      result = undefined;
    }
  }
  return (
    <li className="fx-preset" data-testid={`fault-preset-${p.id}`}>
      <div className="fx-preset-head">
        <span className="fx-question">{p.question}</span>
        <span className="fx-era">{p.era === 'modern' ? '2026-07-28' : 'legacy'}</span>
        <button type="button" className="tb-btn fx-arm" data-testid={`fault-arm-${p.id}`} disabled={props.armed} onClick={props.onArm}>
          {props.armed ? 'Armed' : 'Arm'}
        </button>
      </div>
      <div className="fx-correct">
        <b>A correct client:</b> {p.correct}
      </div>
      {result && (
        <div className={`fx-verdict fx-${result.outcome}`} data-testid={`fault-verdict-${p.id}`} data-outcome={result.outcome}>
          <b>This client: {OUTCOME[result.outcome]}.</b> {visibleLine(result.observed)}
        </div>
      )}
    </li>
  );
}

const NO_FAULTS: readonly InjectedFault[] = [];
const sameFaults = (a: readonly InjectedFault[], b: readonly InjectedFault[]) => a === b || (a.length === b.length && JSON.stringify(a) === JSON.stringify(b));

/** The toolbar's fault button: "Faults" when none are armed, the armed faults in words when some are. */
export function FaultsButton() {
  const [src, ctl] = useFaultControl();
  useRenderProbe('faults');
  // The injected faults only: the button does not re-render per snapshot.
  const injected = useViewModelPart((vm) => vm.snap.faults ?? NO_FAULTS, sameFaults);
  const [open, setOpen] = useState(false);
  // The presets judge the capture shown: read while the menu is open only.
  const menuSnap = useViewModelPart((vm) => (open ? vm.snap : undefined));
  const toggle = () => setOpen(!open);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const ref = useRef<HTMLDivElement>(null);
  const btn = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node) && !btn.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  // Under its button, inside the panel in every dock layout; placed again when arming changes the
  // button's label (and so where the toolbar puts it).
  useAnchoredMenu(open, btn, ref, ctl?.armed.length);
  if (!src || !ctl) {
    if (injected.length === 0) return null;
    return (
      <span className="ch-pill fx-pill fx-recorded" data-testid="faults-recorded" title="This capture holds faults injected on purpose (from the panel or serve --fault)">
        ⚡ {injected.length} injected fault{injected.length === 1 ? '' : 's'}
      </span>
    );
  }
  const armed = ctl.armed;
  const label = armed.length === 0 ? 'Faults' : `${armed.length} fault${armed.length === 1 ? '' : 's'} armed: ${armed[0]!.text}${armed.length > 1 ? ` (+${armed.length - 1})` : ''}`;
  const title = armed.length === 0 ? 'Inject faults into this tab\'s MCP streams (cut, withhold, delay, drop the result, answer the resume)' : `Armed for this tab:\n${armed.map((a) => `• ${a.text}`).join('\n')}`;
  const armText = () => {
    const e = src.arm(text);
    setError(e);
    if (!e) setText('');
  };
  return (
    <span style={{ position: 'relative' }}>
      <button
        type="button"
        ref={btn}
        className={`tb-btn fx-btn${armed.length ? ' fx-armed' : ''}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="tb-faults"
        data-armed={armed.length}
        title={title}
        onClick={toggle}
      >
        <span aria-hidden="true">⚡</span> <span className="fx-label">{label}</span>
      </button>
      {open && (
        <div className="menu fx-panel" role="dialog" aria-label="Faults" ref={ref} data-testid="faults-panel" onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            setOpen(false);
            btn.current?.focus();
          }
        }}>
          <div className="fx-intro">
            Faults change what <b>this tab</b> gets from its MCP servers, on the next matching request, until they are used up. Each one is recorded in the capture as injected from the panel; all are disarmed when DevTools closes.
          </div>
          <div className="menu-label">Presets</div>
          <ul className="fx-presets">
            {PRESETS.map((p) => (
              <PresetRow key={p.id} id={p.id} snap={menuSnap!} armed={armed.some((a) => a.preset === p.id)} asked={ctl.presets.includes(p.id)} onArm={() => src.armPreset(p.id)} />
            ))}
          </ul>
          <div className="menu-label">Write a fault</div>
          <div className="fx-custom">
            <input
              type="text"
              className="fx-input"
              data-testid="fault-text"
              placeholder="cut:3,method=tools/call · withhold:1-2,on=resume · delay:500 · drop-result · answer-resume:404"
              aria-label="Fault to arm"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') armText();
              }}
            />
            <button type="button" className="tb-btn" data-testid="fault-arm-text" disabled={!text.trim()} onClick={armText}>
              Arm
            </button>
          </div>
          {error && <div className="fx-error" role="alert" data-testid="fault-error">{visibleLine(error)}</div>}
          <div className="menu-label">Armed ({armed.length})</div>
          {armed.length === 0 ? (
            <div className="fx-empty">Nothing armed.</div>
          ) : (
            <ul className="fx-armed-list" data-testid="faults-armed">
              {armed.map((a) => (
                <li key={a.id}>
                  <span className="fx-text">{visibleLine(a.text)}</span>
                  {a.used > 0 && <span className="fx-used"> · used {a.used}×</span>}
                  <button type="button" className="linkbtn small" data-testid="fault-disarm" onClick={() => src.disarm(a.id)}>
                    Disarm
                  </button>
                </li>
              ))}
              <li>
                <button type="button" className="linkbtn small" data-testid="fault-disarm-all" onClick={() => src.disarmAll()}>
                  Disarm all
                </button>
              </li>
            </ul>
          )}
          <div className="menu-label">Injected so far ({injected.length})</div>
          {injected.length === 0 ? (
            <div className="fx-empty">No fault has fired yet.</div>
          ) : (
            <ul className="fx-injected" data-testid="faults-injected">
              {injected.slice(-20).map((f, i) => (
                <li key={`${f.streamId}-${i}`}>
                  {injectedSummary(f)} · {visibleLine(f.text)}
                  {f.findings.length > 0 && <span className="fx-explains"> · explains {[...new Set(f.findings)].join(', ')}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </span>
  );
}
