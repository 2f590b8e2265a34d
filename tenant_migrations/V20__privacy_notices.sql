-- The company's privacy notice (aviso de privacidad, Decreto 1377 de 2013 arts. 13-16), in
-- versions that are never edited nor deleted: a new text is a new version, the highest the one in
-- force. And the customers' authorizations (Ley 1581 de 2012 art. 9, D.1377 arts. 5 and 7): one
-- row per purpose each time a customer's answer is recorded, with the notice version it answered,
-- the channel, who recorded it and when; a customer's current answer to a purpose is its latest
-- row (docs/privacy.md).
create table privacy_notices (
    version      integer primary key check (version > 0),
    body         text not null,
    -- [{"key": "loyalty", "description": "..."}, ...]; `loyalty` is always there and required.
    purposes     jsonb not null,
    published_at timestamptz not null default now(),
    published_by text not null,
    impersonated_by text
);

create table customer_consents (
    id              bigserial primary key,
    customer_id     bigint not null references customers (id) on delete cascade,
    notice_version  integer not null references privacy_notices (version),
    purpose         text not null,
    granted         boolean not null,
    channel         text not null check (channel in ('store', 'web', 'import')),
    recorded_at     timestamptz not null default now(),
    recorded_by     text not null,
    impersonated_by text
);
create index customer_consents_customer_idx on customer_consents (customer_id, purpose, id);
