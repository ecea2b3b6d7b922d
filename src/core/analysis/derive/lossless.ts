// The session model: the lossless flag with its reasons (the design note: false after any
// reconnect, any gap, or without a gapless declaration), and the reconnect chains.
import type { ReconnectChain, Session, Severity } from '../../model';
import { notRecordedOnly } from '../streams';
import { META_RANK } from '../sessions';
import type { Derivation } from './context';
import { MODERN_REASONS, SESSION_ERA } from '../texts-eras';
import { eventCount } from '../../event-access';

function reasons(D: Derivation, foreign: number): string[] {
  const { s, I } = D;
  const out: string[] = [];
  if (D.mv) {
    // 2026-07-28: one stream per request, never resumed: a stream that ended with its final
    // response is whole; what is lost is a broken stream's request and a dropped subscription's changes.
    if (D.mv.broken.length > 0) out.push(MODERN_REASONS.broken(D.mv.broken.length, D.mv.reissuedAs.size));
    const dropped = D.mv.subscriptions.filter((x) => x.state === 'dropped' && x.coveredBy === undefined).length;
    if (dropped > 0) out.push(MODERN_REASONS.dropped(dropped));
    if (D.mv.ended > 0) out.push(MODERN_REASONS.ended(D.mv.ended));
  } else if (!s.gaplessDeclared) out.push('the server did not declare gapless event retention');
  if (s.resumes.length > 0) out.push(`${s.resumes.length} reconnect(s) with Last-Event-ID`);
  if (I.gapCount > 0) out.push(`ids ${I.gapTexts.join('; ')}${I.gapCount > I.gapTexts.length ? `; … (${I.gapCount - I.gapTexts.length} more gaps)` : ''} never delivered`);
  if (I.unvCount > 0)
    out.push(`ids ${I.unvTexts.join('; ')}${I.unvCount > I.unvTexts.length ? `; … (${I.unvCount - I.unvTexts.length} more gaps)` : ''} delivered by no stream in the capture (they may be in records the capture does not hold)`);
  if (s.resyncOrds.length > 0 || s.streams.some((x) => x.resyncOrds.length > 0)) out.push('the server sent a resync');
  // A body an imported file does not hold was not lost by the inspector: the file says so.
  if (s.captureGap || s.streams.some((x) => x.captureIncomplete && !notRecordedOnly(x) && !(x.bodyAbsent && !x.inspectorLost))) out.push('the inspector lost records of this session');
  const absent = s.streams.filter((x) => x.bodyAbsent);
  if (absent.length > 0)
    out.push(`the file does not hold the body of ${absent.length} response(s) (${absent.slice(0, 5).map((x) => `${x.id}, ${x.method}${x.kind === 'resume' ? ' resume' : ''}`).join('; ')}${absent.length > 5 ? '; …' : ''}): what they carried is unknown`);
  if (foreign > 0) out.push(`${foreign} event(s) of another session replayed into this one`);
  if (s.notRecorded || s.streams.some(notRecordedOnly))
    out.push('recording began only when DevTools opened ("capture while DevTools is closed" is off): earlier events of streams open then are unknown');
  if (s.idReuse > 0) out.push(`${s.idReuse} event id(s) reused by different streams: Last-Event-ID is ambiguous`);
  return out;
}

function chains(D: Derivation): ReconnectChain[] {
  const out: ReconnectChain[] = [];
  for (const st of D.s.streams) {
    if (st.root !== st || st.segments.length < 2) continue;
    out.push({
      rootStreamId: st.id,
      requestIds: st.requests.map((r) => r.id),
      segments: st.segments.map((x) => {
        const seg: ReconnectChain['segments'][number] = { streamId: x.id, events: eventCount(x), state: x.state };
        if (x !== st && x.lastEventIdSent !== undefined) seg.resumedFrom = x.lastEventIdSent;
        if (x.firstId !== undefined) seg.firstId = x.firstId;
        if (x.lastId !== undefined) seg.lastId = x.lastId;
        if (x.status !== undefined) seg.status = x.status;
        return seg;
      }),
    });
  }
  return out;
}

function eraEvidence(D: Derivation): string {
  const { s } = D;
  if (s.era === 'modern') return SESSION_ERA.modern(s.protocolVersion, s.conv?.client);
  if (s.sessionId !== null) return SESSION_ERA.session(s.protocolVersion);
  const stateless = s.server?.kinds.has('initialize') && !s.server.kinds.has('session');
  return stateless ? SESSION_ERA.stateless(s.protocolVersion) : SESSION_ERA.sessionless(s.protocolVersion);
}

/** The session as the snapshot shows it. */
export function sessionModel(D: Derivation, foreign: number, worst: Severity | undefined): Session {
  const { s } = D;
  const why = reasons(D, foreign);
  const session: Session = {
    key: s.key,
    sessionId: s.sessionId,
    endpoint: s.endpoint,
    origin: s.origin,
    idScheme: D.scheme,
    gaplessDeclared: s.gaplessDeclared,
    lossless: why.length === 0,
    losslessReasons: why,
    era: s.era,
    eraEvidence: eraEvidence(D),
    streamIds: s.streams.map((x) => x.id),
    requestIds: s.requests.map((r) => r.id),
    chains: chains(D),
  };
  if (s.conv?.client) session.client = { ...s.conv.client };
  if (D.mv) {
    session.links = D.mv.links;
    session.subscriptions = D.mv.subscriptions;
  }
  if (D.carried?.length) session.links = (session.links ?? []).concat(D.carried).sort((a, b) => a.t1 - b.t1);
  if (s.protocolVersion !== undefined) {
    session.protocolVersion = s.protocolVersion;
    session.protocolVersionSource = s.pvRank === META_RANK ? 'request-meta' : s.pvRank === 3 ? 'initialize-result' : s.pvRank === 2 ? 'header' : 'initialize-request';
  }
  if (worst !== undefined) session.worst = worst;
  return session;
}
