// Render counting for tests: a view calls useRenderProbe('name') in its body; a test that mounts
// the app with a `renderProbe` callback learns how often each view rendered (a view must not
// re-render for records that do not change what it shows). Without a callback it costs one
// context read.

import { createContext, useContext } from 'react';

export type RenderProbe = (view: string) => void;

export const RenderProbeContext = createContext<RenderProbe | undefined>(undefined);

export function useRenderProbe(view: string): void {
  useContext(RenderProbeContext)?.(view);
}
