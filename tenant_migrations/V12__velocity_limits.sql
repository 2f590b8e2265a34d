-- Velocity limits (docs/points.md, "Velocity limits"): the most accreditations and the most
-- points a customer may be credited in one calendar day of the company's time zone; 0 is no limit.
alter table settings add column max_accreditations_per_customer_per_day integer not null default 0
    check (max_accreditations_per_customer_per_day >= 0);
alter table settings add column max_points_per_customer_per_day bigint not null default 0
    check (max_points_per_customer_per_day >= 0);

-- The supervisor or admin who approved an accreditation beyond a limit; null on every other row.
alter table transactions add column approved_by text;

-- The day's accreditations of one customer, read under the customer's lock by every accreditation
-- while a limit is set.
create index transactions_customer_accreditations_idx on transactions (customer_id, created_at)
    where type = 'accreditation' and not is_voided;
