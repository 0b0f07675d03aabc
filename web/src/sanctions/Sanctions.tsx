import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { SanctionsService, type SanctionsMatch } from '../gen/complyd/v1/sanctions_pb';
import { useSession } from '../auth/session';
import { Empty, ErrorText } from '../ui/parts';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { prose } from '../ui/format';

// Sanctions searches a name against the lists and shows each candidate with its score and the
// matcher's explanation. Given a customer key (account or BVN), an officer can mark a hit a
// reviewed false positive for that customer, so later screenings of them skip it.
export function Sanctions() {
  const { me } = useSession();
  // Recording a false positive is an officer's (the API refuses analysts and the auditor).
  const officer = ['BANK_ADMIN', 'COMPLIANCE_OFFICER'].includes(me.role);
  const [name, setName] = useState('');
  const [subjectKey, setSubjectKey] = useState('');
  const [asked, setAsked] = useState<{ name: string; subjectKey: string } | null>(null);
  const q = useQuery(SanctionsService.method.search, asked ? { name: asked.name, subjectKey: asked.subjectKey || undefined, limit: 20 } : undefined, { enabled: !!asked });
  const review = officer && !!asked?.subjectKey;
  const cols: Col<SanctionsMatch>[] = [
    { id: 'name', header: 'Listed name', rowHeader: true, cell: (m) => m.name, sort: (m) => m.name },
    { id: 'matched', header: 'Matched name', cell: (m) => m.matchedName, sort: (m) => m.matchedName },
    { id: 'list', header: 'List', cell: (m) => `${m.list} ${m.sourceId}`, sort: (m) => m.list },
    { id: 'score', header: 'Score', cell: (m) => m.score.toFixed(2), sort: (m) => m.score },
    { id: 'band', header: 'Band', cell: (m) => (m.band ? <StatusBadge value={m.band} /> : '—'), sort: (m) => m.band },
    { id: 'why', header: 'Explanation', cell: (m) => prose(m.explanation) },
    ...(review && asked ? [{ id: 'review', header: 'Review', cell: (m: SanctionsMatch) => <FalsePositive m={m} subjectKey={asked.subjectKey} onDone={() => void q.refetch()} /> }] : []),
  ];
  return (
    <Stack component="section" aria-labelledby="sx-h" gap="sm">
      <Title order={1} id="sx-h">Sanctions search</Title>
      <form onSubmit={(e) => { e.preventDefault(); setAsked({ name, subjectKey }); }}>
        <Group gap="sm" align="end" wrap="wrap">
          <TextInput label="Name to search" required value={name} onChange={(e) => setName(e.currentTarget.value)} w={280} maw="100%" />
          <TextInput label="Customer key (account or BVN)" value={subjectKey} onChange={(e) => setSubjectKey(e.currentTarget.value)} w={240} maw="100%" />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      {!asked ? <Empty>Enter a name to search the lists.</Empty> : q.isError ? <ErrorText error={q.error} /> : (
        <DataTable label="Candidates" rows={q.data?.matches} loading={q.isPending} cols={cols} rowKey={(m) => m.list + m.entryId} empty="No candidates above the threshold." />
      )}
    </Stack>
  );
}

// FalsePositive records a reviewed false positive; its reason stays if the API refuses it.
function FalsePositive({ m, subjectKey, onDone }: { m: SanctionsMatch; subjectKey: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const mark = useMutation(SanctionsService.method.createFalsePositive, { onSuccess: () => { setReason(''); onDone(); } });
  if (mark.isSuccess) return <Text size="sm" role="status">Reviewed: false positive</Text>;
  return (
    <form onSubmit={(e) => { e.preventDefault(); mark.mutate({ subjectKey, entryId: m.entryId, reason }); }}>
      <Stack gap={4} miw={220}>
        <TextInput size="xs" label={`Reason for ${m.name}`} required value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        <Button size="xs" type="submit" loading={mark.isPending}>Mark {m.name} as false positive</Button>
        <ErrorText error={mark.error} />
      </Stack>
    </form>
  );
}
