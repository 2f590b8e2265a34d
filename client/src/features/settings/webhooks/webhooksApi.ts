import { api } from '../../../app/api';
import type { CreatedWebhook, Webhook, WebhookDelivery, WebhookInput } from '../../../lib/types';

const LIST = { type: 'Webhook', id: 'LIST' } as const;
const deliveriesOf = (id: number) => ({ type: 'Webhook' as const, id: `DELIVERIES-${id}` });

/** The company's webhook endpoints and their delivery logs (admins; docs/webhooks.md). */
export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWebhooks: build.query<Webhook[], void>({
      query: () => '/webhooks',
      providesTags: [LIST],
    }),
    createWebhook: build.mutation<CreatedWebhook, WebhookInput>({
      query: (body) => ({ url: '/webhooks', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    deleteWebhook: build.mutation<void, number>({
      query: (id) => ({ url: `/webhooks/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
    enableWebhook: build.mutation<Webhook, number>({
      query: (id) => ({ url: `/webhooks/${id}/enable`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [LIST, deliveriesOf(id)],
    }),
    getWebhookDeliveries: build.query<WebhookDelivery[], number>({
      query: (id) => `/webhooks/${id}/deliveries`,
      providesTags: (_result, _error, id) => [deliveriesOf(id)],
    }),
    resendWebhookDelivery: build.mutation<WebhookDelivery, { webhookId: number; deliveryId: number }>({
      query: ({ webhookId, deliveryId }) => ({
        url: `/webhooks/${webhookId}/deliveries/${deliveryId}/resend`,
        method: 'POST',
      }),
      invalidatesTags: (_result, _error, { webhookId }) => [deliveriesOf(webhookId)],
    }),
  }),
});

export const {
  useGetWebhooksQuery,
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useEnableWebhookMutation,
  useGetWebhookDeliveriesQuery,
  useResendWebhookDeliveryMutation,
} = webhooksApi;

/** Every event an endpoint may take, in the order the form lists them. */
export const WEBHOOK_EVENTS = [
  'points.accredited',
  'points.redeemed',
  'transaction.voided',
  'transaction.returned',
  'points.expiring',
  'customer.created',
] as const;
