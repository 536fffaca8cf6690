// Short success messages ("Customer created.") shown after a mutation, whatever page the
// app moves to next. A mutation names its message in `meta.success`; the query client
// posts it here. Each message disappears after a few seconds or when dismissed.

export interface FlashMessage {
  id: number;
  text: string;
}

const SHOW_MILLIS = 6000;
let messages: FlashMessage[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const flash = {
  list: (): FlashMessage[] => messages,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  show(text: string): void {
    const message = { id: nextId++, text };
    messages = [...messages.slice(-2), message];
    emit();
    setTimeout(() => flash.dismiss(message.id), SHOW_MILLIS);
  },
  dismiss(id: number): void {
    if (!messages.some((m) => m.id === id)) return;
    messages = messages.filter((m) => m.id !== id);
    emit();
  },
};
