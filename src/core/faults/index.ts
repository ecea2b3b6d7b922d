// Public surface of the fault model (pure: serve and the panel's fault injection share it).
export * from './spec';
export { matchFault, createFaultArming, type RequestFacts, type ActiveFault, type FaultArming } from './match';
export {
  createStreamFaults,
  responseOverride,
  SESSION_NOT_FOUND_BODY,
  RESUME_CONFLICT_BODY,
  type StreamEventInfo,
  type EventDecision,
  type FaultEffect,
  type StreamFaults,
  type ResponseOverride,
} from './stream';
export { parseFaultText, describeFault } from './text';
export { PRESETS, presetById, evaluatePreset, paramsKey, type FaultPreset, type PresetResult, type PresetOutcome } from './presets';
