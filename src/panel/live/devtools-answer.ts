// DevTools' extension API answers by callback (network.getHAR, inspectedWindow.eval), and nothing
// promises that the callback is called: whoever awaits one must not wait for ever.

/** What `p` gives, or `undefined` when it fails or has not settled within `ms`. */
export function answerWithin<T>(p: Promise<T>, ms: number, setTimer: (fn: () => void, ms: number) => unknown): Promise<T | undefined> {
  return new Promise((resolve) => {
    setTimer(() => resolve(undefined), ms);
    p.then(resolve, () => resolve(undefined));
  });
}
