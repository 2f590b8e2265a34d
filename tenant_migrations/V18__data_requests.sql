-- Requests of a data holder under Ley 1581 de 2012 (arts. 14-15): consultas (answered within 10
-- business days, extendable once by 5) and reclamos (15, extendable once by 8), each with its due
-- date in Colombian business days, counted from the day after filing in the company's time zone
-- (docs/privacy.md). A customer with a reclamo open is marked "reclamo en trámite".
create table data_requests (
    id                bigserial primary key,
    customer_id       bigint references customers (id) on delete set null,
    document          text not null,
    kind              text not null check (kind in ('consulta', 'reclamo')),
    subject           text not null,
    details           text not null,
    status            text not null default 'open' check (status in ('open', 'incomplete', 'answered', 'closed')),
    filed_at          timestamptz not null default now(),
    filed_on          date not null,
    due_on            date not null,
    filed_by          text not null,
    extended_at       timestamptz,
    extension_reason  text,
    incomplete_reason text,
    answer            text,
    answered_at       timestamptz,
    answered_by       text,
    closed_at         timestamptz
);
create index data_requests_open_due_idx on data_requests (due_on, id) where status in ('open', 'incomplete');
create index data_requests_customer_idx on data_requests (customer_id) where customer_id is not null;

alter table customers add column claim_in_progress boolean not null default false;
