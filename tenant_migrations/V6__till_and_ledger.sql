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
