-- Companies with webhook deliveries to make (docs/webhooks.md, "The worker"). A company's
-- transaction that writes deliveries to its outbox inserts a row here in the same transaction;
-- the delivery worker of any server process claims rows with `for update skip locked`, so it
-- never scans the companies' schemas. Several rows may name one company: none is unique, so
-- the tills never wait on each other here.
create table webhook_pending (
    id      bigserial primary key,
    prefix  text not null,
    due_at  timestamptz not null default now()
);
create index webhook_pending_due_idx on webhook_pending (due_at, id);
create index webhook_pending_prefix_idx on webhook_pending (prefix);
