-- One company's data. Runs inside the company's own schema (search_path = tenant_<prefix>);
-- nothing here may refer to another schema, so a tenant schema can move between nodes whole.

create table points_of_sale (
    id          bigserial primary key,
    name        text not null,
    is_active   boolean not null default true,
    created_at  timestamptz not null default now()
);
create unique index points_of_sale_name_key on points_of_sale (lower(name));

create table users (
    id              bigserial primary key,
    username        text not null,
    password_hash   text not null,
    role            text not null check (role in ('admin', 'supervisor', 'cajero')),
    pos_id          bigint references points_of_sale (id),
    is_active       boolean not null default true,
    created_at      timestamptz not null default now(),
    constraint users_username_key unique (username),
    constraint users_pos_by_role check ((role = 'admin') = (pos_id is null))
);
create index users_pos_idx on users (pos_id);

create table customers (
    id                  bigserial primary key,
    document            text not null,
    name                text not null,
    email               text,
    phone               text,
    address             text,
    birthdate           date,
    points              bigint not null default 0 check (points >= 0),
    is_active           boolean not null default true,
    last_activity_at    timestamptz,
    created_at          timestamptz not null default now(),
    constraint customers_document_key unique (document)
);
create index customers_name_idx on customers (lower(name), id) where is_active;

create table categories (
    id          bigserial primary key,
    name        text not null,
    icon        text not null,
    is_active   boolean not null default true,
    created_at  timestamptz not null default now()
);
create unique index categories_name_key on categories (lower(name));

create table products (
    id              bigserial primary key,
    code            text not null,
    name            text not null,
    description     text,
    image_url       text,
    price           bigint not null default 0 check (price >= 0),
    points_value    bigint not null default 0 check (points_value >= 0),
    is_active       boolean not null default true,
    category_id     bigint references categories (id),
    created_at      timestamptz not null default now(),
    constraint products_code_key unique (code)
);
create index products_category_idx on products (category_id);

-- The program's rules: exactly one row.
create table settings (
    id                                  boolean primary key default true check (id),
    points_per_peso                     numeric(14, 3) not null default 0,
    redemption_rate                     numeric(14, 3) not null default 0,
    campaign_multiplier                 numeric(8, 3) not null default 1,
    expiration_policy                   text not null default 'none'
                                        check (expiration_policy in ('none', 'fifo', 'inactivity', 'calendar')),
    points_expiration_days              integer not null default 365,
    inactivity_days                     integer not null default 180,
    enable_first_purchase_bonus         boolean not null default false,
    first_purchase_bonus_multiplier     numeric(8, 3) not null default 1,
    enable_birthday_bonus               boolean not null default false,
    birthday_bonus_multiplier           numeric(8, 3) not null default 1,
    role_permissions                    jsonb not null default
        '{"supervisor": ["/main", "/accreditar", "/redimir", "/reportes", "/settings/customers", "/settings/products", "/settings/categories"],
          "cajero": ["/main", "/accreditar", "/redimir", "/reportes"]}'::jsonb,
    time_zone                           text not null default 'America/Bogota',
    updated_at                          timestamptz not null default now()
);
insert into settings default values;

-- The ledger. A customer's balance equals the sum of its rows' points at every commit.
create table transactions (
    id                      bigserial primary key,
    created_at              timestamptz not null default now(),
    type                    text not null
                            check (type in ('accreditation', 'redemption', 'expiration', 'cancellation')),
    points                  bigint not null,
    customer_id             bigint not null references customers (id),
    cashier_id              bigint references users (id),
    cashier_username        text,
    pos_id                  bigint references points_of_sale (id),
    description             text,
    invoice_amount          bigint,
    redeemed_value          bigint,
    invoice_reference       text,
    product_id              bigint references products (id),
    is_voided               boolean not null default false,
    voided_by               text,
    voided_at               timestamptz,
    original_transaction_id bigint references transactions (id)
);
create index transactions_created_idx on transactions (created_at desc, id desc);
create index transactions_customer_idx on transactions (customer_id, id);
create index transactions_pos_idx on transactions (pos_id, created_at desc);
create index transactions_cashier_idx on transactions (cashier_id, created_at desc);
create index transactions_product_idx on transactions (product_id) where product_id is not null;
create unique index transactions_one_cancellation on transactions (original_transaction_id)
    where original_transaction_id is not null;

-- Points are held in batches, one per accreditation, so expiration knows which points are due.
create table point_batches (
    id              bigserial primary key,
    customer_id     bigint not null references customers (id),
    transaction_id  bigint not null references transactions (id),
    earned_at       timestamptz not null,
    points          bigint not null check (points > 0),
    remaining       bigint not null check (remaining >= 0 and remaining <= points)
);
create index point_batches_open_idx on point_batches (customer_id, earned_at, id) where remaining > 0;
create unique index point_batches_transaction_key on point_batches (transaction_id);

-- How many points a redemption or expiration took from each batch, so a void can give them back.
create table batch_movements (
    transaction_id  bigint not null references transactions (id),
    batch_id        bigint not null references point_batches (id),
    points          bigint not null check (points > 0),
    primary key (transaction_id, batch_id)
);
create index batch_movements_batch_idx on batch_movements (batch_id);

-- Answers of accredit, redeem and void by Idempotency-Key, so a retried request posts nothing twice.
create table idempotency_keys (
    key             text primary key,
    user_id         bigint not null,
    operation       text not null,
    request_hash    text not null,
    status          smallint not null,
    response        jsonb not null,
    created_at      timestamptz not null default now()
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);

-- One row per expiration run date, so the daily job expires at most once a day.
create table expiration_runs (
    id              bigserial primary key,
    run_at          timestamptz not null default now(),
    run_date        date not null,
    trigger         text not null check (trigger in ('manual', 'daily')),
    actor           text not null,
    points          bigint not null,
    customers       bigint not null
);
create unique index expiration_runs_daily_key on expiration_runs (run_date) where trigger = 'daily';

create table audit_log (
    id              bigserial primary key,
    at              timestamptz not null default now(),
    actor           text not null,
    impersonated_by text,
    action          text not null,
    entity          text,
    entity_id       bigint,
    detail          jsonb not null default '{}'::jsonb
);
create index audit_log_at_idx on audit_log (at desc);
