import { Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { RuleComparison } from '../../gen/complyd/v1/rule_pb';
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
          <Table aria-label={`${title} examples`} striped>
            <Table.Thead><Table.Tr><Table.Th>Transaction</Table.Th><Table.Th>When</Table.Th><Table.Th>Draft flagged</Table.Th><Table.Th>Live outcome</Table.Th><Table.Th>With the draft</Table.Th><Table.Th>Case</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>{c.examples.map((e) => (
              <Table.Tr key={e.transactionId}>
                <Table.Td>{e.externalId}</Table.Td><Table.Td>{dateTime(e.at, zone)}</Table.Td>
                <Table.Td>{e.flagged ? <Badge color="orange">flagged</Badge> : 'no'}</Table.Td>
                <Table.Td>{enumLabel(e.liveOutcome)}</Table.Td><Table.Td>{enumLabel(e.draftOutcome)}</Table.Td>
                <Table.Td>{e.liveCase === e.draftCase ? (e.liveCase ? 'opened either way' : 'none') : e.draftCase ? 'would open' : 'would not open'}</Table.Td>
              </Table.Tr>))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
