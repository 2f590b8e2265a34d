-- Webhook endpoints and their outbox (docs/webhooks.md). The secret is kept as it was shown
-- (`whsec_...`): the server signs with it, so it cannot be hashed.
create table webhook_endpoints (
    id                    bigserial primary key,
    url                   text not null,
    events                text[] not null,
    secret                text not null,
    -- For points.expiring: how many days before the points expire the event is sent.
    expiring_days         integer not null default 7 check (expiring_days between 1 and 90),
    consecutive_failures  integer not null default 0,
    disabled_at           timestamptz,
    created_at            timestamptz not null default now(),
    created_by            text not null
);

-- One row per event and endpoint, written in the transaction of the change it reports: the
-- outbox and the delivery log at once. `message_id` is the `webhook-id` of every attempt.
create table webhook_deliveries (
    id               bigserial primary key,
    endpoint_id      bigint not null references webhook_endpoints (id) on delete cascade,
    message_id       text not null,
    event_type       text not null,
    payload          jsonb not null,
    created_at       timestamptz not null default now(),
    status           text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
    attempts         integer not null default 0,
    -- Retries go on until 24 hours after this (the event's time, or a manual re-send's).
    retry_since      timestamptz not null default now(),
    next_attempt_at  timestamptz not null default now(),
    last_attempt_at  timestamptz,
    last_status      integer,
    last_error       text
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at, id) where status = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id);
