/**
 * Dialogs for the whole site: open returns a promise of the arguments the dialog is closed
 * with. Opening any dialog locks page scroll (spec §2).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { EMPTY_DIALOGS, closeDialog, openDialog, type DialogEntry, type DialogState } from './dialog-store';
import { DialogContext, type DialogApi } from './dialog-context';
import { DialogHost } from './dialog-host';

let sequence = 0;

export function DialogProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<DialogState>(EMPTY_DIALOGS);
  const stateRef = useRef(state);
  stateRef.current = state;
  const resolvers = useRef(new Map<string, (args: unknown) => void>());

  const open = useCallback<DialogApi['open']>((component, options = {}) => {
    const entry: DialogEntry = {
      id: `dialog-${++sequence}`,
      type: options.type ?? 'popup',
      component,
      dialogProps: { preventClose: options.preventClose, title: options.title },
      componentProps: options.componentProps ?? {},
    };
    const closed = new Promise<unknown>((resolve) => resolvers.current.set(entry.id, resolve));
    stateRef.current = openDialog(stateRef.current, entry, options.queue);
    setState(stateRef.current);
    return { id: entry.id, closed };
  }, []);

  const close = useCallback<DialogApi['close']>((id, args, options) => {
    const result = closeDialog(stateRef.current, id, options?.force);
    if (!result.closed) return;
    stateRef.current = result.state;
    setState(result.state);
    resolvers.current.get(id)?.(args);
    resolvers.current.delete(id);
  }, []);

  useEffect(() => {
    const isLocked = state.open.length > 0;
    document.documentElement.classList.toggle('is-scroll-locked', isLocked);
  }, [state.open.length]);

  const api = useMemo(() => ({ state, open, close }), [state, open, close]);
  return (
    <DialogContext.Provider value={api}>
      {children}
      <DialogHost />
    </DialogContext.Provider>
  );
}
