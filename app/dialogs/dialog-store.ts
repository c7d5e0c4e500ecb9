/**
 * The dialog stack of spec §2 as a pure state machine, so its rules are unit-tested without a
 * browser: kinds popup, confirm and curtain stack; only the topmost of each kind is visible; a
 * queued dialog waits until nothing is open; prevent-close holds unless forced.
 */
export const DIALOG_KINDS = ['popup', 'confirm', 'curtain'] as const;
export type DialogKind = (typeof DIALOG_KINDS)[number];

export interface DialogEntry {
  id: string;
  type: DialogKind;
  component: string;
  dialogProps: { preventClose?: boolean; title?: string };
  componentProps: Record<string, unknown>;
}

export interface DialogState {
  open: DialogEntry[];
  queue: DialogEntry[];
}

export const EMPTY_DIALOGS: DialogState = { open: [], queue: [] };

/** Opens at once, or in queue mode waits behind every dialog already open or queued. */
export function openDialog(state: DialogState, entry: DialogEntry, isQueued = false): DialogState {
  if (isQueued && (state.open.length > 0 || state.queue.length > 0)) return { ...state, queue: [...state.queue, entry] };
  return { ...state, open: [...state.open, entry] };
}

/** Closes one dialog (unless it prevents closing and the close is not forced); the next queued one opens when none is left. */
export function closeDialog(state: DialogState, id: string, isForced = false): { state: DialogState; closed?: DialogEntry } {
  const target = state.open.find((entry) => entry.id === id) ?? state.queue.find((entry) => entry.id === id);
  if (!target) return { state };
  if (target.dialogProps.preventClose && !isForced) return { state };
  let open = state.open.filter((entry) => entry.id !== id);
  let queue = state.queue.filter((entry) => entry.id !== id);
  if (open.length === 0 && queue.length > 0) {
    const [next, ...rest] = queue;
    open = next ? [next] : [];
    queue = rest;
  }
  return { state: { open, queue }, closed: target };
}

/** Ids of the dialogs shown: the topmost (last opened) of each kind. */
export function visibleDialogIds(state: DialogState): Set<string> {
  const visible = new Set<string>();
  for (const kind of DIALOG_KINDS) {
    const top = state.open.filter((entry) => entry.type === kind).at(-1);
    if (top) visible.add(top.id);
  }
  return visible;
}

/** The dialog that Escape or a click outside would close: the last opened visible one. */
export function topmostDialog(state: DialogState): DialogEntry | undefined {
  return state.open.at(-1);
}
