-- The customer search matches a part of the name or the document without regard to case.
-- Lower-casing every row at query time dominated the search; keep it lower-cased once, here.
alter table customers
    add column search_key text generated always as (lower(name) || ' ' || lower(document)) stored;
