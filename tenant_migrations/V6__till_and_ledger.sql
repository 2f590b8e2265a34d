-- The till and the ledger.

-- An invoice is credited once: an active (not voided) accreditation holds its reference, compared
-- without regard to case, in `invoice_key`, and a unique index keeps a second one out, even when
-- two tills race. Accreditations already on the ledger keep their history: only the oldest
-- active accreditation of each reference takes the key, so existing duplicates stay readable.
alter table transactions add column invoice_key text;
update transactions t set invoice_key = first.key
from (select min(id) as id, upper(invoice_reference) as key from transactions
      where type = 'accreditation' and not is_voided and invoice_reference is not null
      group by upper(invoice_reference)) first
where t.id = first.id;
create unique index transactions_invoice_key on transactions (invoice_key) where not is_voided;

-- Each posting keeps the customer's balance before and after it, so a reprinted receipt shows the
-- exact balances. Rows written before this migration have none (the receipt says so).
alter table transactions add column balance_before bigint;
alter table transactions add column balance_after bigint;

-- The ledger keeps what happened (the kind and the figures), not a sentence: screens, receipts and
-- the CSV word it in the reader's language. The sentences the server and the till wrote are
-- cleared; what a cashier wrote stays. A redemption's description that is its product's name is
-- the product, which the row already names.
update transactions set description = null
where (type = 'accreditation' and description ~ '^Purchase of [0-9]+ COP$')
   or (type = 'cancellation' and description ~ '^Cancellation of transaction #[0-9]+$')
   or (type = 'expiration' and description ~ '^Points expired \((none|fifo|inactivity|calendar) policy\)$')
   or (type = 'redemption' and description in ('Points redemption', 'Redención de puntos'));
update transactions t set description = null
from products p
where t.type = 'redemption' and t.product_id = p.id and t.description = p.name;
