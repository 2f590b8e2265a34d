-- Suppression and retention under Ley 1581 de 2012 (docs/privacy.md, "Suppression" and
-- "Retention").

-- A suppressed customer's remaining points leave the balance through a ledger row of their own,
-- `forfeit` (negative points, by the user who suppressed, or `system` for the retention rule).
alter table transactions drop constraint transactions_type_check;
alter table transactions add constraint transactions_type_check
    check (type in ('accreditation', 'redemption', 'expiration', 'cancellation', 'return', 'forfeit'));

-- When a customer with history was anonymised: its personal data is gone for good, it stays
-- inactive and cannot be reactivated; the ledger keeps its figures under the anonymous record.
alter table customers add column suppressed_at timestamptz;

-- The retention rule: customers without activity for this many years are anonymised by the
-- daily job; 0, the default, is off.
alter table settings add column retention_years integer not null default 0
    check (retention_years between 0 and 100);
