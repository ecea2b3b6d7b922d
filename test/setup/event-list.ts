import { expect } from 'vitest';
import { EventList } from '../../src/core/event-list';
import { NotificationList } from '../../src/core/notification-list';

// A stream's events and a request's notifications are lists read by position (columns behind
// them), which JSON gives as arrays: equality compares them as those arrays, so a snapshot equals
// its JSON round trip.
expect.addEqualityTesters([
  function listAsArray(a: unknown, b: unknown) {
    const la = a instanceof EventList || a instanceof NotificationList;
    const lb = b instanceof EventList || b instanceof NotificationList;
    if (!la && !lb) return undefined;
    return this.equals(la ? a.slice() : a, lb ? b.slice() : b);
  },
]);
