/**
 * Toasts (spec §2, §9): shown for a set time (5000 ms unless told), closable by hand, placed
 * below the header.
 */
import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
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
  const stack = useRef<HTMLDivElement>(null);
  useBelowHeader(stack, toasts.length > 0);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div ref={stack} className="toasts" aria-live="polite">
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

/** Room between the header's lower edge and the first toast, as in the stylesheet's fallback. */
const GAP_BELOW_HEADER_PX = 12;

/**
 * Keeps the shown toasts just below the header's lower edge. The stylesheet places them one header
 * height down, which is right until something sits above the sticky header (the demo ribbon, until
 * it scrolls away): then the header is lower, so the edge is measured while toasts are shown.
 */
function useBelowHeader(stack: RefObject<HTMLDivElement | null>, isShowing: boolean): void {
  useLayoutEffect(() => {
    const node = stack.current;
    if (!isShowing || !node) return;
    const place = () => {
      const header = document.querySelector('.site-header');
      node.style.top = header ? `${Math.max(0, header.getBoundingClientRect().bottom) + GAP_BELOW_HEADER_PX}px` : '';
    };
    place();
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
    };
  }, [stack, isShowing]);
}

export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToasts needs a ToastProvider');
  return api;
}
