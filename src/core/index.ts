// Public surface of the analysis core (pure TypeScript: Node, the panel and the CLI).
export { createAnalyzer, analyzeRecords, type Analyzer } from './analyzer';
export type { AnalyzerOptions } from './options';
export { DEFAULT_OPTIONS, GAPLESS_CAPABILITY_KEY, optionsFromSettings, lookupCapability } from './options';
export type { IdSchemeOverride } from './ids';
export { SEVERITY, TITLE, ALL_CODES, SEVERITY_RANK } from './findings';
export { createSseConnectionParser, type SseBlock, type SseConnectionParser } from './sse';
export * from './model';
export * from './presentation';
export * from './presentation-eras';
export { FINDING_HELP, type FindingHelp } from './findings-help';
