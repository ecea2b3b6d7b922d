// A typed endpoint over any adapter: `on(type, fn)` with `fn` narrowed to that message's type,
// `send(type, body)` type-checked against what the other side accepts. Every arriving message is
// validated once, here, by its type's guard (guards.ts), and only types in the endpoint's inbox
// are delivered; anything else is counted and dropped.

import type { MessageAdapter } from './adapter';
import { GUARDS, isEnvelope } from './guards';
import { envelope, type Body, type MessageType, type Protocol } from './protocol';

type Inbox = Partial<Protocol>;

export interface Endpoint<In extends Inbox, Out extends Inbox> {
  on<K extends keyof In & MessageType>(type: K, fn: (msg: Protocol[K]) => void): () => void;
  send<K extends keyof Out & MessageType>(type: K, body: Body<Protocol[K]>, transfer?: Transferable[]): boolean;
  /** Messages dropped: not ours, not in the inbox, or malformed. */
  rejected(): number;
  readonly adapter: MessageAdapter;
  close(): void;
}

/** `accepts`: the inbox's types, as values (the guard table is looked up by them). */
export function createEndpoint<In extends Inbox, Out extends Inbox>(
  adapter: MessageAdapter,
  accepts: readonly (keyof In & MessageType)[],
): Endpoint<In, Out> {
  const inbox = new Set<string>(accepts);
  const handlers = new Map<string, Set<(m: never) => void>>();
  let rejected = 0;
  const off = adapter.listen((m) => {
    if (!isEnvelope(m) || !inbox.has(m.type) || !GUARDS[m.type as MessageType](m)) {
      rejected++;
      return;
    }
    for (const fn of [...(handlers.get(m.type) ?? [])]) (fn as (x: unknown) => void)(m);
  });
  return {
    on(type, fn) {
      let s = handlers.get(type);
      if (!s) handlers.set(type, (s = new Set()));
      s.add(fn as (m: never) => void);
      return () => void s!.delete(fn as (m: never) => void);
    },
    send: (type, body, transfer) => adapter.post(envelope(type, body), transfer),
    rejected: () => rejected,
    adapter,
    close() {
      off();
      handlers.clear();
      adapter.close();
    },
  };
}
