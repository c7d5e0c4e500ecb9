/**
 * Toasts (spec §2, §9): shown for a set time (5000 ms unless told), closable by hand, placed
 * below the header.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '~/i18n';

export const DEFAULT_TOAST_MS = 5000;

export interface Toast {
  id: string;
  text: string;
  tone: 'info' | 'success' | 'error';
}

interface ToastApi {
  show: (text: string, options?: { tone?: Toast['tone']; timeoutMs?: number }) => string;
  close: (id: string) => void;
}

const ToastContext = createContext<ToastApi | null>(null);
let sequence = 0;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const { t } = useI18n();

  const close = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((list) => list.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback<ToastApi['show']>(
    (text, options = {}) => {
      const id = `toast-${++sequence}`;
      setToasts((list) => [...list, { id, text, tone: options.tone ?? 'info' }]);
      timers.current.set(
        id,
        setTimeout(() => close(id), options.timeoutMs ?? DEFAULT_TOAST_MS),
      );
      return id;
    },
    [close],
  );

  const api = useMemo(() => ({ show, close }), [show, close]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.tone}`} role="status">
            <span>{toast.text}</span>
            <button type="button" className="toast__close" aria-label={t('dialog.close')} onClick={() => close(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToasts needs a ToastProvider');
  return api;
}
