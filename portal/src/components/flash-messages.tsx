// The success messages of the last mutations, announced politely to screen readers.
import { useSyncExternalStore } from 'react';
import { flash } from '../lib/flash';

export function FlashMessages() {
  const messages = useSyncExternalStore(flash.subscribe, flash.list);
  return (
    <div className="flash-messages" role="status" aria-live="polite">
      {messages.map((message) => (
        <div key={message.id} className="alert alert-success flash">
          <span>{message.text}</span>
          <button type="button" className="button button-small" aria-label="Dismiss" onClick={() => flash.dismiss(message.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
