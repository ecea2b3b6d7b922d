import { useState } from 'react';
import { visible } from '../common/text';

// A collapsible JSON tree. All values are rendered as text nodes (visible() escapes controls).

function Leaf({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="jt-str">{`"${visible(value.length > 5000 ? `${value.slice(0, 5000)}…` : value)}"`}</span>;
  if (typeof value === 'number') return <span className="jt-num">{String(value)}</span>;
  return <span className="jt-lit">{String(value)}</span>;
}

function Node({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const isObj = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < 3);
  const keyEl = name !== null ? <><span className="jt-key">{visible(name)}</span>{': '}</> : null;
  if (!isObj) {
    return (
      <li role="treeitem" aria-selected={false}>
        <span className="jt-toggle" aria-hidden="true" />
        {keyEl}
        <Leaf value={value} />
      </li>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  const summary = Array.isArray(value) ? `Array(${entries.length})` : `{${entries.slice(0, 4).map(([k]) => k).join(', ')}${entries.length > 4 ? ', …' : ''}}`;
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={false}>
      <button type="button" className="jt-toggle" aria-label={open ? 'Collapse' : 'Expand'} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'}
      </button>
      {keyEl}
      <span className="dim">{visible(summary)}</span>
      {open && (
        <ul role="group">
          {entries.slice(0, 500).map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} />
          ))}
          {entries.length > 500 && <li className="dim">{`… ${entries.length - 500} more`}</li>}
        </ul>
      )}
    </li>
  );
}

export function JsonTree({ value }: { value: unknown }) {
  return (
    <div className="jtree">
      <ul role="tree" aria-label="Decoded JSON">
        <Node name={null} value={value} depth={0} />
      </ul>
    </div>
  );
}
