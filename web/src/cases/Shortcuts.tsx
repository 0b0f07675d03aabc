import { useEffect } from 'react';
import { Button, Kbd, Popover, Table } from '@mantine/core';

// The queue's keyboard shortcuts (docs/guide/dashboard-cases.md "Shortcuts"). They act only when the
// focus is not in a field, so typing a note or a filter never triggers one.
export const shortcuts: [string, string][] = [
  ['j', 'next case'], ['k', 'previous case'], ['Enter or o', 'open the case'], ['x', 'select or unselect the case'],
  ['a', 'assign the case to me'], [']', 'next page'], ['[', 'previous page'], ['?', 'show these shortcuts'],
];

type Handlers = { next: () => void; prev: () => void; open: () => void; toggle: () => void; assignToMe: () => void; nextPage: () => void; prevPage: () => void };

export function useQueueKeys(h: Handlers) {
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const tag = t?.tagName ?? '';
      if (e.ctrlKey || e.metaKey || e.altKey || t?.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(tag)) return;
      // Enter on a link or a button is theirs (open the link, press the button).
      if (e.key === 'Enter' && ['A', 'BUTTON'].includes(tag)) return;
      const act: Record<string, () => void> = { j: h.next, k: h.prev, o: h.open, Enter: h.open, x: h.toggle, a: h.assignToMe, ']': h.nextPage, '[': h.prevPage };
      const f = act[e.key];
      if (f) { e.preventDefault(); f(); }
      if (e.key === '?') document.getElementById('shortcuts-btn')?.click();
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  });
}

// Shortcuts is the discoverable list: a button ("Keyboard shortcuts", or ?) opening the table.
export function Shortcuts() {
  return (
    <Popover width={300} position="bottom-end" withArrow>
      <Popover.Target><Button id="shortcuts-btn" variant="subtle" size="compact-sm">Keyboard shortcuts (?)</Button></Popover.Target>
      <Popover.Dropdown>
        <Table fz="sm" aria-label="Keyboard shortcuts">
          <Table.Tbody>{shortcuts.map(([k, what]) => <Table.Tr key={k}><Table.Td>{k.split(' or ').map((x, i) => <span key={x}>{i > 0 && ' or '}<Kbd>{x}</Kbd></span>)}</Table.Td><Table.Td>{what}</Table.Td></Table.Tr>)}</Table.Tbody>
        </Table>
      </Popover.Dropdown>
    </Popover>
  );
}
