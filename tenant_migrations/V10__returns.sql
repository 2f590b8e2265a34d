-- Returns (docs/points.md, "Returns"): part or all of an accredited invoice given back.

-- A new ledger kind, `return`: negative points, `original_transaction_id` naming the
-- accreditation, `invoice_amount` holding the pesos given back.
alter table transactions drop constraint transactions_type_check;
alter table transactions add constraint transactions_type_check
    check (type in ('accreditation', 'redemption', 'expiration', 'cancellation', 'return'));

-- A transaction is still cancelled at most once, but an accreditation may have many returns.
drop index transactions_one_cancellation;
create unique index transactions_one_cancellation on transactions (original_transaction_id)
    where original_transaction_id is not null and type = 'cancellation';
create index transactions_returns_idx on transactions (original_transaction_id)
    where type = 'return';

-- Under the rule `negative`, a return of points the customer already spent takes the balance
-- below zero; the points of the customer's next postings pay that debt first.
alter table customers drop constraint customers_points_check;

-- What a return does when the customer has spent the points it reverses: `refuse` (409) or
-- `negative` (the balance goes below zero and redemptions wait until it is positive again).
alter table settings add column return_of_spent_points text not null default 'refuse'
    check (return_of_spent_points in ('refuse', 'negative'));
