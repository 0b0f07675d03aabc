import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

// dueText says how long is left before a case's due time, or how long ago it was breached:
// "due in 3 h", "overdue by 2 d".
export function dueText(due?: Timestamp, now = Date.now()): string {
  if (!due) return 'no due time';
  const ms = timestampDate(due).getTime() - now;
  const abs = Math.abs(ms);
  const span = abs < 3_600_000 ? `${Math.max(1, Math.round(abs / 60_000))} min` : abs < 172_800_000 ? `${Math.round(abs / 3_600_000)} h` : `${Math.round(abs / 86_400_000)} d`;
  return ms < 0 ? `overdue by ${span}` : `due in ${span}`;
}

// overdue says whether the due time has passed.
export function overdue(due?: Timestamp, now = Date.now()): boolean {
  return !!due && timestampDate(due).getTime() < now;
}
