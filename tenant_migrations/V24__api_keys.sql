-- Keys a point-of-sale system calls the POS API with (docs/integration.md). Only the key's
-- SHA-256 is kept; the key itself is shown once, when it is made. A revoked key keeps its row,
-- since the ledger rows it posted name it.
create table api_keys (
    id                    bigserial primary key,
    name                  text not null,
    pos_id                bigint not null references points_of_sale (id) on delete cascade,
    key_hash              text not null,
    key_hint              text not null,
    created_at            timestamptz not null default now(),
    created_by            text not null,
    last_used_at          timestamptz,
    revoked_at            timestamptz,
    revoked_by            text,
    -- Requests a minute the key may make; the count of the minute that started at
    -- window_started_at.
    rate_limit_per_minute integer not null default 120 check (rate_limit_per_minute > 0),
    window_started_at     timestamptz,
    window_count          integer not null default 0
);
create unique index api_keys_hash_key on api_keys (key_hash);
create unique index api_keys_name_key on api_keys (lower(name)) where revoked_at is null;
create index api_keys_pos_idx on api_keys (pos_id);

-- The key a ledger row was posted with (its cashier_username is the key's name, its cashier_id null).
alter table transactions add column api_key_id bigint references api_keys (id);
