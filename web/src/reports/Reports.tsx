import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { ReportService } from '../gen/complyd/v1/report_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';

export const reportTypes = ['CTR', 'STR', 'SAR', 'FTR'];
export const reportStatuses = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FILED'];
export const statusLabel = (s: string) => s.toLowerCase().replace(/_/g, ' ');

// Reports lists the regulatory reports (filters by type and status, paged on the server), the
// ones near or past their deadline, and lets a writer draft one from stored transactions.
export function Reports() {
  const { canAct } = useSession();
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery(ReportService.method.listReports, { page, limit: 20, type: type || undefined, status: status || undefined });
  const due = useQuery(ReportService.method.listReportDeadlines, { page: 1, limit: 5 });
  const items = q.data?.items ?? [];
  return (
    <section aria-labelledby="reports-h">
      <h1 id="reports-h">Regulatory reports <span className="badge">{q.data?.total ?? 0}</span></h1>
      {(due.data?.items.length ?? 0) > 0 && (
        <aside aria-label="Deadlines" className="notes">
          <h2>Near or past their deadline</h2>
          <ul>{due.data!.items.map((r) => <li key={r.id}><Link to={`/reports/${r.id}`}>{r.type} {r.customerName || r.customerAccount}</Link> due {when(r.deadlineAt)}</li>)}</ul>
        </aside>
      )}
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Report type"><select value={type} onChange={(e) => { setType(e.target.value); setPage(1); }}><option value="">any</option>{reportTypes.map((t) => <option key={t} value={t}>{t}</option>)}</select></Field>
        <Field label="Report status"><select value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}><option value="">any</option>{reportStatuses.map((s) => <option key={s} value={s}>{statusLabel(s)}</option>)}</select></Field>
      </form>
      {q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : items.length === 0 ? <Empty>No reports match these filters.</Empty> : (
        <table>
          <thead><tr><th>Report</th><th>Type</th><th>Customer</th><th>Day</th><th>Status</th><th>Deadline</th></tr></thead>
          <tbody>{items.map((r) => (
            <tr key={r.id}>
              <td><Link to={`/reports/${r.id}`}>{r.id}</Link></td><td>{r.type}</td><td>{r.customerName} {r.customerAccount}</td>
              <td>{r.reportDay}</td><td>{statusLabel(r.status)}</td><td>{when(r.deadlineAt)}</td>
            </tr>))}
          </tbody>
        </table>
      )}
      {q.data && <Pager page={q.data.page} totalPages={q.data.totalPages} total={q.data.total} onPage={setPage} />}
      {canAct && <NewReport />}
    </section>
  );
}

// NewReport drafts a report from stored transactions (ids separated by spaces or commas).
function NewReport() {
  const { navigate } = useRouter();
  const [type, setType] = useState('CTR');
  const [ids, setIds] = useState('');
  const create = useMutation(ReportService.method.createReport, { onSuccess: (r) => navigate(`/reports/${r.id}`) });
  return (
    <form aria-label="Draft a report" onSubmit={(e) => { e.preventDefault(); create.mutate({ type, transactionIds: ids.split(/[\s,]+/).filter(Boolean) }); }}>
      <h2>Draft a report</h2>
      <Field label="Type of the new report"><select value={type} onChange={(e) => setType(e.target.value)}>{reportTypes.map((t) => <option key={t} value={t}>{t}</option>)}</select></Field>
      <Field label="Transaction ids"><input value={ids} onChange={(e) => setIds(e.target.value)} /></Field>
      <button type="submit">Draft report</button>
      <ErrorText error={create.error} />
    </form>
  );
}
