/**
 * The dialogs API as components and hooks reach it. Kept apart from the provider, which renders
 * every dialog: a dialog's own components open dialogs too, and importing the provider from them
 * would make the provider import itself through its dialogs.
 */
import { createContext, useContext } from 'react';
import type { DialogKind, DialogState } from './dialog-store';

export interface OpenOptions {
  type?: DialogKind;
  preventClose?: boolean;
  title?: string;
  componentProps?: Record<string, unknown>;
  /** Queue mode: show after the dialogs already open, one after another. */
  queue?: boolean;
}

export interface DialogApi {
  state: DialogState;
  open: (component: string, options?: OpenOptions) => { id: string; closed: Promise<unknown> };
  close: (id: string, args?: unknown, options?: { force?: boolean }) => void;
}

/** What every dialog component is given besides its own props. */
export interface DialogComponentProps {
  dialogId: string;
  close: (args?: unknown) => void;
}

export const DialogContext = createContext<DialogApi | null>(null);

export function useDialogs(): DialogApi {
  const api = useContext(DialogContext);
  if (!api) throw new Error('useDialogs needs a DialogProvider');
  return api;
}
