import type { ReactNode } from 'react';
import { BarChart } from '@mantine/charts';
import { Box, Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { Link, useRouter } from '../ui/router';
import { count } from '../ui/format';

// The Overview's charts: time series drawn with @mantine/charts (recharts) with both axes, the
// values on hover (tooltip) and in a table of figures below each chart, and horizontal bars whose
// every bar is a link to the list behind it. Each link's accessible name says the figure, so
// keyboard and screen-reader users (and the tests) reach the numbers the eye does.

export const palette: Record<string, string> = {
  APPROVE: 'green.8', REVIEW: 'yellow.6', ESCALATE: 'orange.7', BLOCK: 'red.8',
  LOW: 'green.8', MEDIUM: 'yellow.6', HIGH: 'orange.7', CRITICAL: 'red.8',
  opened: 'blue.7', closed: 'teal.7', spend: 'violet.7',
};
const others = ['blue.7', 'grape.7', 'cyan.8', 'orange.9', 'gray.7'];
export const color = (k: string, i: number) => palette[k] ?? others[i % others.length];

export type Segment = { key: string; label: string; value: number; to: string; name: string };
export type Column = { label: string; segments: Segment[] };

// StackedColumns is a time series: one column per bucket, stacked by key; a click on a column's
// segment opens its list, and the table of figures under it has the same links for the keyboard.
export function StackedColumns({ title, columns, unit }: { title: string; columns: Column[]; unit?: string }) {
  const { navigate } = useRouter();
  const keys = [...new Map(columns.flatMap((c) => c.segments.map((s) => [s.key, s.label] as const))).entries()];
  const data = columns.map((c) => ({ bucket: c.label, ...Object.fromEntries(c.segments.map((s) => [s.key, s.value])) }));
  const target = (bucket: string, key: string) => columns.find((c) => c.label === bucket)?.segments.find((s) => s.key === key)?.to;
  return (
    <Box my="sm">
      <Text fw={600} size="sm" mb={4}>{title}</Text>
      <div role="img" aria-label={`${title}: chart; the figures are in the table below`}>
        <BarChart h={220} data={data} dataKey="bucket" type="stacked" withLegend legendProps={{ verticalAlign: 'bottom' }}
          series={keys.map(([k, l], i) => ({ name: k, label: l, color: color(k, i) }))}
          valueFormatter={(v) => count(v) + (unit ?? '')} yAxisProps={{ width: 48, allowDecimals: false }}
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
          barProps={(s) => ({ cursor: 'pointer', onClick: (d: { payload?: { bucket: string } }) => { const to = d.payload && target(d.payload.bucket, s.name); if (to) navigate(to); } })}
        />
      </div>
      <details>
        <summary><Text component="span" size="sm">Figures of “{title}”</Text></summary>
        <Box style={{ overflowX: 'auto' }}>
          <Table aria-label={title} withTableBorder fz="sm">
            <Table.Thead><Table.Tr><Table.Th scope="col">Period</Table.Th>{keys.map(([k, l]) => <Table.Th key={k} scope="col">{l}</Table.Th>)}</Table.Tr></Table.Thead>
            <Table.Tbody>{columns.map((c) => (
              <Table.Tr key={c.label}><Table.Th scope="row" fw={400}>{c.label}</Table.Th>
                {keys.map(([k]) => { const s = c.segments.find((x) => x.key === k); return <Table.Td key={k}>{s ? <Link to={s.to} aria-label={s.name}>{count(s.value)}{unit ?? ''}</Link> : 0}</Table.Td>; })}
              </Table.Tr>))}
            </Table.Tbody>
          </Table>
        </Box>
      </details>
    </Box>
  );
}

export type Bar = { key: string; label: string; value: number; to?: string; name: string };

// Bars is a horizontal bar chart (totals, a funnel); every bar with a target links to it.
export function Bars({ title, bars, unit }: { title: string; bars: Bar[]; unit?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <Box component="figure" m={0} my="sm">
      <Text component="figcaption" fw={600} size="sm" mb={4}>{title}</Text>
      {bars.length === 0 ? <Text size="sm" c="gray.7">Nothing in the period.</Text> : (
        <Box component="ul" aria-label={title} p={0} m={0} style={{ listStyle: 'none' }}>
          {bars.map((b, i) => {
            const inner = (
              <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(6rem, 12rem) 1fr auto', gap: 8, alignItems: 'center' }}>
                <Text size="sm" truncate="end" td={b.to ? 'underline' : undefined}>{b.label}</Text>
                <Box h={12} bg="gray.1" style={{ borderRadius: 3 }}>
                  <Box h={12} w={`${Math.max(1, (b.value / max) * 100)}%`} bg={color(b.key, i)} style={{ borderRadius: 3 }} />
                </Box>
                <Text size="sm" fw={600} ta="right">{count(b.value)}{unit ?? ''}</Text>
              </Box>
            );
            return (
              <li key={b.key} style={{ margin: '2px 0' }}>
                {/* The bar is drawn for the eye and named for the ear: the visible row is hidden from
                    assistive technology and the full name (outcome, count, unit) is the link's text,
                    so the accessible name never contradicts what is shown (axe
                    label-content-name-mismatch). */}
                {b.to
                  ? <Link to={b.to}><Box aria-hidden>{inner}</Box><VisuallyHidden>{b.name}</VisuallyHidden></Link>
                  : <span><Box aria-hidden>{inner}</Box><VisuallyHidden>{b.name}</VisuallyHidden></span>}
              </li>
            );
          })}
        </Box>
      )}
    </Box>
  );
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} withBorder p="md" my="sm" radius="md">
      <Title order={2} size="h4" mb="xs">{title}</Title>
      {children}
    </Paper>
  );
}
