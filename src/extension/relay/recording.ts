// Whether the relay records, and the handshake with the hook that makes "recording" exact.
//
// While not recording the hook is told to stop copying the bytes of reads (`mode` copy: false on
// the private port): it then sends only a `skip` per read, with the ≤ 3 bytes the decoding carry
// needs. Recording starts once the hook says it copies again (`mode-ack` copy: true), so every
// read is either kept or counted in its connection's `not-recording` gap; if the hook does not
// answer within HOOK_ACK_MS (a page that broke its port, a hook of an older build), recording
// starts anyway and late skips get gaps of their own (relay-core.ts).
//
// Pure: no chrome.*, no DOM.

/** How long recording waits for the hook to say it copies again before it starts anyway. */
export const HOOK_ACK_MS = 1000;

export interface RecordingSwitch {
  recording(): boolean;
  /** Whether the hook copies the bytes of reads (its last mode-ack). */
  hookCopies(): boolean;
  /** The hook's private port is there: `mode` tells it whether to copy the bytes of reads. */
  connectHook(mode: (copy: boolean) => void): void;
  /** The hook says that its records from here on are made in `copy` mode. */
  onModeAck(copy: boolean): void;
  /** Start (possibly after the hook's ack) or stop recording. */
  set(on: boolean): void;
  /** The relay is released: never record again; the hook stops copying what no one will read. */
  release(): void;
}

/** `onStart`: recording has just begun (the relay numbers what it held meanwhile). */
export function createRecordingSwitch(initially: boolean, onStart: () => void, setTimer: (fn: () => void, ms: number) => unknown): RecordingSwitch {
  let recording = initially;
  let released = false;
  let hookMode: ((copy: boolean) => void) | null = null;
  /** What the hook was last told, and what it last said it does (it starts copying). */
  let hookTold = true;
  let hookCopies = true;
  /** Recording is wanted and waits for the hook's ack. */
  let starting = false;
  const tellHook = (copy: boolean) => {
    hookTold = copy;
    hookMode?.(copy);
  };
  function start() {
    starting = false;
    recording = true;
    onStart();
  }
  return {
    recording: () => recording,
    hookCopies: () => hookCopies,
    connectHook(mode) {
      hookMode = mode;
      if (!recording && !starting) tellHook(false);
    },
    onModeAck(copy) {
      hookCopies = copy;
      if (copy && starting && !released) start();
    },
    set(on) {
      if (released) return;
      if (!on) {
        starting = false;
        if (recording) {
          recording = false; // the buffer stays as it is
          tellHook(false);
        }
        return;
      }
      if (recording || starting) return;
      // The hook copies and was never told otherwise: record at once.
      if (!hookMode || (hookTold && hookCopies)) return start();
      // Ask the hook to copy again; start when it says it does (or after HOOK_ACK_MS anyway). Its
      // ack of an earlier `copy: false` may still be on its way: only an ack of `true` counts.
      starting = true;
      tellHook(true);
      setTimer(() => {
        if (starting && !released) start();
      }, HOOK_ACK_MS);
    },
    release() {
      released = true;
      starting = false;
      tellHook(false);
    },
  };
}
