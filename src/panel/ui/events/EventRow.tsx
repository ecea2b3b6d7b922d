import { memo, type MouseEvent } from 'react';
import type { Severity, SseEvent } from '../../../core/model';
import { eventMethods, eventRpcIds } from '../common/labels';
import { SevIcon } from '../common/SevIcon';
import { formatBytes, formatRel, utf8Length, visibleLine } from '../common/text';

/** A row's text, computed once per event object (an event that changes is a new object). */
export interface RowText {
  id: string;
  type: string;
  methods: string;
  rpcIds: string;
  size: string;
}

export function rowText(e: SseEvent): RowText {
  return {
    id: e.id !== undefined ? visibleLine(e.id, 40) : '—',
    type: `${e.synthetic === 'json-body' ? '(JSON body)' : visibleLine(e.event, 40)}${e.truncated ? ' ✂ truncated' : ''}${e.idOnly ? ' (id only)' : ''}`,
    methods: visibleLine(eventMethods(e), 80),
    rpcIds: visibleLine(eventRpcIds(e), 30),
    size: formatBytes(utf8Length(e.data)),
  };
}

export const EventRow = memo(function EventRow(props: {
  vindex: number;
  start: number;
  e: SseEvent;
  text: RowText;
  streamText: string;
  t0: number;
  sev: Severity | undefined;
  selected: boolean;
  streamId: string;
  index: number;
  onSelect(streamId: string, index: number): void;
  onMenu(ev: MouseEvent, streamId: string, index: number): void;
}) {
  const { vindex, start, e, text: x, sev, selected } = props;
  return (
    <div
      id={`ev-row-${vindex}`}
      role="row"
      aria-rowindex={vindex + 2}
      aria-selected={selected}
      data-testid="event-row"
      data-event-id={e.id ?? ''}
      className={`grid-row vrow${vindex % 2 ? ' odd' : ''}${sev === 'error' ? ' row-error' : sev === 'warning' ? ' row-warning' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
      onClick={() => props.onSelect(props.streamId, props.index)}
      onContextMenu={(ev) => props.onMenu(ev, props.streamId, props.index)}
    >
      <div role="gridcell" className="num faint">{vindex + 1}</div>
      <div role="gridcell" className="mono">{x.id}</div>
      <div role="gridcell">{props.streamText}</div>
      <div role="gridcell">{x.type}</div>
      <div role="gridcell">{x.methods}</div>
      <div role="gridcell" className="mono">{x.rpcIds}</div>
      <div role="gridcell" className="num">{x.size}</div>
      <div role="gridcell" className="num">{formatRel(e.t - props.t0)}</div>
      <div role="gridcell" className="codes">
        {e.duplicate && !e.findings.includes('replay-duplicate') ? 'duplicate ' : ''}
        {e.findings.length ? <><SevIcon sev={sev ?? 'warning'} /> {e.findings.join(', ')}</> : ''}
      </div>
    </div>
  );
});
