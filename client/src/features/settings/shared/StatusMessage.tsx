import { CheckCircleIcon, XCircleIcon } from '@heroicons/react/24/outline';
import type { TimedMessage } from './useTimedMessage';

/** An inline success or error message (settings saved, expiration result). */
export function StatusMessage({ message, testId }: { message: TimedMessage | null; testId?: string }) {
  if (!message) return null;
  const Icon = message.kind === 'success' ? CheckCircleIcon : XCircleIcon;
  return (
    <div
      className={`status-message ${message.kind === 'success' ? 'tone-success' : 'tone-danger'}`}
      role={message.kind === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      <Icon aria-hidden="true" />
      <div>
        <p>{message.text}</p>
        {message.detail ? <p className="status-message-detail">{message.detail}</p> : null}
      </div>
    </div>
  );
}
