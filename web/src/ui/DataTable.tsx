import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ActionIcon, Checkbox, Group, Menu, ScrollArea, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowsSort, IconColumns, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import {
  columnVisibilityFeature, createSortedRowModel, rowSortingFeature, sortFns, tableFeatures, useTable,
  type ColumnDef, type SortingState, type ColumnVisibilityState as VisibilityState, type RowData,
} from '@tanstack/react-table';
import { Empty, Loading } from './parts';

const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature, sortedRowModel: createSortedRowModel(), sortFns });

// Col is one column of a DataTable: its header, how to read the cell, and how to sort it (by the
// value `sort` returns; a column without `sort` does not sort).
export type Col<T> = {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sort?: (row: T) => string | number;
  // hidden columns start hidden; the column menu shows them.
  hidden?: boolean;
  // rowHeader marks the cell that names the row (a <th scope="row">).
  rowHeader?: boolean;
};

// DataTable is the workspace's table (TanStack Table drawn with Mantine's Table): columns sort by
// a click or Enter on their header, a menu chooses the columns shown, the arrow keys move between
// rows (each row is one tab stop), and the table scrolls inside its own box on a phone instead of
// widening the page. Sorting orders the rows on the screen; paging stays the server's.
export function DataTable<T extends RowData>({ label, rows, cols, rowKey, rowLabel, loading, empty, onOpen }: {
  label: string;
  // rowLabel names a row for assistive technology (and tests) when its cells do not.
  rowLabel?: (row: T) => string;
  rows: T[] | undefined;
  cols: Col<T>[];
  rowKey: (row: T) => string;
  loading?: boolean;
  empty?: ReactNode;
  // onOpen is called with a row on Enter (the row's own link is its mouse path).
  onOpen?: (row: T) => void;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [visibility, setVisibility] = useState<VisibilityState>(() => Object.fromEntries(cols.filter((c) => c.hidden).map((c) => [c.id, false])));
  const columns = useMemo(() => cols.map((c): ColumnDef<typeof features, T, unknown> => ({
    id: c.id,
    header: c.header,
    accessorFn: (r: T) => (c.sort ? c.sort(r) : ''),
    enableSorting: Boolean(c.sort),
    cell: (ctx) => c.cell(ctx.row.original),
  })), [cols]);
  const table = useTable({
    features, columns, data: rows ?? [], getRowId: (r: T) => rowKey(r),
    state: { sorting, columnVisibility: visibility },
    onSortingChange: setSorting, onColumnVisibilityChange: setVisibility,
  });
  if (loading || rows === undefined) return <Loading />;
  if (rows.length === 0) return <Empty>{empty ?? 'Nothing to show.'}</Empty>;
  const byId = Object.fromEntries(cols.map((c) => [c.id, c]));
  const moveFocus = (e: KeyboardEvent<HTMLTableRowElement>, row: T) => {
    const tr = e.currentTarget;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = (e.key === 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling) as HTMLElement | null;
      next?.focus();
    } else if (e.key === 'Enter' && e.target === tr && onOpen) {
      e.preventDefault();
      onOpen(row);
    }
  };
  return (
    <div>
      <Group justify="flex-end" gap="xs" mb={4}>
        <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="default" size="md" aria-label={`Columns of ${label}`}><IconColumns size={16} aria-hidden /></ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Columns shown</Menu.Label>
            {table.getAllLeafColumns().map((col) => (
              <Menu.Item key={col.id} component="div">
                <Checkbox label={byId[col.id]?.header ?? col.id} checked={col.getIsVisible()} onChange={() => col.toggleVisibility()} />
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <ScrollArea type="auto" offsetScrollbars="x">
        <Table aria-label={label} striped highlightOnHover verticalSpacing="xs" miw={Math.min(640, 120 * table.getVisibleLeafColumns().length)}>
          <Table.Thead>
            {table.getHeaderGroups().map((hg) => (
              <Table.Tr key={hg.id}>
                {hg.headers.map((h) => {
                  const dir = h.column.getIsSorted();
                  const name = byId[h.column.id]?.header ?? h.column.id;
                  return (
                    <Table.Th key={h.id} scope="col" aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}>
                      {h.column.getCanSort() ? (
                        <UnstyledButton onClick={h.column.getToggleSortingHandler()} fw={700} fz="sm">
                          <Group gap={4} wrap="nowrap">
                            <span>{name}</span>
                            {dir === 'asc' ? <IconSortAscending size={14} aria-hidden /> : dir === 'desc' ? <IconSortDescending size={14} aria-hidden /> : <IconArrowsSort size={14} aria-hidden opacity={0.5} />}
                            <VisuallyHidden>{dir ? '' : '(sort)'}</VisuallyHidden>
                          </Group>
                        </UnstyledButton>
                      ) : <Text fw={700} fz="sm" component="span">{name}</Text>}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((r) => (
              <Table.Tr key={r.id} tabIndex={0} aria-label={rowLabel?.(r.original)} onKeyDown={(e) => moveFocus(e, r.original)}>
                {r.getVisibleCells().map((c) => byId[c.column.id]?.rowHeader
                  ? <Table.Th key={c.id} scope="row" fw={400}>{byId[c.column.id].cell(r.original)}</Table.Th>
                  : <Table.Td key={c.id}>{byId[c.column.id].cell(r.original)}</Table.Td>)}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </div>
  );
}
