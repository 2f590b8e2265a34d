-- Products: an active product is worth at least 1 point, so every product the till offers can be
-- redeemed. Products already active at 0 points are deactivated (the admin sets a value and
-- reactivates them from the list's inactive records).
update products set is_active = false where is_active and points_value < 1;
alter table products add constraint products_active_points check (not is_active or points_value >= 1);

-- Product codes are unique without regard to case, like the names of categories and points of
-- sale: PAN-001 and pan-001 are the same product. A code that already differs from an older
-- product's only by case gets the product's id appended (PAN-001 and pan-001-42).
update products p set code = p.code || '-' || p.id
where exists (select 1 from products older where lower(older.code) = lower(p.code) and older.id < p.id);
alter table products drop constraint products_code_key;
create unique index products_code_key on products (lower(code));
