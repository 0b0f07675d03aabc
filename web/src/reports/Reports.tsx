import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Badge, Button, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { ReportService, type Report } from '../gen/complyd/v1/report_pb';
import { useSession } from '../auth/session';
import { Link, useRouter } from '../ui/router';
import { ErrorText, Pager, when } from '../ui/parts';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { calendarDate, dateTime, enumLabel } from '../ui/format';
import { useZone } from '../ui/zone';

export const reportTypes = ['CTR', 'STR', 'SAR', 'FTR'];
export const reportStatuses = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FILED'];
export const statusLabel = enumLabel;

// Reports lists the regulatory reports (filters by type and status, paged on the server), the
// ones near or past their deadline, and lets a writer draft one from stored transactions.
export function Reports() {
  const { canAct } = useSession();
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery(ReportService.method.listReports, { page, limit: 20, type: type || undefined, status: status || undefined });
  const due = useQuery(ReportService.method.listReportDeadlines, { page: 1, limit: 5 });
  const zone = useZone();
  const { navigate } = useRouter();
  const cols: Col<Report>[] = [
    { id: 'report', header: 'Report', cell: (r) => <Link to={`/reports/${r.id}`}>{[r.type, r.customerName || r.customerAccount].filter(Boolean).join(' ')}, {calendarDate(r.reportDay)}</Link>, sort: (r) => r.id },
    { id: 'type', header: 'Type', cell: (r) => r.type, sort: (r) => r.type },
    { id: 'customer', header: 'Customer', cell: (r) => `${r.customerName} ${r.customerAccount}`, sort: (r) => r.customerName },
    { id: 'day', header: 'Day', cell: (r) => calendarDate(r.reportDay), sort: (r) => r.reportDay },
    { id: 'status', header: 'Status', cell: (r) => <StatusBadge value={r.status} />, sort: (r) => r.status },
    { id: 'deadline', header: 'Deadline', cell: (r) => dateTime(r.deadlineAt, zone), sort: (r) => Number(r.deadlineAt?.seconds ?? 0) },
  ];
  return (
    <section aria-labelledby="reports-h">
      <Title order={1} id="reports-h" mb="sm">Regulatory reports <Badge size="lg" color="blue.9" aria-label={`${q.data?.total ?? 0} reports`}>{q.data?.total ?? 0}</Badge></Title>
      {(due.data?.items.length ?? 0) > 0 && (
        <aside aria-label="Deadlines" className="notes">
          <h2>Near or past their deadline</h2>
          <ul>{due.data!.items.map((r) => <li key={r.id}><Link to={`/reports/${r.id}`}>{r.type} {r.customerName || r.customerAccount}</Link> due {when(r.deadlineAt)}</li>)}</ul>
        </aside>
      )}
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <NativeSelect label="Report type" value={type} onChange={(e) => { setType(e.currentTarget.value); setPage(1); }}
            data={[{ value: '', label: 'Any' }, ...reportTypes]} />
          <NativeSelect label="Report status" value={status} onChange={(e) => { setStatus(e.currentTarget.value); setPage(1); }}
            data={[{ value: '', label: 'Any' }, ...reportStatuses.map((s) => ({ value: s, label: statusLabel(s) }))]} />
        </Group>
      </form>
      {q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Reports" rows={q.data?.items} cols={cols} rowKey={(r) => r.id} loading={q.isPending}
          empty="No reports match these filters." onOpen={(r) => navigate(`/reports/${r.id}`)} />
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
      <Title order={2} size="h3" mt="lg" mb="xs">Draft a report</Title>
      <Stack gap="sm" maw={520}>
        <NativeSelect label="Type of the new report" value={type} onChange={(e) => setType(e.currentTarget.value)} data={reportTypes} w={160} />
        <TextInput label="Transaction ids" description="The transactions the report is about, separated by spaces or commas."
          value={ids} onChange={(e) => setIds(e.currentTarget.value)} />
        <Group><Button type="submit" loading={create.isPending}>Draft report</Button></Group>
        <ErrorText error={create.error} />
      </Stack>
    </form>
  );
}
