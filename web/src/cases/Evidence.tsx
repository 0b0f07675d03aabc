import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { SanctionsEvidence, WorkspaceTransaction } from '../gen/complyd/v1/case_workspace_pb';
import { calendarDate, dateTime, day, enumLabel, money } from '../ui/format';
import { StatusBadge } from '../ui/StatusBadge';

// Evidence shows each sanctions hit as a comparison: our party beside the list entry, every
// field the entry has, the fields that differ marked (the server names them: differences).
export function Evidence({ hits }: { hits: SanctionsEvidence[] }) {
  if (hits.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="hits-h">
      <Title order={2} id="hits-h" size="h3">Sanctions and PEP matches</Title>
      {hits.map((h, i) => <Hit key={`${h.entry?.entryId}-${i}`} hit={h} />)}
    </Stack>
  );
}

function Hit({ hit }: { hit: SanctionsEvidence }) {
  const e = hit.entry;
  const p = hit.party;
  const diff = new Set(hit.differences);
  const row = (label: string, ours: string, theirs: string, key?: string) => {
    const differs = key !== undefined && diff.has(key);
    return (
      <Table.Tr key={label} data-differs={differs || undefined}>
        <Table.Th scope="row">{label}</Table.Th>
        <Table.Td>{ours || '—'}</Table.Td>
        <Table.Td>{theirs || '—'}{differs && <Badge ml="xs" color="orange.9" c="orange.9" variant="light">differs</Badge>}</Table.Td>
      </Table.Tr>
    );
  };
  return (
    <Card withBorder padding="sm" component="article" aria-label={`Match with ${e?.name ?? hit.matchedName}`}>
      <Group justify="space-between" wrap="wrap" mb="xs">
        <Text fw={700}>{enumLabel(p?.role)} matched {e?.name || hit.matchedName}</Text>
        <Group gap="xs">
          <StatusBadge value={hit.band || 'REVIEW'} label={enumLabel(hit.band || 'match')} />
          <Badge variant="outline" color="dark">score {hit.score.toFixed(2)}</Badge>
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={0}>
        <Table withTableBorder layout="fixed" fz="sm" className="compare">
          <Table.Thead><Table.Tr><Table.Th scope="col" w="28%">Field</Table.Th><Table.Th scope="col">Our party</Table.Th><Table.Th scope="col">List entry</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {row('Name', p?.name ?? '', e?.name ?? '', 'name')}
            {row('Matched name', '', hit.matchedName)}
            {row('Aliases', '', (e?.aliases ?? []).join('; '))}
            {row('Date of birth', calendarDate(p?.dateOfBirth), (e?.datesOfBirth ?? []).map(calendarDate).join('; '), 'dateOfBirth')}
            {row('Nationality', p?.nationality ?? '', (e?.nationalities ?? []).join('; '), 'nationality')}
            {row('Entity type', enumLabel(p?.entityType || undefined), enumLabel(e?.entityType || undefined), 'entityType')}
            {row('Account / BVN', [p?.accountNumber, p?.bvn].filter(Boolean).join(' / '), '')}
            {row('Programme', '', (e?.programs ?? []).join('; '))}
            {row('List', '', e ? `${e.list} (${enumLabel(e.listType)}), version ${e.listVersion || '—'}` : '')}
            {row('List published', '', e?.listPublishedAt ? day(e.listPublishedAt) : 'not stated by the list')}
            {row('Source id', '', e?.sourceId ?? '')}
            {row('Remarks', '', e?.remarks ?? '')}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {hit.explanation && <Text size="sm" mt="xs"><strong>Why it matched:</strong> {hit.explanation}</Text>}
    </Card>
  );
}

// TransactionFacts is the transaction the case is about, with the rules that fired.
export function TransactionFacts({ tx }: { tx: WorkspaceTransaction }) {
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="tx-h">
      <Title order={2} id="tx-h" size="h3">Transaction {tx.externalId}</Title>
      <dl className="facts">
        <dt>Amount</dt><dd data-testid="tx-amount">{money(tx.amount, tx.currency)}{tx.currency !== 'NGN' && ` (${money(tx.amountNgn)})`}</dd>
        <dt>When</dt><dd>{dateTime(tx.transactionTimestamp)}</dd>
        <dt>Type, channel</dt><dd>{enumLabel(tx.type)}, {enumLabel(tx.channel)}</dd>
        <dt>Sender</dt><dd>{tx.sender?.name} · {tx.sender?.accountNumber}{tx.sender?.bankCode && ` · bank ${tx.sender.bankCode}`}</dd>
        <dt>Receiver</dt><dd>{tx.receiver?.name || '—'}{tx.receiver?.accountNumber && ` · ${tx.receiver.accountNumber}`}{tx.receiver?.bankCode && ` · bank ${tx.receiver.bankCode}`}{tx.receiver?.nationality && ` · ${tx.receiver.nationality}`}</dd>
        {tx.narration && <><dt>Narration</dt><dd>{tx.narration}</dd></>}
        <dt>Verdict</dt><dd>{enumLabel(tx.outcome)}, {enumLabel(tx.riskLevel)} risk, score {tx.aggregateScore.toFixed(0)}</dd>
      </dl>
      {tx.rules.length > 0 && (
        <Table.ScrollContainer minWidth={0}>
          <Table fz="sm" layout="fixed" aria-label="Rules that fired">
            <Table.Thead><Table.Tr><Table.Th scope="col">Rule</Table.Th><Table.Th scope="col" w={70}>Score</Table.Th><Table.Th scope="col">Why</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>{tx.rules.map((r, i) => (
              <Table.Tr key={`${r.name}-${i}`}><Table.Td>{r.name}{r.windowHours > 0 && <Text size="xs">window {r.windowHours} h</Text>}</Table.Td>
                <Table.Td>{r.riskScore}</Table.Td><Table.Td style={{ overflowWrap: 'anywhere' }}>{r.details}</Table.Td></Table.Tr>))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
