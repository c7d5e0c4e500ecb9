import { describe, expect, it } from 'vitest';
import {
  EMPTY_DIALOGS,
  closeDialog,
  openDialog,
  topmostDialog,
  visibleDialogIds,
  type DialogEntry,
  type DialogKind,
} from './dialog-store';

function entry(id: string, type: DialogKind = 'popup', preventClose = false): DialogEntry {
  return { id, type, component: 'x', dialogProps: { preventClose }, componentProps: {} };
}

describe('dialog stack (spec §2: kinds popup, confirm, curtain; only the topmost of each kind is visible)', () => {
  it('shows only the last opened dialog of each kind', () => {
    let state = openDialog(EMPTY_DIALOGS, entry('p1'));
    state = openDialog(state, entry('c1', 'confirm'));
    state = openDialog(state, entry('p2'));
    state = openDialog(state, entry('k1', 'curtain'));
    expect([...visibleDialogIds(state)].sort()).toEqual(['c1', 'k1', 'p2']);
    expect(topmostDialog(state)?.id).toBe('k1');
  });

  it('reveals the dialog underneath when the top one closes, and passes back what closed', () => {
    let state = openDialog(openDialog(EMPTY_DIALOGS, entry('p1')), entry('p2'));
    const result = closeDialog(state, 'p2');
    state = result.state;
    expect(result.closed?.id).toBe('p2');
    expect([...visibleDialogIds(state)]).toEqual(['p1']);
  });
});

describe('queue mode (spec §2: dialogs one after another)', () => {
  it('waits while anything is open and opens each queued dialog when the previous one closes', () => {
    let state = openDialog(EMPTY_DIALOGS, entry('a'));
    state = openDialog(state, entry('q1'), true);
    state = openDialog(state, entry('q2'), true);
    expect(state.open.map((d) => d.id)).toEqual(['a']);
    state = closeDialog(state, 'a').state;
    expect(state.open.map((d) => d.id)).toEqual(['q1']);
    state = closeDialog(state, 'q1').state;
    expect(state.open.map((d) => d.id)).toEqual(['q2']);
    state = closeDialog(state, 'q2').state;
    expect(state).toEqual(EMPTY_DIALOGS);
  });
  it('opens a queued dialog at once when nothing is open', () => {
    expect(openDialog(EMPTY_DIALOGS, entry('q'), true).open.map((d) => d.id)).toEqual(['q']);
  });
});

describe('prevent-close (spec §2: cannot be closed unless forced)', () => {
  it('ignores a normal close and obeys a forced one', () => {
    const state = openDialog(EMPTY_DIALOGS, entry('locked', 'popup', true));
    expect(closeDialog(state, 'locked')).toEqual({ state });
    const forced = closeDialog(state, 'locked', true);
    expect(forced.closed?.id).toBe('locked');
    expect(forced.state.open).toEqual([]);
  });
  it('closing an unknown id changes nothing', () => {
    const state = openDialog(EMPTY_DIALOGS, entry('a'));
    expect(closeDialog(state, 'nope').state).toBe(state);
  });
});
