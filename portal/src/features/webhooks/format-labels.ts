// How each delivery format is named on screen.
import type { WebhookFormat } from '../../types/api';

export const FORMAT_LABELS: Record<WebhookFormat, string> = { standard: 'Standard Webhooks', discord: 'Discord' };
