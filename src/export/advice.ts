// The plain-words rules (verdict texts, advice, sort order) live in the core's presentation module
// (src/core/presentation.ts), shared by the panel, the Markdown report and `audit`.
export { ADVICE_LOSSY, VERDICT_TEXT, countRange, lossDetail, sortFindings, type LossDetail } from '../core/presentation';
