// Usage reports onto a session: its reports by source and the merged usage views read (see ../usage.ts).
import type { SessionRecord } from '../model';
import { mergeUsage, withReport, type UsageReport } from '../usage';
import type { ReducerContext } from '../reducerContext';

export function noteUsage({ core }: ReducerContext, session: SessionRecord, report: UsageReport | undefined): void {
  if (!report) return;
  session.usageReports = withReport(session.usageReports, report);
  const model = session.meta?.['model'];
  session.spend = mergeUsage(session.usageReports, typeof model === 'string' ? model : undefined);
  core.touch(session);
}
