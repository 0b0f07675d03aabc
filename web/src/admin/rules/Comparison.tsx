import { Paper, Stack, Text, Title } from '@mantine/core';
import type { RuleComparison, RuleComparisonExample } from '../../gen/complyd/v1/rule_pb';
import { DataTable } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';
import { count, dateTime, enumLabel, plural } from '../../ui/format';
import { useZone } from '../../ui/zone';

// Comparison shows a draft against the live rules, for its shadow (live screenings) or its
// back-test (stored ones): the same shape from the API, the same table here.
export function Comparison({ title, c }: { title: string; c: RuleComparison }) {
  const zone = useZone();
  return (
    <Paper withBorder p="sm" role="region" aria-label={title}>
      <Stack gap="xs">
        <Title order={4}>{title}</Title>
        <Text data-testid={`${title}-summary`}>
          Would have flagged {count(c.flagged)} of {plural(c.evaluated, 'screening')} ({count(c.overlap)} also flagged by the live rules,
          {' '}{count(c.draftOnly)} only by the draft; {count(c.liveOnly)} flagged live and not by the draft).
        </Text>
        <Text data-testid={`${title}-cases`}>
          Cases: {count(c.wouldOpenCases)} would have opened
          {c.closesKnown ? `, ${count(c.wouldCloseCases)} would not have opened` : ' (a back-test cannot tell the cases a new version would not open)'}.
          {c.errors > 0 && ` ${plural(c.errors, 'evaluation')} failed.`}
        </Text>
        {c.examples.length > 0 && (
          <DataTable<RuleComparisonExample> label={`${title} examples`} rows={c.examples} rowKey={(e) => e.transactionId} rowLabel={(e) => `Transaction ${e.externalId}`} cols={[
            { id: 'tx', header: 'Transaction', rowHeader: true, cell: (e) => e.externalId, sort: (e) => e.externalId },
            { id: 'at', header: 'When', cell: (e) => dateTime(e.at, zone), sort: (e) => Number(e.at?.seconds ?? 0) },
            { id: 'flagged', header: 'Draft flagged', cell: (e) => (e.flagged ? <StatusBadge value="REVIEW" label="Flagged" /> : 'No'), sort: (e) => (e.flagged ? 1 : 0) },
            { id: 'live', header: 'Live outcome', cell: (e) => <StatusBadge value={e.liveOutcome} />, sort: (e) => e.liveOutcome },
            { id: 'draft', header: 'With the draft', cell: (e) => <StatusBadge value={e.draftOutcome} />, sort: (e) => e.draftOutcome },
            { id: 'case', header: 'Case', cell: (e) => (e.liveCase === e.draftCase ? (e.liveCase ? 'Opened either way' : 'None') : e.draftCase ? 'Would open' : 'Would not open') },
          ]} />
        )}
      </Stack>
    </Paper>
  );
}
