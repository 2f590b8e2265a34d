-- Opening balances (docs/import.md): a customer imported with points gets one ledger row of its
-- own kind, `opening`, with a batch, so expiration treats its points like earned ones.
alter table transactions drop constraint transactions_type_check;
alter table transactions add constraint transactions_type_check
    check (type in ('accreditation', 'redemption', 'expiration', 'cancellation', 'return', 'forfeit', 'opening'));
