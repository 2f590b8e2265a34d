-- Alerts for supervisors and admins (docs/points.md, "Alerts").

-- Kind customerOperations fires when a customer has more than this many accreditations and
-- redemptions in one local day; 0 turns it off.
alter table settings add column alert_operations_per_day integer not null default 5;

-- Supervisors see alerts by default (the screen /alertas; cajeros never do). The settings row of a
-- new company is written by V1 before this runs, so the update covers new companies too.
update settings
set role_permissions = jsonb_set(role_permissions, '{supervisor}', (role_permissions -> 'supervisor') || '["/alertas"]'::jsonb)
where jsonb_typeof(role_permissions -> 'supervisor') = 'array'
  and not (role_permissions -> 'supervisor') ? '/alertas';

-- One alert per kind, subject and local day, so finding them again changes nothing and a review
-- stays. `subject` is the uniqueness key (`customer:<id>`, `cashier:<id>:customer:<id>`,
-- `invoice:<key>`); the columns beside it are what the screen shows.
create table alerts (
    id                  bigserial primary key,
    kind                text not null check (kind in
                            ('customerOperations', 'cashierRepeats', 'refundAfterRedemption', 'invoiceReassigned')),
    day                 date not null,
    subject             text not null,
    customer_id         bigint references customers (id),
    cashier_id          bigint references users (id),
    invoice_reference   text,
    occurrences         bigint not null,
    points              bigint,
    threshold           bigint,
    transaction_ids     bigint[] not null,
    status              text not null default 'new' check (status in ('new', 'reviewed')),
    detected_at         timestamptz not null default now(),
    reviewed_by         text,
    reviewed_at         timestamptz,
    constraint alerts_subject_key unique (kind, subject, day)
);
create index alerts_list_idx on alerts (day desc, id desc);
create index alerts_new_idx on alerts (day desc, id desc) where status = 'new';

-- The last local day whose alerts were found after it had closed: later reads scan only the days
-- after it (docs/points.md, "When alerts are found").
create table alert_scans (
    id                  boolean primary key default true check (id),
    scanned_through     date
);
insert into alert_scans default values;

-- invoiceReassigned: the voided accreditations of an invoice reference (the unique index on
-- invoice_key covers only the active one).
create index transactions_voided_invoice_idx on transactions (invoice_key) where is_voided and invoice_key is not null;
