import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Card, Text, Title } from '@mantine/core';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ActivityDay, WorkspaceRule } from '../gen/complyd/v1/case_workspace_pb';
import { count, day, money, plural } from '../ui/format';

// Activity is the sender account's last 30 days, one bar a day (NGN sent), with the windows of
// the rules that fired marked: a 24-hour rule looked at the transaction's day and the one before.
// A window's label sits left of its line (insideTopRight): the line is near the chart's right
// edge, where a label to its right was cut off ("24 h wi").
export function Activity({ days, rules, at }: { days: ActivityDay[]; rules: WorkspaceRule[]; at?: Timestamp }) {
  const end = at ? timestampDate(at) : new Date();
  const byDay = new Map(days.map((d) => [day(d.day), d]));
  const data = Array.from({ length: 30 }, (_, i) => {
    const d = new Date(end.getTime() - (29 - i) * 86_400_000);
    const a = byDay.get(day(d));
    return { day: day(d).replace(/ \d{4}$/, ''), ngn: a ? Number(a.sumNgn) : 0, n: a ? Number(a.count) : 0 };
  });
  const windows = [...new Set(rules.filter((r) => r.windowHours > 0).map((r) => r.windowHours))];
  const total = days.reduce((s, d) => s + Number(d.count), 0);
  const sum = days.reduce((s, d) => s + Number(d.sumNgn), 0);
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="act-h">
      <Title order={2} id="act-h" size="h3">Account activity, last 30 days</Title>
      <Text size="sm" mb="xs">{plural(total, 'transaction')} sent, {money(sum.toFixed(2))} in all{windows.length > 0 && `; rule windows marked: ${windows.map((h) => `${h} h`).join(', ')} before the transaction`}.</Text>
      <div role="img" aria-label="NGN sent per day, last 30 days">
      <BarChart h={180} data={data} dataKey="day" series={[{ name: 'ngn', label: 'NGN sent', color: 'blue.8' }]}
        valueFormatter={(v) => money(v.toFixed(2))} tickLine="xy" withTooltip textColor="dark.9"
        referenceLines={windows.map((h) => ({ x: data[Math.max(0, 29 - Math.ceil(h / 24))].day, label: `${h} h window`, color: 'red.9', labelPosition: 'insideTopRight' as const }))}
        yAxisProps={{ width: 80, tickFormatter: (v: number) => count(v) }} />
      </div>
    </Card>
  );
}
